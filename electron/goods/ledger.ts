/**
 * The goods ledger (docs/goods.md): the only writer of `stock`, `stock_movements`, `stock_sales`, `price_changes`,
 * `kep_days` and `goods_numbers`. Every function runs inside its caller's transaction (better-sqlite3 nests them as
 * savepoints), so a movement, the stock it changes and the document that caused it commit together or not at all.
 *
 * The book's invariant: for every product, quantity on hand = Σ its movements, and the KEP balance (Σ every
 * movement's and price change's value) = Σ round(quantity × retail price / 1000). It holds exactly because each
 * movement's value is the change of its product's rounded retail value (after − before), and each price change
 * records round(q × new) − round(q × old): the sums telescope, with no rounding drift.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/open.ts';
import { perDatabase } from '../db/per-database.ts';
import type { OrderLine } from '../../shared/domain.ts';
import type { FiscalizedOrder } from '../orders/store.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { bookedSale, heldMove, heldPriceChange, soldQuantity } from '../../shared/goods/ledger-rules.ts';
import type { MovementKind, PriceChangeRecord } from '../../shared/goods/ledger-rules.ts';

export type { MovementKind, PriceChangeRecord };
export type PriceChangeSource = 'catalog' | 'bulk' | 'import' | 'hub' | 'receipt';
export type NumberedKind = 'receipt' | 'reversal' | 'price_change' | 'writeoff' | 'count';

export interface StockRow {
  product_code: string;
  name: string;
  qty_milli: number;
  price_para: number;
  purchase_para: number | null;
  updated_at: string;
}

/** Statements prepared once per database (a 500-line receipt moves 500 times: docs/goods.md, bench). */
const prepared = perDatabase((): Map<string, Statement> => new Map());
function sql<P extends unknown[] = unknown[], R = unknown>(db: Db, text: string): Statement<P, R> {
  const byText = prepared(db);
  let st = byText.get(text);
  if (!st) byText.set(text, (st = db.prepare(text)));
  return st as unknown as Statement<P, R>;
}

/** The Belgrade day of an instant: the KEP's date of an entry. */
export function bookDay(at: string | number | Date): string {
  const d = new Date(at);
  return dayIn(Number.isNaN(d.getTime()) ? new Date() : d);
}

/** Adds a movement's or a price change's value to its day's change of the KEP balance (same transaction). */
function addToDay(db: Db, day: string, value: number): void {
  if (value === 0) return;
  sql(
    db,
    `INSERT INTO kep_days (day, value_para) VALUES (?, ?)
       ON CONFLICT (day) DO UPDATE SET value_para = value_para + excluded.value_para`,
  ).run(day, value);
}

/** The next number of a kind of document in a year (1, 2, 3 …), taken in the caller's transaction. */
export function nextNumber(db: Db, kind: NumberedKind, year: number): number {
  const row = sql<[string, number], { last: number }>(
    db,
    `INSERT INTO goods_numbers (kind, year, last) VALUES (?, ?, 1)
       ON CONFLICT (kind, year) DO UPDATE SET last = last + 1 RETURNING last`,
  ).get(kind, year);
  if (!row) throw new Error('no document number');
  return row.last;
}

export function stockOf(db: Db, code: string): StockRow | undefined {
  return sql<[string], StockRow>(db, 'SELECT * FROM stock WHERE product_code = ?').get(code);
}

/** The catalog's product by code (its current retail price), read only. */
function catalogProduct(db: Db, code: string): { name: string; price_para: number } | undefined {
  return sql<[string], { name: string; price_para: number }>(
    db,
    'SELECT name, price_para FROM products WHERE code = ?',
  ).get(code);
}

export interface Move {
  code: string;
  name: string;
  at: string;
  kind: MovementKind;
  /** The document: `order:12`, `receipt:3`, `writeoff:7`; with `line`, the movement's unique key. */
  source: string;
  line: number;
  qtyMilli: number;
  /** The retail price to take the product in at when the book does not hold it yet (else the book's price). */
  pricePara: number;
  purchasePara?: number;
}

/**
 * Line `line` of a goods document (a receipt, its reversal, a write-off, a stock-taking) as a movement at the
 * document's moment: its source `<kind>:<document id>`, with `line` the movement's unique key, so a document's lines
 * are booked once. Every document that moves goods names its movements by this one rule.
 */
export function docMove(
  doc: { kind: MovementKind; id: number; at: string },
  line: number,
  goods: Pick<Move, 'code' | 'name' | 'qtyMilli' | 'pricePara' | 'purchasePara'>,
): Move {
  return { ...goods, at: doc.at, kind: doc.kind, source: `${doc.kind}:${doc.id}`, line };
}

/**
 * Writes one movement and changes the product's stock with it; false (and nothing written) when the document's
 * line has moved goods already.
 */
