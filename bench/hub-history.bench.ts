/**
 * hub-history: a chain's hub under years of history (#25), on a real PostgreSQL 15 started here (fsync on).
 * 200 tills in 20 shops (BENCH_HUB_TILLS, BENCH_HUB_SHOPS); KASA_BENCH_HUB_ORDERS orders (default 1,000,000;
 * 10,000,000 for the second size) over KASA_BENCH_HUB_DAYS days (default 365) up to the bench's "now",
 * shaped as tills push them (lines with one or two tax labels, cash and card, receipts with their taxItems,
 * 2 % refunds, three cashiers a till), written with the push's own columns and facts (hub/report-facts.ts) in
 * bulk inserts of 5,000 rows (unnest), then the day closer sums every closed day (hub/report-days.ts).
 *
 * Figures (limits from the issue): one shop's day (today, from orders) ≤ 200 ms; one shop's 30 days ≤ 300 ms;
 * the chain's day ≤ 500 ms; the chain's 30 days ≤ 2 s; the chain's year ≤ 5 s; a till's cross-till lookup by
 * invoice number (p99 of 200) ≤ 20 ms; the push p99 of 20 tills pushing while chain-year reports run back to
 * back ≤ 1 s; ingest (8 tills pushing batches of 50 as fast as acknowledged) in orders/s, against the full
 * database, not below 722 orders/s (before #25, on a fresh database). Building and closing are reported too
 * (no limit). Reports are timed warm: the median of 3.
 */
import { performance } from 'node:perf_hooks';
import { openPostgres } from '../hub/db/db.ts';
import { createHubService, type AuthedTill } from '../hub/service.ts';
import type { HubEvent } from '../shared/hub/protocol.ts';
import { postgresAvailable, startPostgres } from '../test/support/postgres.ts';
import { benchLine, percentile } from './format.ts';
import { benchOrder as order, buildOrders, DAY_MS, type BenchTill } from './hub-orders.ts';

const ORDERS = Number(process.env.KASA_BENCH_HUB_ORDERS ?? 1_000_000);
const DAYS = Number(process.env.KASA_BENCH_HUB_DAYS ?? 365);
const SHOPS = Number(process.env.BENCH_HUB_SHOPS ?? 20);
const TILLS = Number(process.env.BENCH_HUB_TILLS ?? 200);
const ZONE = 'Europe/Belgrade';
/** The bench's "now": 12:00 in Belgrade on 25 November 2026 (UTC+1). */
const NOW = Date.UTC(2026, 10, 25, 11, 0, 0);
/** Belgrade's midnight of NOW's day. */
const TODAY = Date.UTC(2026, 10, 24, 23, 0, 0);

if (!postgresAvailable()) {
  console.error('hub-history needs PostgreSQL 15 (apt-get install -y postgresql)');
  process.exit(1);
}

const out = (l: string): void => console.log(l);
const log = (l: string): void => void process.stderr.write(`hub-history: ${l}\n`);
const median = (xs: number[]): number => percentile(xs, 50);

