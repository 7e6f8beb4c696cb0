/** A table, with one header row when it has column headers: the manager's tabs and the hub's pages list rows alike. */
import type { ReactNode } from 'react';

export function HeadedTable(props: {
  label?: string;
  className?: string;
  /**
   * The column headers in order; an empty string is a header cell with nothing in it (a buttons column).
   * Without them the rows name themselves (a header cell first in each row).
   */
  headers?: readonly ReactNode[];
  children: ReactNode;
}) {
  return (
    <table className={props.className} aria-label={props.label}>
      {props.headers && (
        <thead>
          <tr>
            {props.headers.map((h, i) => (
              <th key={i}>{h}</th>
            ))}
          </tr>
        </thead>
      )}
      <tbody>{props.children}</tbody>
    </table>
  );
}
