/**
 * A day for the manager's filters, in the manager's language (`26.11.2026.` in Serbian, `26/11/2026` in
 * English) whatever the browser's own locale, with the previous and next day one touch away. What is typed
 * and is not a day is said at the field, and the form gets `null` (it must not search with the old day).
 */
import { useId, useState } from 'react';
import type { Language } from '../../../shared/domain.ts';
import { addDays, formatDay, isoDay, parseDay } from '../dates.ts';
import type { ManagerT } from './i18n.ts';

export function DateField(props: {
  t: ManagerT;
  lang: Language;
  label: string;
  /** The day (`2026-11-26`), '' for none (only when not `required`), null while what is typed is not a day. */
  value: string | null;
  onChange: (day: string | null) => void;
  /** Empty is not accepted (a day must be chosen). */
  required?: boolean;
}) {
  const { t, lang } = props;
  const id = useId();
  const [text, setText] = useState(() => (props.value ? formatDay(props.value, lang) : ''));
  const [error, setError] = useState<string | null>(null);
  // The value this field sent last (or was shown): a new value from outside (or a new language) is shown,
  // its own is not re-formatted while the manager types. Adjusted while rendering, not in an effect.
  const [shown, setShown] = useState<{ value: string | null; lang: Language }>({ value: props.value, lang });
  if (props.value !== shown.value || lang !== shown.lang) {
    setShown({ value: props.value, lang });
    if (props.value !== null) {
      setText(props.value ? formatDay(props.value, lang) : '');
      setError(null);
    }
  }

  const send = (value: string | null): void => {
    setShown({ value, lang });
    props.onChange(value);
  };
  /** What the typed text is: a day, none, or a mistake (with its message). */
  const judge = (v: string): { day: string | null; error: string | null } => {
    if (v.trim() === '') return props.required ? { day: null, error: t('date_required') } : { day: '', error: null };
    const day = parseDay(v);
    return day === null
      ? { day: null, error: t('date_invalid', { example: formatDay('2026-11-26', lang) }) }
      : { day, error: null };
  };
  const type = (v: string): void => {
    setText(v);
    const r = judge(v);
    // A mistake is said when the manager leaves the field (or presses Enter), not at every key; a fix at once.
    if (r.error === null) setError(null);
    send(r.day);
  };
  const check = (): void => {
    const r = judge(text);
    setError(r.error);
    if (r.day) setText(formatDay(r.day, lang));
  };
  const step = (days: number): void => {
    const from = props.value || parseDay(text) || isoDay(new Date());
    const day = addDays(from, days);
    setText(formatDay(day, lang));
    setError(null);
    send(day);
  };
  const errorId = `${id}-error`;
  return (
    <div className="mgr-field date-field">
      <label htmlFor={id}>
        {props.label} <span className="date-format">({t('date_format')})</span>
      </label>
      <div className="date-row">
        <button type="button" aria-label={t('date_prev', { field: props.label })} onClick={() => step(-1)}>
          ‹
        </button>
        <input
          id={id}
          inputMode="numeric"
          autoComplete="off"
          size={11}
          placeholder={t('date_format')}
          value={text}
          aria-invalid={error !== null}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => type(e.target.value)}
          onBlur={check}
          onKeyDown={(e) => {
            if (e.key === 'Enter') check();
          }}
        />
        <button type="button" aria-label={t('date_next', { field: props.label })} onClick={() => step(1)}>
          ›
        </button>
      </div>
      {error && (
        <span id={errorId} role="alert" className="mgr-error mgr-field-error">
          {error}
        </span>
      )}
    </div>
  );
}
