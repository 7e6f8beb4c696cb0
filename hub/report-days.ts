/**
 * Closed days at the hub: the summed facts (hub/report-facts.ts) of each till's day per cashier in `hub_days`,
 * so a report over a month or a year reads day rows, not orders (hub/reports.ts); a month whose days are all
 * closed is summed again from them into `hub_months` (hub migration 17), so a year reads 12 months' rows.
 *
 * - A day is a calendar day in the hub's time zone (`KASA_HUB_TIME_ZONE`, default Europe/Belgrade: the shops'
 *   day, so a shop's day, month or year is whole days).
 * - A day is summed ("closed", `hub_days_closed`) for every till at once, once it has been over for
 *   `CLOSE_GRACE_MS` (1 h): the pushes of tills that were briefly offline at midnight are in by then.
 * - A later order of a closed day (a till offline for days, a refund of last week's sale pushed late)
 *   marks its till's day dirty (`hub_days_dirty`) in the push's transaction: every push of an order
 *   created more than `DIRTY_AFTER_MS` ago marks its day, before the day can be closed, so no order
 *   slips between a push and a close. Reports read a dirty till-day from its orders; the next round sums it
 *   again. A round deletes the marks before it reads the orders, so a push during the round leaves its mark.
 * - The bookkeeper's export keeps its own sums of the closed days and of the goods book's costs in the same round
 *   (hub/export-sums.ts; only in the export's zone, Europe/Belgrade), and sums a dirty day of a shop again with it.
 */
import type { HubDb, Queryable } from './db/db.ts';
import { fillFacts } from './report-facts.ts';
import { pruneEvents } from './events.ts';
import { pruneRefundHolds } from './refund-holds.ts';
import { ensureMonthPartitions } from './partitions.ts';
import { DAY_CLOSER, noteMaintenance } from './till-trust.ts';
import { keepExportSums, resumExportDay } from './export-sums.ts';

export const CLOSE_GRACE_MS = 3600_000;
/** Half the grace: a push transaction has that long to commit before the day it did not mark is closed. */
export const DIRTY_AFTER_MS = CLOSE_GRACE_MS / 2;
export const DEFAULT_HUB_TIME_ZONE = 'Europe/Belgrade';

/**
 * The facts of the orders `o` as rows, with their place as one int8: the order's ms since 2020 (41 bits, to
 * 2089), its till id mod 1024 (10 bits: orders of one millisecond on several tills go by till, as the old
 * `ORDER BY created_at` left them), then the fact's place in the order (12 bits). Entries of a report keep the
 * order in which they first appeared. Read as text in JavaScript (BigInt): it is above 2^53.
 */
export const FACT_ITEMS = `jsonb_array_elements(o.facts) WITH ORDINALITY AS e(f, n)`;
export const FACT_POS = `((((extract(epoch FROM o.created_at) * 1000)::int8 - 1577836800000) * 4194304)
  + (o.till_id % 1024) * 4096 + least(e.n, 4095))`;

/**
 * `FACT_ITEMS` and, for each order's sales, refunds and advances facts, one more fact `['h', hour, null, count,
 * para]`: the hour of the order's creation on the shop's clock (`zone`: a SQL parameter such as `$2`), with its
 * count and turnover (refunds negative). The report's by-hour breakdown, summed like every other fact.
 */
export const factItemsWithHours = (zone: string): string => `(
  SELECT f, n FROM jsonb_array_elements(o.facts) WITH ORDINALITY AS e(f, n)
  UNION ALL
  SELECT jsonb_build_array('h', to_char(o.created_at AT TIME ZONE ${zone}, 'FMHH24'), NULL, f->3,
                           CASE WHEN f->>0 = 'refunds' THEN -(f->>4)::int8 ELSE (f->>4)::int8 END), n
    FROM jsonb_array_elements(o.facts) WITH ORDINALITY AS e(f, n) WHERE f->>0 IN ('sales', 'refunds', 'advances')
) AS e(f, n)`;

