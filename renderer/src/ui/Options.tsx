/**
 * A select's (or a datalist's) options from a list, the same at the till and at the hub UI: each option is keyed
 * and valued by the item's value and shows its text, so a list of choices is written as its data once.
 */
import type { ReactNode } from 'react';

/** Options of a list of strings: each its own value, showing `text` (by default the string itself). */
export function Options<T extends string>(props: { of: readonly T[]; text?: (item: T) => ReactNode }): ReactNode;
/** Options of a list of things: each valued by `value`, showing `text`. */
export function Options<T>(props: {
  of: readonly T[];
  value: (item: T) => string | number;
  text: (item: T) => ReactNode;
}): ReactNode;
export function Options<T>(props: {
  of: readonly T[];
  value?: (item: T) => string | number;
  text?: (item: T) => ReactNode;
}): ReactNode {
  return props.of.map((item) => {
    const value = props.value ? props.value(item) : String(item);
    return (
      <option key={value} value={value}>
        {props.text ? props.text(item) : value}
      </option>
    );
  });
}

/**
 * A select of a few fixed values: `options` gives each value's text, in the order shown. Only a value of the list is
 * ever handed on, so the caller's type needs no cast and no test of what was picked.
 */
export function ChoiceSelect<V extends string>(props: {
  value: V;
  options: Readonly<Record<V, string>>;
  onChange: (value: V) => void;
}) {
  // The record's keys are exactly its values (`Record<V, string>`); Object.keys only forgets that.
  const values = Object.keys(props.options) as V[];
  return (
    <select
      value={props.value}
      onChange={(e) => {
        const chosen = values.find((v) => v === e.target.value);
        if (chosen !== undefined) props.onChange(chosen);
      }}
    >
      <Options of={values} text={(v) => props.options[v]} />
    </select>
  );
}
