/**
 * The form pieces of the manager's screens, the same at the till and at the hub UI: a labelled field, a field
 * with its error right under it, an alert, a note with its alert, and a named table (its columns headed).
 */
import type { InputHTMLAttributes, ReactNode } from 'react';
import { HeadedTable } from '../components/HeadedTable.tsx';
import './screen.css';

/** What went wrong, said once (a screen reader reads it at once); nothing when all is well. */
export function Alert(props: { text: string | null }) {
  return props.text ? (
    <p role="alert" className="mgr-error">
      {props.text}
    </p>
  ) : null;
}

/**
 * A manager's table: its label names it, its header row (if any) names the columns. With `scroll`, a table
 * wider than the window scrolls inside its own box, not the page.
 */
export function MgrTable(props: {
  label: string;
  headers?: readonly ReactNode[];
  scroll?: boolean;
  children: ReactNode;
}) {
  const table = (
    <HeadedTable className="mgr-table" label={props.label} headers={props.headers}>
      {props.children}
    </HeadedTable>
  );
  return props.scroll ? <div className="mgr-scroll">{table}</div> : table;
}

/** A list's table (`MgrTable`), or, while the list is empty (`count` 0), the sentence `none` that says so instead. */
export function ListTable(props: Parameters<typeof MgrTable>[0] & { count: number; none: string }) {
  const { count, none, ...table } = props;
  return count === 0 ? <p>{none}</p> : <MgrTable {...table} />;
}

/** What the last action said (a note) and, under it, what went wrong. */
export function NoteAndAlert(props: { note: string | null; error: string | null }) {
  return (
    <>
      {props.note && <p role="status">{props.note}</p>}
      <Alert text={props.error} />
    </>
  );
}

/** A control with its label above it (the label names the control). */
export function Field(props: { label: string; children: ReactNode }) {
  return (
    <label className="mgr-field">
      <span>{props.label}</span>
      {props.children}
    </label>
  );
}

/** A form field whose error is shown right under it (outside the label, so the label stays the name). */
export function CheckedField(props: {
  label: string;
  error: string | undefined;
  errorId: string;
  children: ReactNode;
}) {
  return (
    <div className="mgr-field-group">
      <Field label={props.label}>{props.children}</Field>
      <FieldError error={props.error} errorId={props.errorId} />
    </div>
  );
}

/** A field's error, right under its control; nothing when all is well. */
export function FieldError(props: { error: string | undefined; errorId: string }) {
  return props.error ? (
    <span id={props.errorId} role="alert" className="mgr-error mgr-field-error">
      {props.error}
    </span>
  ) : null;
}

/** How a PIN is typed: a secret of digits the browser neither shows nor fills in. */
export const PIN_INPUT = { type: 'password', inputMode: 'numeric', autoComplete: 'off' } as const;

/** How an address (a URL, a printer's URI) is typed: wide, as written, never completed or corrected. */
export const ADDRESS_INPUT = { size: 34, spellCheck: false, autoComplete: 'off' } as const;

/** A text control's attributes other than its value and its change (which the fields below hold). */
type InputAttrs = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>;

/**
 * A text control with its error right under it (`CheckedField`): marked invalid and described by its error while
 * there is one, and always by its hint (`hintId`) when it has one. `input` gives the control's other attributes.
 */
export function CheckedInput(props: {
  label: string;
  error: string | undefined;
  errorId: string;
  hintId?: string;
  value: string;
  onChange: (value: string) => void;
  input?: InputAttrs;
}) {
  const describedBy = [props.error ? props.errorId : undefined, props.hintId].filter(Boolean).join(' ');
  return (
    <CheckedField label={props.label} error={props.error} errorId={props.errorId}>
      <input
        {...props.input}
        value={props.value}
        {...(describedBy !== '' ? { 'aria-describedby': describedBy } : {})}
        aria-invalid={props.error ? true : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </CheckedField>
  );
}

/** A PIN field with its error right under it (`CheckedInput` typed as `PIN_INPUT`). */
export function CheckedPinInput(props: Parameters<typeof CheckedInput>[0]) {
  return <CheckedInput {...props} input={{ ...PIN_INPUT, ...props.input }} />;
}

/**
 * Binds the text fields of a form held in state to `CheckedInput`s: `bind(name)` gives a field's label, its error
 * (shown under it as `<idPrefix>-<name>-error`), its value and its change.
 */
export function fieldBinder<V extends object>(
  idPrefix: string,
  labels: { readonly [name: string]: string | undefined },
  errors: { readonly [name: string]: string | undefined },
  form: V,
  setForm: (form: V) => void,
) {
  return <K extends keyof V & string>(name: K) => ({
    label: labels[name] ?? '',
    error: errors[name],
    errorId: `${idPrefix}-${name}-error`,
    value: String(form[name]),
    onChange: (value: string) => setForm({ ...form, [name]: value }),
  });
}