export function move(db: Db, m: Move): boolean {
  const seen = sql<[string, number], { id: number }>(
    db,
    'SELECT id FROM stock_movements WHERE source = ? AND line = ?',
  ).get(m.source, m.line);
  if (seen) return false;
  const {
    pricePara: price,
    afterMilli: after,
    valuePara: value,
  } = heldMove(stockOf(db, m.code), m.qtyMilli, m.pricePara);
  sql(
    db,
    `INSERT INTO stock_movements (product_code, at, day, kind, source, line, qty_milli, price_para, value_para)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(m.code, m.at, bookDay(m.at), m.kind, m.source, m.line, m.qtyMilli, price, value);
  addToDay(db, bookDay(m.at), value);
  sql(
    db,
    `INSERT INTO stock (product_code, name, qty_milli, price_para, purchase_para, updated_at)
     VALUES (@code, @name, @after, @price, @purchase, @at)
     ON CONFLICT (product_code) DO UPDATE SET qty_milli = @after, name = @name,
       purchase_para = coalesce(@purchase, purchase_para), updated_at = @at`,
  ).run({ code: m.code, name: m.name, after, price, purchase: m.purchasePara ?? null, at: m.at });
  return true;
}

/**
 * A product's retail price becomes `newPara` (called by every path that changes a catalog price, in its
 * transaction). With stock on hand (≠ 0, negative included) it writes a numbered price change record (нивелација)
 * with the old and new price, the quantity and the difference in value; with none it only moves the book's price.
 */
export function priceChanged(
  db: Db,
  p: { code: string; name: string; newPara: number; at: string; source: PriceChangeSource },
): PriceChangeRecord | null {
  const change = heldPriceChange(stockOf(db, p.code), p.newPara);
  if (!change) return null;
  sql(db, 'UPDATE stock SET price_para = ?, name = ?, updated_at = ? WHERE product_code = ?').run(
    p.newPara,
    p.name,
    p.at,
    p.code,
  );
  const c = change.record;
  if (!c) return null;
  const day = bookDay(p.at);
  const year = Number(day.slice(0, 4));
  const number = nextNumber(db, 'price_change', year);
  const r = sql(
    db,
    `INSERT INTO price_changes (number, year, at, day, product_code, name, old_para, new_para, qty_milli, diff_para,
         source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(number, year, p.at, day, p.code, p.name, c.oldPara, c.newPara, c.qtyMilli, c.diffPara, p.source);
  addToDay(db, day, c.diffPara);
  return { id: Number(r.lastInsertRowid), number, year, code: p.code, ...c };
}

/** What the ledger reads of a fiscalized order (electron/orders/store.ts hands it over). */

/** The product code of a sold line: its catalog id, else its barcode; null for a hand-typed item (no stock). */
export function codeOfLine(db: Db, line: OrderLine): string | null {
  if (line.productId !== undefined) {
    const byId = sql<[number], { code: string }>(db, 'SELECT code FROM products WHERE id = ?').get(line.productId);
    if (byId) return byId.code;
  }
  if (line.gtin) {
    const byBarcode = sql<[string], { code: string }>(
      db,
      'SELECT p.code FROM product_barcodes b JOIN products p ON p.id = b.product_id WHERE b.barcode = ?',
    ).get(line.gtin);
    if (byBarcode) return byBarcode.code;
  }
  return null;
}

/**
 * Moves the goods of an order the moment it becomes fiscalized, in the transaction that records its fiscal result
 * (OrderStore.markFiscalized, whichever processor signed it, however late): a normal sale or final sale takes its
 * catalog lines out of stock, a normal refund puts them back, and the order's payments become the day's turnover.
 * Advances, training receipts, copies and pro formas move no goods. The order's id keys `stock_sales` and
 * `order:<id>` keys its movements, so a fiscal result recorded twice moves nothing the second time.
 */
export function recordFiscalized(db: Db, o: FiscalizedOrder): boolean {
  const turnover = bookedSale(o.invoiceType, o.transactionType, o.totalPara, o.payments);
  if (!turnover) return false;
  const moves = turnover.move;
  const day = bookDay(o.issuedAt);
  const inserted = sql(
    db,
    `INSERT INTO stock_sales (order_id, day, at, invoice_number, turnover_para, payments) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (order_id) DO NOTHING`,
  ).run(o.id, day, o.issuedAt, o.invoiceNumber, turnover.turnoverPara, JSON.stringify(turnover.payments)).changes;
  if (inserted === 0) return false;
  o.lines.forEach((line, i) => {
    const code = codeOfLine(db, line);
    if (!code) return;
    const product = catalogProduct(db, code);
    move(db, {
      code,
      name: product?.name ?? line.name,
      at: o.issuedAt,
      kind: moves,
      source: `order:${o.id}`,
      line: i,
      qtyMilli: soldQuantity(moves, line.quantityMilli),
      pricePara: product?.price_para ?? line.unitPricePara,
    });
  });
  return true;
}