/** Sums the orders of `day` ('YYYY-MM-DD', of one till or all) into `hub_days`. */
async function sumDay(q: Queryable, zone: string, day: string, tillId: number | null): Promise<void> {
  await q.query('DELETE FROM hub_days WHERE day = $1::date AND ($2::int4 IS NULL OR till_id = $2)', [day, tillId]);
  await q.query(
    `INSERT INTO hub_days (till_id, day, shop_id, cashier, kind, k, rate, a, b, first, last)
     SELECT o.till_id, $1::date, o.shop_id, coalesce(o.cashier, ''), f->>0, f->>1, (f->>2)::float8,
            sum((f->>3)::int8), sum((f->>4)::int8), min(${FACT_POS}), max(${FACT_POS})
       FROM orders o CROSS JOIN LATERAL ${factItemsWithHours('$2::text')}
      WHERE o.created_at >= ($1::date::timestamp AT TIME ZONE $2) AND o.created_at < (($1::date + 1)::timestamp AT TIME ZONE $2)
        AND ($3::int4 IS NULL OR o.till_id = $3)
      GROUP BY o.till_id, o.shop_id, coalesce(o.cashier, ''), f->>0, f->>1, (f->>2)::float8`,
    [day, zone, tillId],
  );
}

/** Sums the closed days of `month` ('YYYY-MM-01', of one till or all) into `hub_months`. */
async function sumMonth(q: Queryable, month: string, tillId: number | null): Promise<void> {
  await q.query('DELETE FROM hub_months WHERE month = $1::date AND ($2::int4 IS NULL OR till_id = $2)', [
    month,
    tillId,
  ]);
  await q.query(
    `INSERT INTO hub_months (till_id, month, shop_id, cashier, kind, k, rate, a, b, first, last)
     SELECT till_id, $1::date, shop_id, cashier, kind, k, rate, sum(a), sum(b), min(first), max(last)
       FROM hub_days
      WHERE day >= $1::date AND day < ($1::date + interval '1 month')::date AND ($2::int4 IS NULL OR till_id = $2)
      GROUP BY till_id, shop_id, cashier, kind, k, rate`,
    [month, tillId],
  );
}

/**
 * One round: computes missing facts, closes every day over for the grace that is not closed yet (from the
 * oldest order's), and sums again the dirty days of closed days. Returns the days closed and resummed.
 */
