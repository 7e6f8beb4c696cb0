/**
 * The bookkeeper's export's kept sums at the hub (docs/exports.md "At the hub", hub migration 036), so that a year's
 * export reads a year of day sums, not a year of orders and goods movements. The only writer of its tables, run by
 * the day closer (hub/report-days.ts); the export reads them (hub/exports.ts, hub/export-goods.ts).
 *
 * - **Days**: a shop's Belgrade day of orders summed as the export sums it (shared/exports/days.ts `addToDay`, the
 *   orders in their order; the rates the receipts stated, the last per label), kept as JSON in `hub_export_days`
 *   once the report's day is closed, for every shop at once (`hub_export_days_closed`). A late push into a closed
 *   day marks its till's day dirty (hub/report-days.ts `markDirty`, in the push's transaction): the export reads a
 *   day of its shop that a mark names from its orders, and the closer's next round sums it again and drops the mark
 *   in one transaction. A day not kept (today, a day not closed yet) is read from its orders.
 * - **Goods costs**: the shop's book of movements costed in its order (ids) at the weighted average purchase price
 *   (shared/exports/cost.ts) as far as `hub_export_costs.last_id`; each product's quantity and average after them
 *   (`hub_export_cost_state`) and the goods out at purchase value so far per day, document, account key and label
 *   (`hub_export_goods_out`). A movement's cost is fixed once the ones before it are, so these sums only grow; the
 *   export costs the movements after `last_id` from the kept state. Goods out before their product's first receipt
 *   go at its last purchase price, which a later receipt changes: those movements are listed
 *   (`hub_export_cost_fallback`), not summed, and priced at each export. What the kept costs depend on is checked
 *   each time: the count of movements up to `last_id` (one committed late under a lower id) and each product's tax
 *   label; when one changed the kept costs are not used (the export costs the whole book) and the closer's next
 *   round costs the book again from its start.
 */
import type { OrderKind } from '../shared/domain.ts';
import type { OrderData } from '../shared/reports/totals.ts';
import { addToDay, emptyDay, type DayTotals } from '../shared/exports/days.ts';
import {
  costMovements,
  goodsOutPlace,
  type Costed,
  type CostState,
  type LedgerMovement,
  type LedgerRow,
} from '../shared/exports/cost.ts';
import { dayIn, dayStart } from '../shared/i18n/time.ts';
import { valueAt } from '../shared/goods/calc.ts';
import { reportOrder } from './report-facts.ts';
import type { HubDb, Queryable } from './db/db.ts';

interface OrderRow {
  shop_id: number;
  created_at: string | Date;
  invoice_number: string | null;
  kind: OrderKind;
  invoice_type: string;
  state: string;
  total_para: number | string;
  data: OrderData;
  receipt: { taxItems?: { label?: unknown; rate?: unknown }[] | null } | null;
  extra_receipts: { taxItems?: { label?: unknown; rate?: unknown }[] | null }[] | null;
  cashier: string;
  till: string;
}

/** A shop's day as the export sums it: its totals and the rates its receipts stated (the last per label). */
interface ExportDaySum {
  totals: DayTotals;
  rates: Map<string, number>;
}

/** The day after a YYYY-MM-DD day. */
export const nextDay = (day: string): string => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
};
/** A day's first instant in `zone`, ISO UTC. */
export const dayInstant = (day: string, zone: string): string => new Date(dayStart(day, zone)).toISOString();

/**
 * The orders created in [from, to) of one shop (or all), summed per shop and day of `zone`, in their order. An order
 * the report cannot read with the till's order shape (its facts say `x`, hub/report-facts.ts) is left out, as the
 * report leaves it out.
 */
