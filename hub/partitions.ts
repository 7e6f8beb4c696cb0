/**
 * The month partitions of `orders` and `till_events` (#25, hub migration 16). Each month (UTC) of a table's time
 * column is its own table, `<table>_YYYY_MM`; a row of a month without one lands in `<table>_default`.
 *
 * - The day closer (hub/report-days.ts) makes the current and the next month's tables ahead, and a table for
 *   every month that has rows in the default partition (a till's clock far off, a month the hub was not running
 *   for): its rows move out of the default, so every month with data has its table.
 * - A month of `till_events` that ended before the events' keep period and has no row left after pruning
 *   (hub/events.ts) is dropped as a whole table.
 */
import type { HubDb, Queryable } from './db/db.ts';

const TABLES = [
  { table: 'orders', column: 'created_at' },
  { table: 'till_events', column: 'received_at' },
] as const;

/** The first day of the UTC month of `ms` plus `add` months, as 'YYYY-MM-01'. */
function monthOf(ms: number, add = 0): string {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1)).toISOString().slice(0, 10);
}

async function ensure(q: Queryable, table: string, column: string, months: readonly string[]): Promise<number> {
  let made = 0;
  for (const m of [...new Set(months)].sort()) {
    const r = await q.query<{ made: boolean }>('SELECT hub_month_partition($1, $2, $3::date) AS made', [
      table,
      column,
      m,
    ]);
    if (r[0]?.made) made++;
  }
  return made;
}

/**
 * Makes the month tables of both tables for the months from `fromMs` to `toMs` (inclusive, UTC months), the
 * month after `toMs`, and every month that has rows in a default partition. Returns the tables made.
 */
export async function ensureMonthPartitions(db: HubDb, fromMs: number, toMs: number = fromMs): Promise<number> {
  return db.tx(async (q) => {
    // Two hubs on one database: one makes a month's table, the other then finds it.
    await q.query('SELECT pg_advisory_xact_lock(715003)');
    let made = 0;
    for (const { table, column } of TABLES) {
      const months: string[] = [];
      for (let i = 0; monthOf(fromMs, i) <= monthOf(toMs, 1); i++) months.push(monthOf(fromMs, i));
      const stray = await q.query<{ m: string }>(
        `SELECT DISTINCT to_char(date_trunc('month', ${column} AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS m
           FROM ${table}_default`,
      );
      made += await ensure(q, table, column, [...months, ...stray.map((s) => s.m)]);
    }
    return made;
  });
}

/** Drops the month tables of `till_events` that ended at or before `beforeMs` and hold no row. Returns them. */
export async function dropEmptyEventMonths(db: HubDb, beforeMs: number): Promise<string[]> {
  const parts = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'till_events'::regclass AND c.relname ~ '^till_events_[0-9]{4}_[0-9]{2}$' ORDER BY 1`,
  );
  const dropped: string[] = [];
  for (const { name } of parts) {
    const [y, m] = name.slice('till_events_'.length).split('_').map(Number);
    if (y === undefined || m === undefined || Date.UTC(y, m, 1) > beforeMs) continue;
    const gone = await db.tx(async (q) => {
      // A push never writes a month that is over (its events are received now), so an empty one stays empty.
      const rows = await q.query(`SELECT 1 FROM ${name} LIMIT 1`);
      if (rows.length) return false;
      await q.query(`DROP TABLE ${name}`);
      return true;
    });
    if (gone) dropped.push(name);
  }
  return dropped;
}
