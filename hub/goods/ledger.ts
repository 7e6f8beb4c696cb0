/**
 * The hub's stock book (docs/goods.md "At the hub"): the only writer of `hub_stock`, `hub_stock_movements`,
 * `hub_stock_sales`, `hub_kep_days`, `hub_kep_turnover` and `hub_goods_numbers`. Every function runs inside its
 * caller's transaction, so a movement, the stock it changes, the KEP's day and the document that caused it commit
 * together or not at all. The rules are the till's (shared/goods/ledger-rules.ts): the same invariant holds per
 * shop, KEP balance = Σ round(quantity × retail price).
 */
import type { Queryable } from '../db/db.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import type { OrderSnapshot } from '../../shared/hub/protocol.ts';
import {
  bookedSale,
  heldMove,
  heldPriceChange,
  soldQuantity,
  type HeldStock,
} from '../../shared/goods/ledger-rules.ts';
import type { MovementKind, PriceChangeRecord } from '../../shared/goods/ledger-rules.ts';

export type HubDocKind =
  'receipt' | 'writeoff' | 'price_change' | 'transfer_out' | 'transfer_in' | 'count' | 'reversal' | 'opening';

/** The shop's day of an instant (the hub's zone, Europe/Belgrade by default): the KEP's date of an entry. */
export function hubDay(at: string, zone: string): string {
  const d = new Date(at);
  return dayIn(Number.isNaN(d.getTime()) ? new Date() : d, zone);
}

/** The next number of a kind of document of a shop in a year (1, 2, 3 …), taken in the caller's transaction. */
export async function nextHubNumber(q: Queryable, shopId: number, kind: HubDocKind, year: number): Promise<number> {
  const r = await q.query<{ last: number }>(
    `INSERT INTO hub_goods_numbers (shop_id, kind, year, last) VALUES ($1, $2, $3, 1)
     ON CONFLICT (shop_id, kind, year) DO UPDATE SET last = hub_goods_numbers.last + 1 RETURNING last`,
    [shopId, kind, year],
  );
  const last = r[0]?.last;
  if (last === undefined) throw new Error('no document number');
  return last;
}

/** Adds to a shop's day of the KEP: the balance's change and (sales and refunds) the retail value they moved. */
export async function addToDay(q: Queryable, shopId: number, day: string, value: number, sold: number): Promise<void> {
  if (value === 0 && sold === 0) return;
  await q.query(
    `INSERT INTO hub_kep_days (shop_id, day, value_para, sold_value_para) VALUES ($1, $2, $3, $4)
     ON CONFLICT (shop_id, day) DO UPDATE SET value_para = hub_kep_days.value_para + excluded.value_para,
       sold_value_para = hub_kep_days.sold_value_para + excluded.sold_value_para`,
    [shopId, day, value, sold],
  );
}

export interface HubMove {
  code: string;
  name: string;
  at: string;
  day: string;
  kind: MovementKind;
  /** `order:<till>:<order number>`, `receipt:<doc id>` …; with `line` the movement's unique key in the shop. */
  source: string;
  line: number;
  qtyMilli: number;
  /** The retail price to take the product in at when the book does not hold it yet (else the book's price). */
  pricePara: number;
  purchasePara?: number | undefined;
}

/**
 * Line `line` of goods document `doc` as a movement: at the document's moment and day, its source `<kind>:<doc id>`
 * (with `line`, the movement's unique key in the shop, so a document's lines are booked once however often it is
 * posted). Every hub document that moves goods names its movements by this one rule.
 */
export function docMove(
  doc: { id: number; at: string; day: string },
  kind: MovementKind,
  line: number,
  goods: Pick<HubMove, 'code' | 'name' | 'qtyMilli' | 'pricePara' | 'purchasePara'>,
): HubMove {
  return { ...goods, at: doc.at, day: doc.day, kind, source: `${kind}:${doc.id}`, line };
}