async function sumOrders(
  q: Queryable,
  zone: string,
  shopId: number | null,
  from: string,
  to: string,
): Promise<Map<number, Map<string, ExportDaySum>>> {
  const rows = await q.query<OrderRow>(
    `SELECT o.shop_id, o.created_at, o.invoice_number, o.kind, o.invoice_type, o.state, o.total_para, o.data,
            o.receipt, o.extra_receipts, coalesce(o.cashier, '') AS cashier, t.name AS till
       FROM orders o JOIN tills t ON t.id = o.till_id
      WHERE ($1::int4 IS NULL OR o.shop_id = $1) AND o.created_at >= $2 AND o.created_at < $3
        AND coalesce(o.facts->0->>0, '') <> 'x'
      ORDER BY o.created_at, o.till_id, o.seq`,
    [shopId, from, to],
  );
  const out = new Map<number, Map<string, ExportDaySum>>();
  for (const r of rows) {
    const at = new Date(r.created_at).toISOString();
    const day = dayIn(new Date(at), zone);
    let shop = out.get(r.shop_id);
    if (!shop) out.set(r.shop_id, (shop = new Map()));
    let d = shop.get(day);
    if (!d) shop.set(day, (d = { totals: emptyDay(), rates: new Map() }));
    const order = reportOrder({ ...r, total_para: Number(r.total_para) });
    addToDay(d.totals, order, { at, invoiceNumber: r.invoice_number, cashier: r.cashier, till: r.till });
    for (const receipt of [r.receipt, ...(r.extra_receipts ?? [])])
      for (const t of receipt?.taxItems ?? [])
        if (typeof t.label === 'string' && typeof t.rate === 'number') d.rates.set(t.label, t.rate);
  }
  return out;
}

/** Keeps `day`'s sums of one shop (or of every shop), in the caller's transaction. */
async function keepDay(q: Queryable, zone: string, day: string, shopId: number | null): Promise<void> {
  const sums = await sumOrders(q, zone, shopId, dayInstant(day, zone), dayInstant(nextDay(day), zone));
  await q.query('DELETE FROM hub_export_days WHERE day = $1::date AND ($2::int4 IS NULL OR shop_id = $2)', [
    day,
    shopId,
  ]);
  const shops: number[] = [];
  const bodies: string[] = [];
  for (const [shop, days] of sums) {
    const d = days.get(day);
    if (!d) continue;
    shops.push(shop);
    bodies.push(JSON.stringify({ totals: d.totals, rates: [...d.rates] }));
  }
  if (shops.length)
    await q.query(
      `INSERT INTO hub_export_days (shop_id, day, body) SELECT s, $2::date, b FROM unnest($1::int4[], $3::text[]) AS x(s, b)`,
      [shops, day, bodies],
    );
}

/**
 * The closer's round for the export (after the report's days are closed, in `zone`, the export's): keeps the sums of
 * every closed day not kept yet, each day in one transaction, then costs each shop's new goods movements. Returns the
 * days kept.
 */
export async function keepExportSums(db: HubDb, zone: string, now: number): Promise<number> {
  const days = await db.query<{ day: string }>(
    `SELECT to_char(c.day, 'YYYY-MM-DD') AS day FROM hub_days_closed c
      WHERE NOT EXISTS (SELECT 1 FROM hub_export_days_closed e WHERE e.day = c.day) ORDER BY c.day`,
  );
  for (const { day } of days)
    await db.tx(async (q) => {
      await keepDay(q, zone, day, null);
      await q.query('INSERT INTO hub_export_days_closed (day, at) VALUES ($1::date, $2) ON CONFLICT (day) DO NOTHING', [
        day,
        new Date(now).toISOString(),
      ]);
    });
  for (const { id } of await db.query<{ id: number }>('SELECT id FROM shops ORDER BY id'))
    await db.tx((q) => keepGoodsCosts(q, id));
  return days.length;
}

/**
 * Sums a kept day of `tillId`'s shop again from its orders (a late push marked it dirty), in the caller's
 * transaction, which drops the mark.
 */
export async function resumExportDay(q: Queryable, zone: string, day: string, tillId: number): Promise<void> {
  const kept = await q.query('SELECT 1 FROM hub_export_days_closed WHERE day = $1::date', [day]);
  if (!kept.length) return;
  const shop = (await q.query<{ shop_id: number }>('SELECT shop_id FROM tills WHERE id = $1', [tillId]))[0];
  if (shop) await keepDay(q, zone, day, shop.shop_id);
}

/**
 * The shop's sums of each day `from` to `to` (both included, in order; days of `zone`): a kept day that no late
 * push marked from `hub_export_days` (one statement, so a round of the closer is seen whole or not at all), the
 * others from their orders (one read per run of such days); and the rates the period's receipts stated, the last
 * per label.
 */
