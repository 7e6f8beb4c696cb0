/**
 * Report totals per closed day: a report over a month or a year reads one stored row per
 * day plus the orders of at most two partial days, instead of every order of the period.
 *
 * - A day is a UTC calendar day (`created_at` is ISO UTC text). Only days before today's are stored:
 *   today's orders are read as they are.
 * - `report_days` (migration 011) holds the totals of a day, for all cashiers (`cashier` '') or one.
 *   Triggers on `orders` delete a day's rows in the same transaction as any insert into that day or any
 *   change of an order of it (state, data, kind, totals): a stored day is never stale. A sale inserts
 *   into today, which is never stored, so its trigger deletes nothing and writes no page.
 * - A missing day is computed from its orders when a report needs it, and stored; `warmReportDays`
 *   computes the missing closed days in the background (one day per turn of the event loop), so the
 *   first long report of an upgraded till does not read years of orders either.
 */
import type { OrderKind } from '../../shared/domain.ts';
import type { Db } from '../db/open.ts';
import { perDatabase } from '../db/per-database.ts';
import { createSyncLoop } from '../retry/loop.ts';
import { TAX_GROUP_CHANGED_WHERE } from '../orders/tax-group.ts';
import { shopHour } from '../../shared/reports/hours.ts';
import {
  addOrders,
  emptyTotals,
  mergeTotals,
  type OrderData,
  type ReceiptTaxes,
  type ReportOrder,
  type ReportTotals,
} from '../../shared/reports/totals.ts';
import { receiptRow, type ReceiptRow } from '../../shared/reports/receipts.ts';

const DAY_MS = 86_400_000;

/**
 * 'YYYY-MM-DDT00:00:00.000Z' of the UTC day holding `iso`, or of the next one when `up` and `iso` is not a midnight.
 */
function utcMidnight(iso: string, up: boolean): string {
  const t = Date.parse(iso);
  const floor = t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
  return new Date(up && floor < t ? floor + DAY_MS : floor).toISOString();
}

interface OrderRow {
  kind: OrderKind;
  invoice_type: string;
  state: string;
  total_para: number;
  data: string;
  /** The receipt's transactionType and taxItems (JSON), read without parsing the whole receipt. */
  tx: string | null;
  tax_items: string | null;
  has_receipt: number;
  extra_receipts: string | null;
  tax_group_changed: number;
  created_at: string;
  cashier: string | null;
  invoice_number: string | null;
}

const stmts = perDatabase((db: Db) => ({
  rows: db.prepare<[string, string, string | null, string | null], OrderRow>(
    `SELECT kind, invoice_type, state, total_para, data, json_extract(receipt, '$.transactionType') AS tx,
              json_extract(receipt, '$.taxItems') AS tax_items,
              receipt IS NOT NULL AS has_receipt, extra_receipts,
              coalesce(${TAX_GROUP_CHANGED_WHERE}, 0) AS tax_group_changed, created_at,
              json_extract(data, '$.cashier') AS cashier, invoice_number FROM orders
       WHERE created_at >= ? AND created_at < ? AND (? IS NULL OR json_extract(data, '$.cashier') = ?)
       ORDER BY created_at, id`,
  ),
  days: db.prepare<[string, string, string], { day: string; body: string }>(
    'SELECT day, body FROM report_days WHERE day >= ? AND day < ? AND cashier = ?',
  ),
  has: db.prepare<[string, string], { one: number }>(
    `SELECT 1 AS one FROM report_days WHERE day = ? AND cashier = ? AND instr(body, '"gross"') > 0`,
  ),
  put: db.prepare('INSERT OR REPLACE INTO report_days (day, cashier, body) VALUES (?, ?, ?)'),
  oldest: db.prepare<[], { at: string | null }>('SELECT min(created_at) AS at FROM orders'),
}));

/** Totals of the orders created in [from, to), read row by row. */
function fromRows(db: Db, from: string, to: string, cashier: string | undefined): ReportTotals {
  return addOrders(emptyTotals(), reportOrders(db, from, to, cashier));
}

/** The orders created in [from, to) as a report sums them, in time order. */
function reportOrders(db: Db, from: string, to: string, cashier: string | undefined): ReportOrder[] {
  return readOrders(db, from, to, cashier).map((x) => x.order);
}

/** The orders created in [from, to) with their rows, as a report reads them, in time order (also electron/exports). */
export function readOrders(db: Db, from: string, to: string, cashier: string | undefined) {
  const rows = stmts(db).rows.all(from, to, cashier ?? null, cashier ?? null);
  return rows.map((r) => ({
    row: r,
    order: {
      kind: r.kind,
      invoice_type: r.invoice_type,
      state: r.state,
      total_para: r.total_para,
      data: JSON.parse(r.data) as OrderData,
      receipts: receiptTaxes(r),
      taxGroupChanged: r.tax_group_changed === 1,
      hour: shopHour(r.created_at),
      cashier: typeof r.cashier === 'string' ? r.cashier : '',
    } satisfies ReportOrder,
  }));
}