/** One movement and the product's stock with it; its value, or null (nothing written) when the line moved already. */
export async function hubMove(q: Queryable, shopId: number, m: HubMove): Promise<number | null> {
  const row = (
    await q.query<{ qty_milli: number; price_para: number }>(
      'SELECT qty_milli, price_para FROM hub_stock WHERE shop_id = $1 AND code = $2 FOR UPDATE',
      [shopId, m.code],
    )
  )[0];
  const { pricePara: price, afterMilli, valuePara } = heldMove(row, m.qtyMilli, m.pricePara);
  const inserted = await q.query(
    `INSERT INTO hub_stock_movements (shop_id, code, at, day, kind, source, line, qty_milli, price_para, value_para)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (shop_id, source, line) DO NOTHING RETURNING id`,
    [shopId, m.code, m.at, m.day, m.kind, m.source, m.line, m.qtyMilli, price, valuePara],
  );
  if (!inserted.length) return null;
  await q.query(
    `INSERT INTO hub_stock (shop_id, code, name, qty_milli, price_para, purchase_para, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (shop_id, code) DO UPDATE SET qty_milli = excluded.qty_milli, name = excluded.name,
       purchase_para = coalesce(excluded.purchase_para, hub_stock.purchase_para), updated_at = excluded.updated_at`,
    [shopId, m.code, m.name, afterMilli, price, m.purchasePara ?? null, m.at],
  );
  const sold = m.kind === 'sale' || m.kind === 'refund' ? valuePara : 0;
  await addToDay(q, shopId, m.day, valuePara, sold);
  return valuePara;
}

/** One line of {@link hubMoveEachOnce}: a product (each once) and the quantity it moves. */
export type HubManyLine = Pick<HubMove, 'code' | 'name' | 'line' | 'qtyMilli' | 'pricePara'>;

/**
 * Many movements of one document at once (a stock-taking of 20,000 lines), each product once and each line at most
 * once, however often it is posted (unlike {@link hubMoveMany}, for a new document's lines): the same rows and
 * values as {@link hubMove} line by line, written set-wise (the stock locked and read in one query, the movements
 * and the stock in one statement each). A line that moved already (its `(source, line)` is known) moves nothing.
 * Each line's value, by line; the day's KEP change added once.
 */
export async function hubMoveEachOnce(
  q: Queryable,
  shopId: number,
  m: Pick<HubMove, 'at' | 'day' | 'kind' | 'source'>,
  lines: readonly HubManyLine[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!lines.length) return out;
  const held = await lockedStock(
    q,
    shopId,
    lines.map((l) => l.code),
  );
  const moved = lines.map((l) => ({ l, ...heldMove(held.get(l.code), l.qtyMilli, l.pricePara) }));
  const inserted = new Set(
    (
      await q.query<{ line: number }>(
        `INSERT INTO hub_stock_movements (shop_id, code, at, day, kind, source, line, qty_milli, price_para, value_para)
         SELECT $1, u.code, $2, $3, $4, $5, u.line, u.qty, u.price, u.value
           FROM unnest($6::text[], $7::int4[], $8::int8[], $9::int8[], $10::int8[]) AS u(code, line, qty, price, value)
         ON CONFLICT (shop_id, source, line) DO NOTHING RETURNING line`,
        [
          shopId,
          m.at,
          m.day,
          m.kind,
          m.source,
          moved.map((x) => x.l.code),
          moved.map((x) => x.l.line),
          moved.map((x) => x.l.qtyMilli),
          moved.map((x) => x.pricePara),
          moved.map((x) => x.valuePara),
        ],
      )
    ).map((r) => Number(r.line)),
  );
  const done = moved.filter((x) => inserted.has(x.l.line));
  if (!done.length) return out;
  await q.query(
    `INSERT INTO hub_stock (shop_id, code, name, qty_milli, price_para, purchase_para, updated_at)
     SELECT $1, u.code, u.name, u.qty, u.price, NULL, $2
       FROM unnest($3::text[], $4::text[], $5::int8[], $6::int8[]) AS u(code, name, qty, price)
     ON CONFLICT (shop_id, code) DO UPDATE SET qty_milli = excluded.qty_milli, name = excluded.name,
       updated_at = excluded.updated_at`,
    [
      shopId,
      m.at,
      done.map((x) => x.l.code),
      done.map((x) => x.l.name),
      done.map((x) => x.afterMilli),
      done.map((x) => x.pricePara),
    ],
  );
  let total = 0;
  for (const x of done) {
    out.set(x.l.line, x.valuePara);
    total += x.valuePara;
  }
  await addToDay(q, shopId, m.day, total, m.kind === 'sale' || m.kind === 'refund' ? total : 0);
  return out;
}

/**
 * A numbered goods document of a shop (its number taken in the caller's transaction, or `numbered`: the one it
 * took when it began, as a stock-taking is numbered when it starts).
 */
