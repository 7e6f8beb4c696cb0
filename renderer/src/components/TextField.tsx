/**
 * The till's text field, the same in every dialog and screen of the counter: the label holds its text, the
 * control and (when there is one) the field's error, so the label names the control and a change to how a
 * till field looks is made here once.
 */
import type { ComponentPropsWithRef, ReactNode } from 'react';

/** A text control's attributes other than its value and its change (which the field holds), a ref among them. */
export type InputAttrs = Omit<ComponentPropsWithRef<'input'>, 'value' | 'onChange'> & {
  /** `data-autofocus` marks the control a dialog focuses first (`Modal`). */
  [data: `data-${string}`]: string | boolean | undefined;
};

export function TextField(props: {
  /** The field's name, shown above the control (its accessible name). */
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** The control's other attributes (input mode, length, validity, focus). */
  input?: InputAttrs;
  /** What is wrong with the value (a `FieldErrorText`), under the control. */
  error?: ReactNode;
  /** The label's class when the field is laid out other than as a `field`. */
  className?: string;
}) {
  return (
    <label className={props.className ?? 'field'}>
      {props.label}
      <input {...props.input} value={props.value} onChange={(e) => props.onChange(e.target.value)} />
      {props.error}
    </label>
  );
}

/**
 * A field's error, announced at once (`id` lets the control point at it); nothing when all is well. A form's own
 * error (not one field's) stands as a paragraph of its own (`paragraph`).
 */
export function FieldErrorText(props: { text: string | null | undefined; id?: string; paragraph?: boolean }) {
  if (!props.text) return null;
  const Text = props.paragraph ? 'p' : 'span';
  return (
    <Text className="field-error" role="alert" id={props.id}>
      {props.text}
    </Text>
  );
}

/** A form's own error (not one field's): `FieldErrorText` as a paragraph. */
export function FormErrorText(props: { text: string | null | undefined; id?: string }) {
  return <FieldErrorText {...props} paragraph />;
}