/**
 * The receipts of [from, to) for the accountant (shared/reports/receipts.ts), one per order the report counts, in
 * time order: read from the orders (a list of every receipt, not a sum: stored days do not help).
 */
export function receiptRows(
  db: Db,
  range: { from: string; to: string; cashier?: string | undefined },
  till: string,
): ReceiptRow[] {
  return readOrders(db, range.from, range.to, range.cashier).flatMap(({ row, order }) => {
    const r = receiptRow(order, {
      at: row.created_at,
      invoiceNumber: row.invoice_number,
      cashier: order.cashier,
      till,
    });
    return r ? [r] : [];
  });
}

/**
 * The order's receipts as a report reads them: the receipt's taxItems, then any extra receipts' (a finalize's advance
 * refund).
 */
function receiptTaxes(r: OrderRow): ReceiptTaxes[] {
  const list: ReceiptTaxes[] = [];
  if (r.has_receipt)
    list.push({
      transactionType: r.tx ?? undefined,
      taxItems: r.tax_items === null ? null : (JSON.parse(r.tax_items) as ReceiptTaxes['taxItems']),
    });
  if (r.extra_receipts) {
    for (const e of JSON.parse(r.extra_receipts) as ReceiptTaxes[])
      list.push({ transactionType: e.transactionType, taxItems: e.taxItems });
  }
  return list;
}

/** Computes and stores the totals of one closed UTC day ('YYYY-MM-DD'). */
function storeDay(db: Db, day: string, cashier: string | undefined): ReportTotals {
  const from = `${day}T00:00:00.000Z`;
  const totals = fromRows(db, from, new Date(Date.parse(from) + DAY_MS).toISOString(), cashier);
  stmts(db).put.run(day, cashier ?? '', JSON.stringify(totals));
  return totals;
}

/**
 * The totals of the orders created in [from, to) (ISO UTC), for one cashier or all: whole closed days
 * from `report_days` (computed and stored when missing), the partial days at either end from their rows.
 */
export function reportTotals(
  db: Db,
  range: { from: string; to: string; cashier?: string | undefined },
  now: number,
): ReportTotals {
  const { from, to, cashier } = range;
  const today = utcMidnight(new Date(now).toISOString(), false);
  // Whole days from the first midnight in the range, or the day of the oldest order if later (the days
  // before it are empty: nothing to store), to the last midnight in the range, or today's if earlier.
  const oldest = stmts(db).oldest.get()?.at;
  const firstMidnight = utcMidnight(from, true);
  const oldestDay = oldest ? utcMidnight(oldest, false) : today;
  const d0 = oldestDay > firstMidnight ? oldestDay : firstMidnight;
  const floorTo = utcMidnight(to, false);
  const d1 = floorTo < today ? floorTo : today;
  if (!(d0 < d1)) return fromRows(db, from, to, cashier);
  const totals = fromRows(db, from, d0, cashier);
  const stored = new Map(
    stmts(db)
      .days.all(d0.slice(0, 10), d1.slice(0, 10), cashier ?? '')
      .map((r) => [r.day, r.body]),
  );
  db.transaction(() => {
    for (let t = Date.parse(d0); t < Date.parse(d1); t += DAY_MS) {
      const day = new Date(t).toISOString().slice(0, 10);
      const body = stored.get(day);
      const kept = body ? (JSON.parse(body) as ReportTotals) : null;
      // A day stored before the hour and cashier buckets, or the gross by label (shared/tax-summary.ts),
      // existed is summed again (and stored with them).
      mergeTotals(totals, kept?.hours && kept.cashiers && kept.gross ? kept : storeDay(db, day, cashier));
    }
  })();
  return mergeTotals(totals, fromRows(db, d1, to, cashier));
}

/**
 * Stores the totals (all cashiers) of every closed day from the oldest order to yesterday that has none,
 * one day per turn of the event loop, so a sale never waits behind more than one day's orders (~300).
 * Returns how many days it computed; stops early when `stopped()` says so.
 */
export async function warmReportDays(db: Db, now: number, stopped: () => boolean = () => false): Promise<number> {
  const oldest = stmts(db).oldest.get()?.at;
  if (!oldest) return 0;
  const today = Date.parse(utcMidnight(new Date(now).toISOString(), false));
  let computed = 0;
  for (let t = Date.parse(utcMidnight(oldest, false)); t < today; t += DAY_MS) {
    if (stopped() || !db.open) break;
    const day = new Date(t).toISOString().slice(0, 10);
    if (stmts(db).has.get(day, '')) continue;
    storeDay(db, day, undefined);
    computed++;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return computed;
}

/**
 * Runs `warmReportDays` a minute after start (start-up and the first sales come first), then every six
 * hours (a till left running past midnight). Returns the function that stops it and waits for a run.
 */
export function startReportDays(db: Db, now: () => number, onError: (err: unknown) => void): () => Promise<void> {
  let stopped = false;
  const loop = createSyncLoop(() =>
    warmReportDays(db, now(), () => stopped).then(
      () => undefined,
      (err: unknown) => onError(err),
    ),
  );
  loop.start(6 * 3_600_000, 60_000);
  return () => {
    stopped = true;
    return loop.stop();
  };
}