export async function hubDocument(
  q: Queryable,
  shopId: number,
  d: { kind: HubDocKind; at: string; day: string; actor: string | null; valuePara: number; detail: unknown },
  numbered?: { number: number; year: number },
): Promise<{ id: number; number: number; year: number }> {
  const year = numbered?.year ?? Number(d.day.slice(0, 4));
  const number = numbered?.number ?? (await nextHubNumber(q, shopId, d.kind, year));
  const r = await q.query<{ id: number }>(
    `INSERT INTO hub_goods_docs (shop_id, kind, number, year, at, day, actor, value_para, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [shopId, d.kind, number, year, d.at, d.day, d.actor, d.valuePara, JSON.stringify(d.detail)],
  );
  const id = r[0]?.id;
  if (id === undefined) throw new Error('no document');
  return { id, number, year };
}

export async function setHubDocValue(q: Queryable, id: number, valuePara: number, detail: unknown): Promise<void> {
  await q.query('UPDATE hub_goods_docs SET value_para = $2, detail = $3 WHERE id = $1', [
    id,
    valuePara,
    JSON.stringify(detail),
  ]);
}

// A document's many lines booked in a few statements (a goods receipt of 500 lines posts in well under a second:
// `npm run bench -- hub-goods-receipt`). The rules are hubMove's and hubPriceChanged's (above, the
// till's shared/goods/ledger-rules.ts) applied line after line in memory on the locked stock rows, then written
// together: the same movements, price change records, stock and KEP days as one call per line would write.
// For a new document's lines only (its source is fresh, so no line moved before).

/** The shop's stock rows of `codes`, locked (in code order, as every writer locks them). */
async function lockedStock(q: Queryable, shopId: number, codes: readonly string[]): Promise<Map<string, HeldStock>> {
  const rows = await q.query<{ code: string; qty_milli: number; price_para: number }>(
    'SELECT code, qty_milli, price_para FROM hub_stock WHERE shop_id = $1 AND code = ANY($2::text[]) ORDER BY code FOR UPDATE',
    [shopId, [...new Set(codes)]],
  );
  return new Map(rows.map((r) => [r.code, { qty_milli: Number(r.qty_milli), price_para: Number(r.price_para) }]));
}

/** The movements of one new document of one day (each as hubMove would book it); their value. */
export async function hubMoveMany(q: Queryable, shopId: number, moves: readonly HubMove[]): Promise<number> {
  const first = moves[0];
  if (!first) return 0;
  const held = await lockedStock(
    q,
    shopId,
    moves.map((m) => m.code),
  );
  const after = new Map<string, { m: HubMove; purchase: number | null }>();
  const cols = { code: [] as string[], kind: [] as string[], line: [] as number[], qty: [] as number[] };
  const priced = { price: [] as number[], value: [] as number[] };
  let total = 0;
  let sold = 0;
  for (const m of moves) {
    const r = heldMove(held.get(m.code), m.qtyMilli, m.pricePara);
    held.set(m.code, { qty_milli: r.afterMilli, price_para: r.pricePara });
    after.set(m.code, { m, purchase: m.purchasePara ?? after.get(m.code)?.purchase ?? null });
    cols.code.push(m.code);
    cols.kind.push(m.kind);
    cols.line.push(m.line);
    cols.qty.push(m.qtyMilli);
    priced.price.push(r.pricePara);
    priced.value.push(r.valuePara);
    total += r.valuePara;
    if (m.kind === 'sale' || m.kind === 'refund') sold += r.valuePara;
  }
  await q.query(
    `INSERT INTO hub_stock_movements (shop_id, code, at, day, kind, source, line, qty_milli, price_para, value_para)
     SELECT $1, code, $2, $3, kind, $4, line, qty, price, value
       FROM unnest($5::text[], $6::text[], $7::int4[], $8::int8[], $9::int8[], $10::int8[])
         AS v(code, kind, line, qty, price, value)`,
    [shopId, first.at, first.day, first.source, cols.code, cols.kind, cols.line, cols.qty, priced.price, priced.value],
  );
  const codes = [...after.keys()];
  const stock = codes.map((c) => held.get(c) as HeldStock);
  await q.query(
    `INSERT INTO hub_stock (shop_id, code, name, qty_milli, price_para, purchase_para, updated_at)
     SELECT $1, code, name, qty, price, purchase, $2
       FROM unnest($3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[]) AS v(code, name, qty, price, purchase)
     ON CONFLICT (shop_id, code) DO UPDATE SET qty_milli = excluded.qty_milli, name = excluded.name,
       purchase_para = coalesce(excluded.purchase_para, hub_stock.purchase_para), updated_at = excluded.updated_at`,
    [
      shopId,
      first.at,
      codes,
      codes.map((c) => after.get(c)?.m.name ?? c),
      stock.map((s) => s.qty_milli),
      stock.map((s) => s.price_para),
      codes.map((c) => after.get(c)?.purchase ?? null),
    ],
  );
  await addToDay(q, shopId, first.day, total, sold);
  return total;
}

/** A new retail price of a product, as hubPriceChanged takes it. */
export interface NewPrice {
  code: string;
  name: string;
  newPara: number;
}

/**
 * Retail prices of many products changed at once (each as hubPriceChanged would): the book's price moved, and a
 * numbered price change record (нивелација) for each product with stock on hand. The records' count.
 */
export async function hubPricesChanged(
  q: Queryable,
  shopId: number,
  prices: readonly NewPrice[],
  p: { at: string; day: string; actor: string | null; source: string },
): Promise<number> {
  if (!prices.length) return 0;
  const held = await lockedStock(
    q,
    shopId,
    prices.map((x) => x.code),
  );
  const moved = new Map<string, NewPrice>();
  const records: Record<string, unknown>[] = [];
  const diffs: number[] = [];
  for (const x of prices) {
    const h = held.get(x.code);
    const change = heldPriceChange(h, x.newPara);
    if (!change || !h) continue;
    held.set(x.code, { ...h, price_para: x.newPara });
    moved.set(x.code, x);
    if (!change.record) continue;
    const { diffPara, ...rest } = change.record;
    records.push({ code: x.code, name: x.name, ...rest, source: p.source });
    diffs.push(diffPara);
  }
  if (moved.size)
    await q.query(
      `UPDATE hub_stock s SET price_para = v.price, name = v.name, updated_at = $2
         FROM unnest($3::text[], $4::text[], $5::int8[]) AS v(code, name, price)
        WHERE s.shop_id = $1 AND s.code = v.code`,
      [
        shopId,
        p.at,
        [...moved.keys()],
        [...moved.values()].map((x) => x.name),
        [...moved.values()].map((x) => x.newPara),
      ],
    );
  if (!records.length) return 0;
  const year = Number(p.day.slice(0, 4));
  const last = await q.query<{ last: number }>(
    `INSERT INTO hub_goods_numbers (shop_id, kind, year, last) VALUES ($1, 'price_change', $2, $3)
     ON CONFLICT (shop_id, kind, year) DO UPDATE SET last = hub_goods_numbers.last + excluded.last RETURNING last`,
    [shopId, year, records.length],
  );
  const firstNumber = Number(last[0]?.last) - records.length + 1;
  await q.query(
    `INSERT INTO hub_goods_docs (shop_id, kind, number, year, at, day, actor, value_para, detail)
     SELECT $1, 'price_change', $2 + n - 1, $3, $4, $5, $6, value, detail
       FROM unnest($7::int8[], $8::jsonb[]) WITH ORDINALITY AS v(value, detail, n)`,
    [shopId, firstNumber, year, p.at, p.day, p.actor, diffs, records.map((r) => JSON.stringify(r))],
  );
  await addToDay(
    q,
    shopId,
    p.day,
    diffs.reduce((a, b) => a + b, 0),
    0,
  );
  return records.length;
}

/** A price change record of a shop's book; `docId` its document (`hub_goods_docs`). */
export type HubPriceChange = Omit<PriceChangeRecord, 'id'> & { docId: number };

/**
 * A product's retail price in a shop's book becomes `newPara` (every path that changes a hub price calls it, in its
 * transaction). With stock on hand (≠ 0) it makes a numbered price change record (нивелација) with the old and new
 * price, the quantity and the difference in value; with none it only moves the book's price.
 */
export async function hubPriceChanged(
  q: Queryable,
  shopId: number,
  p: { code: string; name: string; newPara: number; at: string; day: string; actor: string | null; source: string },
): Promise<HubPriceChange | null> {
  const row = (
    await q.query<{ qty_milli: number; price_para: number }>(
      'SELECT qty_milli, price_para FROM hub_stock WHERE shop_id = $1 AND code = $2 FOR UPDATE',
      [shopId, p.code],
    )
  )[0];
  const change = heldPriceChange(row, p.newPara);
  if (!change) return null;
  await q.query('UPDATE hub_stock SET price_para = $3, name = $4, updated_at = $5 WHERE shop_id = $1 AND code = $2', [
    shopId,
    p.code,
    p.newPara,
    p.name,
    p.at,
  ]);
  if (!change.record) return null;
  const { diffPara: diff, ...prices } = change.record;
  const detail = { code: p.code, name: p.name, ...prices, source: p.source };
  const doc = await hubDocument(q, shopId, {
    kind: 'price_change',
    at: p.at,
    day: p.day,
    actor: p.actor,
    valuePara: diff,
    detail,
  });
  await addToDay(q, shopId, p.day, diff, 0);
  return { docId: doc.id, number: doc.number, year: doc.year, ...detail, diffPara: diff };
}

/**
 * The book's prices follow the shop's catalog: each of `codes` whose catalog price differs from the book's gets its
 * price change (a нивелација where stock is on hand). Called by every path that writes the hub's product prices.
 */
export async function bookCatalogPrices(
  q: Queryable,
  shopId: number,
  codes: readonly string[],
  at: string,
  zone: string,
  actor: string | null,
): Promise<HubPriceChange[]> {
  if (!codes.length) return [];
  const rows = await q.query<{ code: string; name: string; price_para: number }>(
    `SELECT p.code, p.name, p.price_para FROM products p JOIN hub_stock s ON s.shop_id = p.shop_id AND s.code = p.code
      WHERE p.shop_id = $1 AND p.code = ANY($2::text[]) AND s.price_para <> p.price_para ORDER BY p.code`,
    [shopId, [...codes]],
  );
  const out: HubPriceChange[] = [];
  for (const r of rows) {
    const c = await hubPriceChanged(q, shopId, {
      code: r.code,
      name: r.name,
      newPara: r.price_para,
      at,
      day: hubDay(at, zone),
      actor,
      source: 'catalog',
    });
    if (c) out.push(c);
  }
  return out;
}

/** The shop's product of a sold line: its code (tills send it), else the product owning its barcode; null outside. */
async function productOfLine(
  q: Queryable,
  shopId: number,
  line: { code?: string | undefined; gtin?: string | undefined },
): Promise<{ code: string; name: string; price_para: number } | null> {
  if (line.code) {
    const r = await q.query<{ code: string; name: string; price_para: number }>(
      'SELECT code, name, price_para FROM products WHERE shop_id = $1 AND code = $2',
      [shopId, line.code],
    );
    return r[0] ?? null;
  }
  if (line.gtin) {
    const r = await q.query<{ code: string; name: string; price_para: number }>(
      `SELECT code, name, price_para FROM products WHERE shop_id = $1 AND barcodes @> $2::jsonb AND NOT deleted
       ORDER BY code LIMIT 1`,
      [shopId, JSON.stringify([line.gtin])],
    );
    return r[0] ?? null;
  }
  return null;
}

/**
 * Moves the goods of a till's pushed order once it is fiscalized (in the push's transaction): a normal sale or final
 * sale takes its catalog lines out of the shop's stock, a normal refund puts them back, and its payments become the
 * day's turnover. Keyed by the order's identity (till, order number): a re-push, a later update of the same order
 * or an order pushed again after the hub was away moves nothing. True when it moved the order now.
 */
export async function recordHubSale(
  q: Queryable,
  till: { id: number; shopId: number },
  o: OrderSnapshot,
  zone: string,
): Promise<boolean> {
  if (o.state !== 'fiscalized' || !o.invoice_number) return false;
  const turnover = bookedSale(o.invoice_type, o.transaction_type, o.total_para, o.data.payments);
  if (!turnover) return false;
  const moves = turnover.move;
  const at = o.sdc_date_time && !Number.isNaN(new Date(o.sdc_date_time).getTime()) ? o.sdc_date_time : o.created_at;
  const day = hubDay(at, zone);
  const inserted = await q.query(
    `INSERT INTO hub_stock_sales (till_id, order_number, shop_id, day, at, invoice_number, turnover_para, payments)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (till_id, order_number) DO NOTHING RETURNING till_id`,
    [
      till.id,
      o.order_number,
      till.shopId,
      day,
      at,
      o.invoice_number,
      turnover.turnoverPara,
      JSON.stringify(turnover.payments),
    ],
  );
  if (!inserted.length) return false;
  const byType = new Map<string, number>();
  for (const p of turnover.payments) byType.set(p.type, (byType.get(p.type) ?? 0) + p.amountPara);
  for (const [type, amount] of byType)
    await q.query(
      `INSERT INTO hub_kep_turnover (shop_id, day, payment_type, amount_para) VALUES ($1, $2, $3, $4)
       ON CONFLICT (shop_id, day, payment_type) DO UPDATE SET amount_para = hub_kep_turnover.amount_para + excluded.amount_para`,
      [till.shopId, day, type, amount],
    );
  for (const [i, line] of o.data.lines.entries()) {
    const product = await productOfLine(q, till.shopId, line as { code?: string; gtin?: string });
    if (!product) continue;
    await hubMove(q, till.shopId, {
      code: product.code,
      name: product.name,
      at,
      day,
      kind: moves,
      source: `order:${till.id}:${o.order_number}`,
      line: i,
      qtyMilli: soldQuantity(moves, line.quantityMilli),
      pricePara: product.price_para,
    });
  }
  return true;
}