export async function closeDays(
  db: HubDb,
  zone: string,
  now: number = Date.now(),
): Promise<{ closed: number; resummed: number }> {
  // The coming month's tables ahead, and the months stranded in a default partition (hub/partitions.ts).
  await ensureMonthPartitions(db, now);
  await fillFacts(db, null, null);
  const limit = new Date(now - CLOSE_GRACE_MS).toISOString();
  const days = await db.query<{ day: string }>(
    `SELECT to_char(d, 'YYYY-MM-DD') AS day
       FROM generate_series((SELECT (min(created_at) AT TIME ZONE $1)::date FROM orders),
                            ($2::timestamptz AT TIME ZONE $1)::date - 1, interval '1 day') AS d
      WHERE NOT EXISTS (SELECT 1 FROM hub_days_closed c WHERE c.day = d::date) ORDER BY d`,
    [zone, limit],
  );
  for (const { day } of days) {
    await db.tx(async (q) => {
      await q.query('DELETE FROM hub_days_dirty WHERE day = $1::date', [day]);
      await sumDay(q, zone, day, null);
      await q.query('INSERT INTO hub_days_closed (day, at) VALUES ($1::date, $2) ON CONFLICT (day) DO NOTHING', [
        day,
        new Date(now).toISOString(),
      ]);
    });
  }
  // Months all of whose days are closed, summed from their days once.
  const months = await db.query<{ month: string }>(
    `SELECT to_char(m, 'YYYY-MM-DD') AS month FROM (
       SELECT date_trunc('month', day)::date AS m, count(*) AS n FROM hub_days_closed GROUP BY 1) c
      WHERE n = ((m + interval '1 month')::date - m)
        AND NOT EXISTS (SELECT 1 FROM hub_months_closed x WHERE x.month = c.m) ORDER BY m`,
  );
  for (const { month } of months) {
    await db.tx(async (q) => {
      await sumMonth(q, month, null);
      await q.query('INSERT INTO hub_months_closed (month, at) VALUES ($1::date, $2) ON CONFLICT (month) DO NOTHING', [
        month,
        new Date(now).toISOString(),
      ]);
    });
  }
  // The export's sums of the closed days and the goods book's costs (hub/export-sums.ts), in the export's days.
  if (zone === DEFAULT_HUB_TIME_ZONE) await keepExportSums(db, zone, now);
  const dirty = await db.query<{ till_id: number; day: string }>(
    `SELECT x.till_id, to_char(x.day, 'YYYY-MM-DD') AS day FROM hub_days_dirty x
      WHERE EXISTS (SELECT 1 FROM hub_days_closed c WHERE c.day = x.day) ORDER BY x.day, x.till_id`,
  );
  for (const { till_id: tillId, day } of dirty) {
    await db.tx(async (q) => {
      await q.query('DELETE FROM hub_days_dirty WHERE till_id = $1 AND day = $2::date', [tillId, day]);
      await sumDay(q, zone, day, tillId);
      if (zone === DEFAULT_HUB_TIME_ZONE) await resumExportDay(q, zone, day, tillId);
      // The till's month, when it is closed, from its days again.
      const month = `${day.slice(0, 8)}01`;
      const closedMonth = await q.query('SELECT 1 FROM hub_months_closed WHERE month = $1::date', [month]);
      if (closedMonth.length) await sumMonth(q, month, tillId);
    });
  }
  return { closed: days.length, resummed: dirty.length };
}

/**
 * Marks the days of a pushed batch's orders dirty (in the push's transaction) when they may be closed: orders
 * created more than `DIRTY_AFTER_MS` before `now`.
 */
export async function markDirty(
  q: Queryable,
  zone: string,
  tillId: number,
  createdAt: readonly string[],
  now: number,
): Promise<void> {
  const late = createdAt.filter((c) => Date.parse(c) < now - DIRTY_AFTER_MS);
  if (!late.length) return;
  await q.query(
    `INSERT INTO hub_days_dirty (till_id, day)
     SELECT DISTINCT $1::int4, (c AT TIME ZONE $2)::date FROM unnest($3::timestamptz[]) AS c ORDER BY 2
     ON CONFLICT (till_id, day) DO UPDATE SET n = hub_days_dirty.n + 1`,
    [tillId, zone, late],
  );
}

/**
 * Closes days every `everyMs` (and at once) until stopped, then prunes acknowledged history older than
 * `keepEventsMs` (hub/events.ts); a failed round is tried again at the next. A failure is logged and kept
 * (`hub_maintenance`, hub/till-trust.ts): the managers see it as an alarm until a round works again.
 */
export function startDayCloser(
  db: HubDb,
  zone: string,
  keepEventsMs: number,
  everyMs = 5 * 60_000,
  log: (line: string) => void = (line) => void process.stderr.write(line + '\n'),
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const round = (): void => {
    running = running
      .then(() => closeDays(db, zone))
      .then(() => pruneEvents(db, keepEventsMs))
      .then(() => pruneRefundHolds(db))
      .then(() => noteMaintenance(db, DAY_CLOSER, null, Date.now()))
      .catch(async (err: unknown) => {
        const message = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'failed';
        log(`hub: day closer failed (tried again in ${Math.round(everyMs / 1000)} s): ${message}`);
        await noteMaintenance(db, DAY_CLOSER, message, Date.now()).catch((e: unknown) =>
          log(`hub: the day closer's failure could not be recorded: ${e instanceof Error ? e.message : String(e)}`),
        );
      });
  };
  round();
  const timer = setInterval(round, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
