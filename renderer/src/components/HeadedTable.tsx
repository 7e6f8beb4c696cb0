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

/**
 * A counter table's header row: a header cell of its column for each name, in order; the columns in `num` (by
 * their place) hold figures, and their headers stand right as the figures do.
 */
export function ColumnHeads(props: { names: readonly ReactNode[]; num?: readonly number[] }) {
  return (
    <thead>
      <tr>
        {props.names.map((name, i) => (
          <th key={i} scope="col" className={props.num?.includes(i) ? 'num' : undefined}>
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