export async function exportDaySums(
  q: Queryable,
  zone: string,
  shopId: number,
  from: string,
  to: string,
): Promise<{ byDay: Map<string, DayTotals>; rates: Map<string, number> }> {
  const kept = new Map(
    (
      await q.query<{ day: string; body: string | null }>(
        `SELECT to_char(c.day, 'YYYY-MM-DD') AS day, e.body FROM hub_export_days_closed c
           LEFT JOIN hub_export_days e ON e.shop_id = $1 AND e.day = c.day
          WHERE c.day BETWEEN $2::date AND $3::date
            AND NOT EXISTS (SELECT 1 FROM hub_days_dirty x JOIN tills t ON t.id = x.till_id
                             WHERE x.day = c.day AND t.shop_id = $1)`,
        [shopId, from, to],
      )
    ).map((r) => [r.day, r.body]),
  );
  const byDay = new Map<string, DayTotals>();
  const ratesOf = new Map<string, [string, number][]>();
  let run: string[] = [];
  const read = async (): Promise<void> => {
    const first = run[0];
    const last = run.at(-1);
    run = [];
    if (!first || !last) return;
    const sums = await sumOrders(q, zone, shopId, dayInstant(first, zone), dayInstant(nextDay(last), zone));
    for (const [day, d] of sums.get(shopId) ?? []) {
      byDay.set(day, d.totals);
      ratesOf.set(day, [...d.rates]);
    }
  };
  const days: string[] = [];
  for (let day = from; day <= to; day = nextDay(day)) {
    days.push(day);
    if (!kept.has(day)) {
      run.push(day);
      continue;
    }
    await read();
    const body = kept.get(day);
    if (!body) continue;
    const k = JSON.parse(body) as { totals: DayTotals; rates: [string, number][] };
    byDay.set(day, k.totals);
    ratesOf.set(day, k.rates);
  }
  await read();
  const rates = new Map<string, number>();
  for (const day of days) for (const [label, rate] of ratesOf.get(day) ?? []) rates.set(label, rate);
  return { byDay, rates };
}

// --- goods costs -----------------------------------------------------------------------------------------------

interface MovementRow extends LedgerRow {
  /** A receipt's or reversal's line: its net purchase price a unit, from the document's calculation. */
  net: number | null;
}

export type BookMovement = LedgerMovement & { id: number };

/**
 * The shop's movements after id `after` (or, with `days`, the ones priced at their product's last purchase price
 * that the kept costs list, of the days `from` to `to`), in the book's order, with their product's label and line
 * price.
 */
async function movements(
  q: Queryable,
  shopId: number,
  after: number,
  days?: { from: string; to: string },
): Promise<BookMovement[]> {
  const rows = await q.query<MovementRow>(
    `SELECT m.id, m.code, m.day, m.kind, m.source, m.qty_milli AS "qtyMilli", m.value_para AS "valuePara", p.label,
            (d.detail->'lines'->m.line->>'netPara')::int8 AS net
       FROM hub_stock_movements m
       LEFT JOIN products p ON p.shop_id = m.shop_id AND p.code = m.code
       LEFT JOIN hub_goods_docs d ON m.kind IN ('receipt', 'reversal') AND d.shop_id = m.shop_id
            AND d.id = split_part(m.source, ':', 2)::int4
      WHERE m.shop_id = $1 AND m.id > $2
        AND ($3::text IS NULL OR m.id IN (SELECT f.movement_id FROM hub_export_cost_fallback f
                                           WHERE f.shop_id = $1 AND f.day BETWEEN $3 AND $4))
      ORDER BY m.id`,
    [shopId, after, days?.from ?? null, days?.to ?? null],
  );
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    qtyMilli: Number(r.qtyMilli),
    valuePara: Number(r.valuePara),
    linePurchasePara: r.net === null ? undefined : Number(r.net),
  }));
}

/** The book's last purchase price of each product: the cost of a movement before the product's first receipt. */
async function lastPurchasePrices(q: Queryable, shopId: number): Promise<Map<string, number>> {
  const rows = await q.query<{ code: string; purchase: number }>(
    'SELECT code, purchase_para AS purchase FROM hub_stock WHERE shop_id = $1 AND purchase_para IS NOT NULL',
    [shopId],
  );
  return new Map(rows.map((r) => [r.code, Number(r.purchase)]));
}

/** The kept costing of a shop's book: how far, and each product's state and the tax label its costs used. */
interface CostKeep {
  lastId: number;
  n: number;
  held: CostState;
  labels: Map<string, string | null>;
}

const emptyKeep = (): CostKeep => ({ lastId: 0, n: 0, held: new Map(), labels: new Map() });

/**
 * The shop's kept costing when it still holds (the movements up to `last_id` are the ones costed, no product's
 * label changed since), else undefined. `lock`: the keeper's row locked for its round.
 */
