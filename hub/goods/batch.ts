/**
 * A document's many lines booked in a few statements (a goods receipt of 500 lines posts in well under a second:
 * `npm run bench -- hub-goods-receipt`). The rules are hubMove's and hubPriceChanged's (hub/goods/ledger.ts, the
 * till's shared/goods/ledger-rules.ts) applied line after line in memory on the locked stock rows, then written
 * together: the same movements, price change records, stock and KEP days as one call per line would write.
 * For a new document's lines only (its source is fresh, so no line moved before).
 */
import { heldMove, heldPriceChange, type HeldStock } from '../../shared/goods/ledger-rules.ts';
import type { Queryable } from '../db/db.ts';
import { addToDay, type HubMove } from './ledger.ts';

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
