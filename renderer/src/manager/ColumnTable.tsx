/**
 * A manager's table declared by its columns: each column's header stands beside the cell it heads, so a column is
 * added, moved or dropped in one place and the header row cannot drift from the cells under it.
 */
import type { Key, ReactNode } from 'react';
import { MgrTable } from './common.tsx';

/** One column: its header ('' for a buttons column) and each row's cell in it. */
export interface Column<R> {
  header: ReactNode;
  cell: (row: R) => ReactNode;
  /** The cell names its row: a row header (`<th scope="row">`), as a screen reader announces it. */
  names?: boolean;
  /** The cell holds a figure: aligned right (`mgr-num`). */
  num?: boolean;
  /** A further class of the cell, given its row (a shortage in red). */
  className?: (row: R) => string | undefined;
}

/** A `MgrTable` of `rows`, its header row and its cells both made from `columns`, in their order. */
export function ColumnTable<R>(props: {
  label: string;
  columns: readonly Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => Key;
  /** A row to be looked at (a difference, below zero) is flagged. */
  flagged?: (row: R) => boolean;
  scroll?: boolean;
}) {
  return (
    <MgrTable label={props.label} scroll={props.scroll === true} headers={props.columns.map((c) => c.header)}>
      {props.rows.map((row) => (
        <tr key={props.rowKey(row)} className={props.flagged?.(row) ? 'flagged' : undefined}>
          {props.columns.map((c, i) => {
            const className =
              [c.num ? 'mgr-num' : undefined, c.className?.(row)].filter(Boolean).join(' ') || undefined;
            return c.names ? (
              <th key={i} scope="row" className={className}>
                {c.cell(row)}
              </th>
            ) : (
              <td key={i} className={className}>
                {c.cell(row)}
              </td>
            );
          })}
        </tr>
      ))}
    </MgrTable>
  );
}