const cluster = await startPostgres({ durable: true });
try {
  const db = await openPostgres(cluster.url);
  const clock = NOW;
  const service = createHubService(db, { now: () => new Date(clock), timeZone: ZONE });
  await service.ensureDefaultShop('Продавница 1');
  const shops: number[] = [];
  const tills: (AuthedTill & BenchTill)[] = [];
  for (let s = 0; s < SHOPS; s++) {
    const shopId =
      s === 0
        ? ((await db.query<{ id: number }>('SELECT min(id) AS id FROM shops'))[0]?.id ?? 1)
        : await service.createShop(`Продавница ${s + 1}`);
    shops.push(shopId);
  }
  for (let t = 0; t < TILLS; t++) {
    const shopId = shops[t % SHOPS] ?? 1;
    const name = `К${t + 1}`;
    const r = await service.enrol(await service.newEnrolCode(shopId), name);
    tills.push({ id: r.tillId, shopId, name, n: 0, seq: 0 });
  }

  // --- build: every till's orders, day by day (bench/hub-orders.ts) ---
  const t0 = performance.now();
  const built = await buildOrders(db, tills, { orders: ORDERS, days: DAYS, today: TODAY, now: NOW, log });
  const buildS = (performance.now() - t0) / 1000;
  log(`built ${built} orders in ${buildS.toFixed(1)} s`);
  out(benchLine('hub-history', `build_${built}_orders_s`, buildS, 600, 's'));

  const t1 = performance.now();
  const closed = await service.closeDays(NOW);
  await db.query('ANALYZE');
  out(benchLine('hub-history', `close_${closed.closed}_days_s`, (performance.now() - t1) / 1000, 600, 's'));

  // --- reports -----------------------------------------------------------------------------------------
  const shop = shops[Math.floor(SHOPS / 2)] ?? 1;
  const iso = (t: number): string => new Date(t).toISOString();
  const report = async (days: number, shopId?: number): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const s = performance.now();
      const r = await service.report(
        { from: iso(TODAY - (days - 1) * DAY_MS), to: iso(NOW), ...(shopId ? { shopId } : {}) },
        NOW,
      );
      times.push(performance.now() - s);
      if (!shopId && r.total.sales.count === 0) throw new Error('an empty chain report');
    }
    return median(times);
  };
  out(benchLine('hub-history', 'shop_day_ms', await report(1, shop), 200, 'ms'));
  out(benchLine('hub-history', 'shop_30_days_ms', await report(30, shop), 300, 'ms'));
  out(benchLine('hub-history', 'chain_day_ms', await report(1), 500, 'ms'));
  out(benchLine('hub-history', 'chain_30_days_s', (await report(30)) / 1000, 2, 's'));
  out(benchLine('hub-history', 'chain_year_s', (await report(365)) / 1000, 5, 's'));

  // --- a till's cross-till lookup: another till's sale of the shop, by invoice number ------------------------
  {
    const times: number[] = [];
    const shopTills = tills.filter((t) => t.shopId === shop);
    for (let i = 0; i < 200; i++) {
      const asking = shopTills[i % shopTills.length];
      const other = shopTills[(i + 1) % shopTills.length];
      if (!asking || !other) throw new Error('no till');
      const n = 1 + ((i * 7919) % other.n);
      const s = performance.now();
      const found = await service.lookup(asking, { invoiceNumber: `${other.name}-${n}` });
      times.push(performance.now() - s);
      if (!found) throw new Error(`invoice ${other.name}-${n} not found`);
    }
    out(benchLine('hub-history', 'lookup_p99_ms', percentile(times, 99), 20, 'ms'));
    out(benchLine('hub-history', 'lookup_median_ms', median(times), 20, 'ms'));
  }

  // --- pushes while chain-year reports run: 20 tills push one sale every 250 ms each ----------------------
  {
    const latencies: number[] = [];
    let reporting = true;
    const reports = (async () => {
      let n = 0;
      const s = performance.now();
      while (n < 3 || performance.now() - s < 10_000) {
        await service.report({ from: iso(TODAY - 364 * DAY_MS), to: iso(NOW) }, NOW);
        n++;
      }
      reporting = false;
      return n;
    })();
    const pushers = tills.slice(0, 20).map(async (till) => {
      while (reporting) {
        const n = ++till.n;
        const ev: HubEvent = {
          seq: ++till.seq,
          kind: 'order',
          ref: `${till.name}-${n}`,
          payload: order(till.name, n, clock, 'Касир'),
        };
        const s = performance.now();
        await service.push(till, { tillId: till.id, events: [ev] });
        latencies.push(performance.now() - s);
        await new Promise((r) => setTimeout(r, 250));
      }
    });
    const n = await reports;
    await Promise.all(pushers);
    log(`${latencies.length} pushes during ${n} chain-year reports`);
    out(benchLine('hub-history', 'push_p99_during_year_report_ms', percentile(latencies, 99), 1000, 'ms'));
  }

  // --- ingest against the full database: 8 tills, batches of 50, as fast as acknowledged ------------------
  {
    const s = performance.now();
    let pushed = 0;
    await Promise.all(
      tills.slice(20, 28).map(async (till) => {
        for (let b = 0; b < 20; b++) {
          const events: HubEvent[] = [];
          for (let i = 0; i < 50; i++) {
            const n = ++till.n;
            events.push({
              seq: ++till.seq,
              kind: 'order',
              ref: `${till.name}-${n}`,
              payload: order(till.name, n, clock, 'Касир'),
            });
          }
          await service.push(till, { tillId: till.id, events });
          pushed += events.length;
        }
      }),
    );
    // Not lower than before #25: the slowest of three rounds of the same pushes on a fresh PostgreSQL then
    // (docs/hub.md); here against the whole history, so a stricter floor. Above 1 is better.
    out(benchLine('hub-history', 'ingest_orders_per_s', pushed / ((performance.now() - s) / 1000), 722, 'orders/s'));
  }
  await db.close();
} finally {
  cluster.stop();
}
