/**
 * A price list's items from a CSV file (issue 42, docs/prices.md "CSV import of a list's prices"), read the same
 * way at the till and at the hub. Columns: the product's code or one of its barcodes, the price, and optionally the
 * list's first and last day. Two dialects: Serbian (`;` between fields, a decimal comma, thousands by a dot:
 * `1.234,50`) and English (`,` between fields, a decimal point: `1234.50`); the dialect is the one whose separator
 * the first line has. A byte-order mark is skipped; a first line whose price does not read is a header. Fields may
 * be quoted (`"…"`, a quote doubled inside). Days as `2026-12-01`, `1.12.2026.` or `01/12/2026`.
 *
 * Every row is read before anything is taken: the first bad one is named by its line in the file and its column,
 * and nothing of the file is used. Whether the products exist is the list's own check when it is saved (a row by
 * barcode is then stored by its product's code).
 */
import type { Language } from '../domain.ts';
import { message } from '../messages.ts';
import type { Para } from '../money.ts';
import { csvCells } from '../csv-cells.ts';

export interface CsvItems {
  items: { code: string; pricePara: Para }[];
  /** The list's days when the file gives them (every row the same). */
  fromDay: string | null;
  toDay: string | null;
}

/** A bad row: its line in the file (from 1), its column (from 1), the message key and the value found. */
export interface CsvProblem {
  row: number;
  column: number;
  code:
    | 'prices_csv_empty'
    | 'prices_csv_columns'
    | 'prices_csv_code'
    | 'prices_csv_price'
    | 'prices_csv_day'
    | 'prices_csv_days_differ';
  value: string;
}

/** A price in para, in the file's dialect; null when it does not read. */
function priceOf(text: string, serbian: boolean): Para | null {
  const t = text.replace(/\s/g, '');
  const m = serbian
    ? /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/.exec(t)
    : /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(t);
  if (!m) return null;
  const whole = Number((m[1] ?? '').replace(/[.,]/g, ''));
  const para = whole * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(para) ? para : null;
}

/** An ISO day from `2026-12-01`, `1.12.2026.` or `01/12/2026`; null when it is none (31.02. included). */
function dayOf(text: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const local = /^(\d{1,2})[./](\d{1,2})[./](\d{4})\.?$/.exec(text);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : local ? [local[3], local[2], local[1]] : [];
  if (y === undefined || m === undefined || d === undefined) return null;
  const day = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(+date) && date.toISOString().slice(0, 10) === day ? day : null;
}

/** Reads a price list's items from a CSV file's text: all of them, or the first bad row. */
export function parsePriceItemsCsv(text: string): { ok: true; value: CsvItems } | { ok: false; problem: CsvProblem } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const first = lines.find((l) => l.trim() !== '') ?? '';
  const serbian = first.includes(';') || !first.includes(',');
  const sep = serbian ? ';' : ',';
  const items: CsvItems['items'] = [];
  let days: { from: string | null; to: string | null } | undefined;
  const bad = (row: number, column: number, code: CsvProblem['code'], value = '') =>
    ({ ok: false, problem: { row, column, code, value } }) as const;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    const row = i + 1;
    const f = csvCells(line, sep).map((c) => c.trim());
    const [code = '', price = '', from = '', to = ''] = f;
    // A header: the first line, when its price column is not a price.
    if (days === undefined && priceOf(price, serbian) === null && line === first) continue;
    if (f.length < 2 || f.length > 4) return bad(row, Math.min(f.length + 1, 5), 'prices_csv_columns', line);
    if (code === '' || code.length > 32) return bad(row, 1, 'prices_csv_code', code);
    const para = priceOf(price, serbian);
    if (para === null) return bad(row, 2, 'prices_csv_price', price);
    const fromDay = from === '' ? null : dayOf(from);
    if (from !== '' && fromDay === null) return bad(row, 3, 'prices_csv_day', from);
    const toDay = to === '' ? null : dayOf(to);
    if (to !== '' && toDay === null) return bad(row, 4, 'prices_csv_day', to);
    if (days === undefined) days = { from: fromDay, to: toDay };
    else if (days.from !== fromDay) return bad(row, 3, 'prices_csv_days_differ', from);
    else if (days.to !== toDay) return bad(row, 4, 'prices_csv_days_differ', to);
    items.push({ code, pricePara: para });
  }
  if (items.length === 0) return bad(1, 1, 'prices_csv_empty');
  return { ok: true, value: { items, fromDay: days?.from ?? null, toDay: days?.to ?? null } };
}

/** A bad row said in the user's language, naming the file's field by its label. */
export function csvProblemText(lang: Language, p: CsvProblem, field: string): string {
  return message(lang, p.code, { row: p.row, column: p.column, value: p.value, field });
}