async function keptCosts(q: Queryable, shopId: number, lock: boolean): Promise<CostKeep | undefined> {
  const head = (
    await q.query<{ last_id: string; n: string }>(
      `SELECT last_id, n FROM hub_export_costs WHERE shop_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [shopId],
    )
  )[0];
  // Nothing costed yet (a first round): nothing kept to go on from.
  if (!head || Number(head.n) === 0) return undefined;
  const [check] = await q.query<{ have: string; stale: boolean }>(
    `SELECT (SELECT count(*) FROM hub_stock_movements m WHERE m.shop_id = $1 AND m.id <= $2) AS have,
            EXISTS (SELECT 1 FROM hub_export_cost_state s
                      LEFT JOIN products p ON p.shop_id = s.shop_id AND p.code = s.code
                     WHERE s.shop_id = $1 AND p.label IS DISTINCT FROM s.label) AS stale`,
    [shopId, head.last_id],
  );
  if (!check || check.stale || Number(check.have) !== Number(head.n)) return undefined;
  const keep: CostKeep = { ...emptyKeep(), lastId: Number(head.last_id), n: Number(head.n) };
  for (const s of await q.query<{ code: string; qty_milli: string; avg_para: string | null; label: string | null }>(
    'SELECT code, qty_milli, avg_para, label FROM hub_export_cost_state WHERE shop_id = $1',
    [shopId],
  )) {
    keep.held.set(s.code, { qty: Number(s.qty_milli), avg: s.avg_para === null ? undefined : Number(s.avg_para) });
    keep.labels.set(s.code, s.label);
  }
  return keep;
}

type CostedMovement = BookMovement & Costed & { byFallback: boolean };

/**
 * Costs `list` (after `keep.lastId`, in order) on from `keep`, which they move on; each says whether it went at its
 * product's last purchase price (before the product's first receipt: that price is read at each export, as it may
 * change). Undefined when a movement's label is not the one its product's kept costs used (they no longer hold).
 */
function costOn(
  keep: CostKeep,
  list: readonly BookMovement[],
  fallback: ReadonlyMap<string, number>,
): CostedMovement[] | undefined {
  const out: CostedMovement[] = [];
  for (const m of list) {
    if (keep.labels.has(m.code) && keep.labels.get(m.code) !== m.label) return undefined;
    keep.labels.set(m.code, m.label);
    const byFallback = m.linePurchasePara === undefined && keep.held.get(m.code)?.avg === undefined;
    const [c] = costMovements([m], (code) => fallback.get(code), keep.held);
    if (c) out.push({ ...c, byFallback });
    keep.lastId = m.id;
    keep.n++;
  }
  return out;
}

/** A kept line of goods out, as a movement of its sums (shared/exports/cost.ts `goodsOutOf` adds it up). */
interface GoodsOutRow {
  day: string;
  key: string;
  label: string;
  kind: string;
  source: string;
  first_id: string;
  retail_para: string;
  purchase_para: string;
}

/**
 * The shop's goods out at purchase value of the days `from` to `to` as costed in the book's order: the kept sums
 * (each as one movement of its sums), the kept movements that went at their product's last purchase price (priced
 * now), both in the order of their first movement, and the movements after them costed from the kept state; the
 * whole book costed when nothing is kept or the kept costs no longer hold.
 */
export async function costedGoodsOut(
  q: Queryable,
  shopId: number,
  from: string,
  to: string,
): Promise<(LedgerMovement & Costed)[]> {
  const fallback = await lastPurchasePrices(q, shopId);
  const kept = await keptCosts(q, shopId, false);
  const tail = kept && costOn(kept, await movements(q, shopId, kept.lastId), fallback);
  if (!kept || !tail)
    return (costOn(emptyKeep(), await movements(q, shopId, 0), fallback) ?? []).filter((m) => m.day <= to);
  const sums = (
    await q.query<GoodsOutRow>(
      `SELECT day, key, label, kind, source, first_id, retail_para, purchase_para FROM hub_export_goods_out
        WHERE shop_id = $1 AND day BETWEEN $2 AND $3`,
      [shopId, from, to],
    )
  ).map((r) => ({
    id: Number(r.first_id),
    code: '',
    day: r.day,
    kind: r.kind,
    source: r.source,
    // Only its sign counts: a count's shortage or surplus.
    qtyMilli: r.key === 'shortages' ? -1 : 1,
    valuePara: Number(r.retail_para),
    label: r.label,
    unitPara: 0,
    purchasePara: Number(r.purchase_para),
  }));
  const byFallback = (await movements(q, shopId, 0, { from, to })).map((m) => {
    const unitPara = fallback.get(m.code) ?? 0;
    return { ...m, unitPara, purchasePara: valueAt(m.qtyMilli, unitPara) };
  });
  const keptOut = [...sums, ...byFallback].sort((a, b) => a.id - b.id);
  return [...keptOut, ...tail.filter((m) => m.day <= to)];
}

/** Costs the shop's movements not costed yet and keeps them (the whole book again when its costs no longer hold). */
async function keepGoodsCosts(q: Queryable, shopId: number): Promise<void> {
  await q.query('INSERT INTO hub_export_costs (shop_id, last_id, n) VALUES ($1, 0, 0) ON CONFLICT DO NOTHING', [
    shopId,
  ]);
  const fallback = await lastPurchasePrices(q, shopId);
  let keep = await keptCosts(q, shopId, true);
  let costed = keep && costOn(keep, await movements(q, shopId, keep.lastId), fallback);
  if (!keep || !costed) {
    await q.query('DELETE FROM hub_export_goods_out WHERE shop_id = $1', [shopId]);
    await q.query('DELETE FROM hub_export_cost_state WHERE shop_id = $1', [shopId]);
    await q.query('DELETE FROM hub_export_cost_fallback WHERE shop_id = $1', [shopId]);
    keep = emptyKeep();
    costed = costOn(keep, await movements(q, shopId, 0), fallback) ?? [];
  }
  const lines = new Map<string, { m: BookMovement; doc: string; key: string; retail: number; purchase: number }>();
  const byFallback: BookMovement[] = [];
  for (const m of costed) {
    const place = goodsOutPlace(m);
    if (!place) continue;
    if (m.byFallback) {
      byFallback.push(m);
      continue;
    }
    const k = [m.day, place.id, place.key, m.label ?? ''].join('\u0000');
    const l = lines.get(k) ?? { m, doc: place.id, key: place.key, retail: 0, purchase: 0 };
    l.retail += m.valuePara;
    l.purchase += m.purchasePara;
    lines.set(k, l);
  }
  const ls = [...lines.values()];
  if (ls.length)
    await q.query(
      `INSERT INTO hub_export_goods_out (shop_id, day, doc, key, label, kind, source, first_id, retail_para,
         purchase_para)
       SELECT $1::int4, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                                      $8::int8[], $9::int8[], $10::int8[])
       ON CONFLICT (shop_id, day, doc, key, label) DO UPDATE SET
         retail_para = hub_export_goods_out.retail_para + excluded.retail_para,
         purchase_para = hub_export_goods_out.purchase_para + excluded.purchase_para`,
      [
        shopId,
        ls.map((l) => l.m.day),
        ls.map((l) => l.doc),
        ls.map((l) => l.key),
        ls.map((l) => l.m.label ?? ''),
        ls.map((l) => (l.m.kind === 'refund' ? 'sale' : l.m.kind)),
        ls.map((l) => l.m.source),
        ls.map((l) => l.m.id),
        ls.map((l) => l.retail),
        ls.map((l) => l.purchase),
      ],
    );
  if (byFallback.length)
    await q.query(
      `INSERT INTO hub_export_cost_fallback (shop_id, movement_id, day)
       SELECT $1::int4, * FROM unnest($2::int8[], $3::text[])`,
      [shopId, byFallback.map((m) => m.id), byFallback.map((m) => m.day)],
    );
  const codes = [...new Set(costed.map((m) => m.code))];
  if (codes.length)
    await q.query(
      `INSERT INTO hub_export_cost_state (shop_id, code, qty_milli, avg_para, label)
       SELECT $1::int4, * FROM unnest($2::text[], $3::int8[], $4::int8[], $5::text[])
       ON CONFLICT (shop_id, code) DO UPDATE SET qty_milli = excluded.qty_milli, avg_para = excluded.avg_para,
         label = excluded.label`,
      [
        shopId,
        codes,
        codes.map((c) => keep.held.get(c)?.qty ?? 0),
        codes.map((c) => keep.held.get(c)?.avg ?? null),
        codes.map((c) => keep.labels.get(c) ?? null),
      ],
    );
  await q.query('UPDATE hub_export_costs SET last_id = $2, n = $3 WHERE shop_id = $1', [shopId, keep.lastId, keep.n]);
}
