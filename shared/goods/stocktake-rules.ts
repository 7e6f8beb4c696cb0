/**
 * The stock-taking's (попис) rules (docs/goods.md "Stock-taking"), shared by the till's count
 * (electron/goods/stocktake.ts, SQLite) and the hub's (hub/services/goods-counts.ts, PostgreSQL). Pure: each book
 * reads and writes its own tables in its own transaction.
 *
 * The book quantity is frozen when the count starts, and selling goes on. An entry keeps the book quantity of its
 * moment (the frozen one plus every movement booked since the start: sales, refunds, receipts …), and the
 * difference is counted − that. What moves after the entry stays on top of the count.
 */
import { parseQuantityInput } from '../money.ts';
import { valueAt } from './calc.ts';

/** The columns both books keep per line of a count (till: `stock_count_lines`, hub: `hub_stock_count_lines`). */
export interface CountLineColumns {
  name: string;
  grp: string | null;
  unit: string;
  /** The book's quantity when the count started (frozen). */
  book_milli: number;
  price_para: number;
  purchase_para: number | null;
  counted_milli: number | null;
  /** The book's quantity at the last entry: the frozen one plus what moved since the start. */
  book_at_entry_milli: number | null;
  counted_at: string | null;
}

/** The quantity counted after an entry: `add` adds to what was counted so far (a scan, a shelf), else replaces. */
export const countedAfter = (before: number | null, milli: number, add: boolean): number =>
  add ? (before ?? 0) + milli : milli;

/** A line's difference: counted − the book at its entry (a surplus above zero, a shortage below); null uncounted. */
export const countDifference = (countedMilli: number | null, bookAtEntryMilli: number | null): number | null =>
  countedMilli === null || bookAtEntryMilli === null ? null : countedMilli - bookAtEntryMilli;

/** A difference at a price a unit (retail or purchase), rounded to the para as the book rounds. */
export const differenceValue = (diffMilli: number | null, pricePara: number): number =>
  diffMilli === null || diffMilli === 0 ? 0 : valueAt(diffMilli, pricePara);

/** The count's totals: surplus (вишак) and shortage (мањак) at retail and (for a manager) purchase value. */
export function countTotals(
  lines: readonly { differenceMilli: number | null; retailDiffPara: number; purchaseDiffPara: number | null }[],
  manager: boolean,
): {
  surplusRetailPara: number;
  shortageRetailPara: number;
  surplusPurchasePara: number | null;
  shortagePurchasePara: number | null;
} {
  const sum = (pick: (l: (typeof lines)[number]) => number, sign: 1 | -1): number =>
    lines.reduce((s, l) => s + (Math.sign(l.differenceMilli ?? 0) === sign ? pick(l) : 0), 0);
  return {
    surplusRetailPara: sum((l) => l.retailDiffPara, 1),
    shortageRetailPara: -sum((l) => l.retailDiffPara, -1),
    surplusPurchasePara: manager ? sum((l) => l.purchaseDiffPara ?? 0, 1) : null,
    shortagePurchasePara: manager ? -sum((l) => l.purchaseDiffPara ?? 0, -1) : null,
  };
}

/** Two counts overlap when either is of the whole shop (null) or they share a group. */
export const countsOverlap = (a: readonly string[] | null, b: readonly string[] | null): boolean =>
  a === null || b === null || a.some((g) => b.includes(g));

/**
 * The rows of a CSV a shop's device or supplier sent, as the goods read them: a BOM dropped, `;` or a tab between
 * cells, each cell trimmed and unquoted; blank rows left out. `row` counts from 1 over every row of the file.
 */
export function csvRows(csv: string): { row: number; cells: string[] }[] {
  return csv
    .replace(/^\ufeff/, '')
    .split(/\r?\n/)
    .flatMap((text, i) =>
      text.trim() === ''
        ? []
        : [{ row: i + 1, cells: text.split(/[;\t]/).map((c) => c.trim().replace(/^"(.*)"$/, '$1')) }],
    );
}

/** A refusal of a handheld's CSV: the message's code (shared/messages.ts) and its parameters (row, column …). */
export class CountCsvRefusal extends Error {
  readonly key: string;
  readonly params: Record<string, string | number>;
  constructor(key: string, params: Record<string, string | number>) {
    super(key);
    this.name = 'CountCsvRefusal';
    this.key = key;
    this.params = params;
  }
}

/**
 * A handheld's CSV: `code;quantity` per row (a tab works too); a header row is skipped; a code twice adds up.
 * `resolve` finds a row's count line (by code or barcode) or throws its own refusal at the row; the result is the
 * counted quantity per line key, in the order first seen. Refused whole at the first bad row: nothing half-imported.
 */
export function parseCountCsv<L>(
  csv: string,
  resolve: (code: string, row: number) => L,
  keyOf: (line: L) => string,
): { line: L; milli: number }[] {
  const byKey = new Map<string, { line: L; milli: number }>();
  for (const { row, cells } of csvRows(csv)) {
    const [code = '', qtyText = ''] = cells;
    const milli = parseQuantityInput(qtyText);
    if (row === 1 && milli === null) continue; // the header
    if (code === '') throw new CountCsvRefusal('goods_csv_cell', { row, column: 1, problem: 'code' });
    if (milli === null || milli < 0)
      throw new CountCsvRefusal('goods_csv_quantity', { row, column: 2, value: qtyText });
    const line = resolve(code, row);
    const seen = byKey.get(keyOf(line));
    byKey.set(keyOf(line), { line, milli: (seen?.milli ?? 0) + milli });
  }
  if (byKey.size === 0) throw new CountCsvRefusal('goods_csv_empty', {});
  return [...byKey.values()];
}
