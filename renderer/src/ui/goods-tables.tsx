/**
 * The goods tables the till's Менаџер → Роба and the hub UI's Роба tab both show (docs/goods.md): the stock on hand
 * with its values, and the KEP book's entries with the running balance. Each screen names the table and its
 * columns in its own words (its catalog); the rows, their cells and their formats are the same here.
 */
import type { ReactNode } from 'react';
import type { KepEntry } from '../../../shared/contract/goods.ts';
import type { Language } from '../../../shared/domain.ts';
import { formatQuantity, formatRsd } from '../../../shared/money.ts';
import { formatDay } from '../dates.ts';
import { MgrTable } from './forms.tsx';

/** A value that may be unknown (no purchase price on the book): a dash then. */
export const rsdOrDash = (para: number | null): string => (para === null ? '—' : formatRsd(para));

/** One product's stock: the till's book or the shop's at the hub. */
export interface StockTableRow {
  code: string;
  name: string;
  /** The product's group; shown only where the screen has a group column. */
  group?: string | null;
  quantityMilli: number;
  pricePara: number;
  retailValuePara: number;
  purchaseValuePara: number | null;
}

/**
 * The stock table: code, name (the row's header), [group,] quantity, retail price, value at retail and at purchase
 * price. A row below zero is flagged, with `belowZero` after its quantity where the screen says it in words.
 * `headers` are the columns' names in that order (with the group's only when `withGroup`).
 */
export function StockTable(props: {
  label: string;
  headers: readonly ReactNode[];
  rows: readonly StockTableRow[];
  withGroup?: boolean;
  belowZero?: string;
}) {
  return (
    <MgrTable scroll label={props.label} headers={props.headers}>
      {props.rows.map((r) => (
        <tr key={r.code} className={r.quantityMilli < 0 ? 'flagged' : undefined}>
          <td>{r.code}</td>
          <th scope="row">{r.name}</th>
          {props.withGroup && <td>{r.group ?? '—'}</td>}
          <td className="mgr-num">
            {formatQuantity(r.quantityMilli)}
            {r.quantityMilli < 0 && props.belowZero !== undefined && ` (${props.belowZero})`}
          </td>
          <td className="mgr-num">{formatRsd(r.pricePara)}</td>
          <td className="mgr-num">{formatRsd(r.retailValuePara)}</td>
          <td className="mgr-num">{rsdOrDash(r.purchaseValuePara)}</td>
        </tr>
      ))}
    </MgrTable>
  );
}

/** The KEP of a period as both screens have it: its balances and its entries. */
export interface KepFigures {
  openingPara: number;
  closingPara: number;
  stockValuePara: number;
  entries: readonly KepEntry[];
}

/**
 * The KEP book of a period: its balances in a sentence (`summary`, given the amounts formatted; a status where
 * `summaryStatus`), then its entries in the rulebook's columns: number, date, description (the row's header),
 * debit, credit, and the running balance. `headers` name the columns in that order.
 */
export function KepBook(props: {
  label: string;
  headers: readonly ReactNode[];
  kep: KepFigures;
  lang: Language;
  summary: (amounts: { opening: string; closing: string; stock: string }) => string;
  summaryStatus?: boolean;
}) {
  const { kep } = props;
  return (
    <>
      <p role={props.summaryStatus ? 'status' : undefined}>
        {props.summary({
          opening: formatRsd(kep.openingPara),
          closing: formatRsd(kep.closingPara),
          stock: formatRsd(kep.stockValuePara),
        })}
      </p>
      <MgrTable scroll label={props.label} headers={props.headers}>
        {kep.entries.map((e) => (
          <tr key={e.number}>
            <td className="mgr-num">{e.number}</td>
            <td>{formatDay(e.day, props.lang)}</td>
            <th scope="row">{e.description}</th>
            <td className="mgr-num">{e.debitPara ? formatRsd(e.debitPara) : ''}</td>
            <td className="mgr-num">{e.creditPara ? formatRsd(e.creditPara) : ''}</td>
            <td className="mgr-num">{formatRsd(e.balancePara)}</td>
          </tr>
        ))}
      </MgrTable>
    </>
  );
}

/**
 * A table of values by something (a product group at the till, a shop at the hub): its name (the row's header),
 * the figures between, then the value at retail and at purchase price.
 */
export function ValueTable(props: {
  label: string;
  headers: readonly ReactNode[];
  rows: readonly {
    key: string | number;
    name: string;
    figures?: readonly ReactNode[];
    retailValuePara: number;
    purchaseValuePara: number | null;
  }[];
}) {
  return (
    <MgrTable scroll label={props.label} headers={props.headers}>
      {props.rows.map((r) => (
        <tr key={r.key}>
          <th scope="row">{r.name}</th>
          {(r.figures ?? []).map((f, i) => (
            <td key={i} className="mgr-num">
              {f}
            </td>
          ))}
          <td className="mgr-num">{formatRsd(r.retailValuePara)}</td>
          <td className="mgr-num">{rsdOrDash(r.purchaseValuePara)}</td>
        </tr>
      ))}
    </MgrTable>
  );
}
