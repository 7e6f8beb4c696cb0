/**
 * The exports' sums per Belgrade day (docs/exports.md "Speed"): what one day's orders add to an export — the
 * report's totals of the day, split into advances and the rest for the journal, what the day's final sales' advance
 * refunds close, and the day's refunds, advances and final sales as receipt rows. A closed day (before today in
 * Belgrade) is computed once from its orders and kept in `export_days` (migration 037, the table's only writer);
 * the triggers on `orders` delete a day in the transaction that inserts or changes one of its orders, so a kept day
 * is never stale. Today is always read from its orders.
 */
import type { Db } from '../db/open.ts';
import { perDatabase } from '../db/per-database.ts';
import { readOrders } from '../manager/report-days.ts';
import { addToDay, emptyDay, type DayTotals } from '../../shared/exports/days.ts';

export type { DayTotals };

/** A day's sums from its orders created in [from, to) (ISO UTC). */
function fromOrders(db: Db, from: string, to: string): DayTotals {
  const d = emptyDay();
  for (const { row, order } of readOrders(db, from, to, undefined))
    addToDay(d, order, {
      at: row.created_at,
      invoiceNumber: row.invoice_number,
      cashier: order.cashier ?? '',
      till: '',
    });
  return d;
}

const stmts = perDatabase((db: Db) => ({
  get: db.prepare<[string, string], { day: string; body: string }>(
    'SELECT day, body FROM export_days WHERE day >= ? AND day <= ?',
  ),
  put: db.prepare('INSERT OR REPLACE INTO export_days (day, body) VALUES (?, ?)'),
}));

/**
 * The sums of each day of `days` (in order; each with its instants [from, to)): a closed day (before `today`) from
 * `export_days`, computed from its orders and kept when missing; today and later from their orders.
 */
export function exportDays(
  db: Db,
  days: readonly { day: string; from: string; to: string }[],
  today: string,
): Map<string, DayTotals> {
  const out = new Map<string, DayTotals>();
  if (days.length === 0) return out;
  const kept = new Map(
    stmts(db)
      .get.all(days[0]?.day ?? '', days.at(-1)?.day ?? '')
      .map((r) => [r.day, r.body]),
  );
  db.transaction(() => {
    for (const { day, from, to } of days) {
      const body = day < today ? kept.get(day) : undefined;
      if (body) {
        out.set(day, JSON.parse(body) as DayTotals);
        continue;
      }
      const d = fromOrders(db, from, to);
      if (day < today) stmts(db).put.run(day, JSON.stringify(d));
      out.set(day, d);
    }
  })();
  return out;
}
