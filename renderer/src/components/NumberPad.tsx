/**
 * An on-screen keypad for a number typed the Serbian way (decimal comma), so that a touch-only till can
 * fill every numeric field. It edits the text it is given; the physical keyboard still types into the
 * field itself (the keys are out of the tab order, as on the PIN pad).
 */
import { useTranslation } from 'react-i18next';

const ROWS = ['7', '8', '9', '4', '5', '6', '1', '2', '3'] as const;

export function NumberPad(props: {
  /** The group's accessible name („Бројчана тастатура“): it must not repeat a field's label. */
  label: string;
  value: string;
  onChange: (text: string) => void;
  /** Offer the decimal comma (amounts, kg and l); whole numbers only without it. */
  decimal: boolean;
  /** Offer a `%` key (a discount typed as a share of the line). */
  percent?: boolean;
}) {
  const { t } = useTranslation();
  const type = (key: string) => {
    if ((key === ',' || key === '%') && props.value.includes(key)) return;
    props.onChange(props.value + key);
  };
  return (
    <div className="number-pad" role="group" aria-label={props.label}>
      {ROWS.map((d) => (
        <button key={d} type="button" tabIndex={-1} onClick={() => type(d)}>
          {d}
        </button>
      ))}
      {props.decimal ? (
        <button type="button" tabIndex={-1} aria-label={t('pad.comma')} onClick={() => type(',')}>
          ,
        </button>
      ) : (
        <span />
      )}
      <button type="button" tabIndex={-1} onClick={() => type('0')}>
        0
      </button>
      <button
        type="button"
        tabIndex={-1}
        aria-label={t('pad.backspace')}
        onClick={() => props.onChange(props.value.slice(0, -1))}
      >
        ⌫
      </button>
      {props.percent && (
        <button type="button" tabIndex={-1} aria-label={t('pad.percent')} onClick={() => type('%')}>
          %
        </button>
      )}
      <button
        type="button"
        tabIndex={-1}
        className={props.percent ? 'wider' : 'wide'}
        aria-label={t('pad.clear')}
        onClick={() => props.onChange('')}
      >
        C
      </button>
    </div>
  );
}
