/** A table with one header row: the manager's tabs and the hub's pages list their rows the same way. */
import type { ReactNode } from 'react';

export function HeadedTable(props: {
  label?: string;
  className?: string;
  /** The column headers in order; an empty string is a header cell with nothing in it (a buttons column). */
  headers: readonly ReactNode[];
  children: ReactNode;
}) {
  return (
    <table className={props.className} aria-label={props.label}>
      <thead>
        <tr>
          {props.headers.map((h, i) => (
            <th key={i}>{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
}
