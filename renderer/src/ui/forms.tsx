/**
 * The form pieces of the manager's screens, the same at the till and at the hub UI: a labelled field, a field
 * with its error right under it, an alert, a note with its alert, and a named table (its columns headed).
 */
import type { ReactNode } from 'react';
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
