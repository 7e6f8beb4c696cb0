/**
 * history: a till in its third year. Builds BENCH_ORDERS (default 300,000) sales spread over
 * three years through the app's own code paths (`SalesService.checkout`, then `OrderStore.startAttempts` +
 * `markFiscalized` with a gateway-shaped receipt: test/support/history.ts), caches the database under
 * bench/results/history-<N>/ (gitignored) so reruns skip the build, and then measures on a copy:
 * - cold start: host process start → first command answered, with the OS page cache dropped first
 *   (`echo 3 > /proc/sys/vm/drop_caches`; when not permitted the line says `warm` instead) and a new day,
 *   so the daily backup is due; then the first sale committed while the background check runs;
 * - every query a person waits on (end-of-day report, archive by number exact and prefix, by invoice
 *   number, by day, by month, by payment type, needs-attention list, sync.status): median of 15 runs after
 *   a first cold one, with the cold one shown as well;
 * - the background maintenance: quick_check time; the first restore point (full: its bytes and time) and,
 *   after a day of trading (300 sales), the next one (an increment: the bytes written per day of trading
 *   and its time); five more days of trading and points, so the disk all kept points take (a full point
 *   and six increments) is measured, not estimated; the time a restore of the newest point takes (rebuild
 *   of its chain, WAL folded in, integrity_check); and a sale's p99 (checkout + settle, two durable
 *   commits) while each backup runs, beside the same sales with nothing in the background.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../electron/db/open.ts';
import { MIGRATIONS } from '../electron/db/migrations/index.ts';
import { cancelRestore, listBackups, requestRestore } from '../electron/db/backup.ts';
import {
  BACKUP_BYTES_PER_SEC,
  BACKUP_READ_BYTES_PER_SEC,
  backupInWorker,
  quickCheckInWorker,
} from '../electron/db/maintenance.ts';
import { startCheckpointer } from '../electron/db/checkpoint.ts';
import { Archive } from '../electron/manager/archive.ts';
import { BackOfficeOrders } from '../electron/manager/orders.ts';
import { buildReport } from '../electron/manager/reports.ts';
import { warmReportDays } from '../electron/manager/report-days.ts';
import { SyncEngine } from '../electron/outbox/engine.ts';
import { OrderStore } from '../electron/orders/store.ts';
import { recordFiscalized } from '../electron/goods/ledger.ts';
import { TaxRatesCache } from '../electron/sales/tax-rates.ts';
import { buildHistory } from '../test/support/history.ts';
import { signInHost, startHostProcess } from '../test/support/host-process.ts';
import { saleInput } from '../test/support/rig.ts';
import { MANAGER_PIN } from '../test/support/session.ts';
import { benchLine, percentile } from './format.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.BENCH_ORDERS ?? 300_000);
const DAY = 86_400_000;
const YEARS = 3;
/** The till's history ends yesterday evening: the bench's "today" is a new day (backup due). */
const END = Date.UTC(2026, 10, 22, 19, 0, 0);
const START = END - YEARS * 365 * DAY;
const QUERY_LIMIT_MS = 50;

// The schema version is part of the name: a till built by an older schema is built again.
const cacheDir = path.join(HERE, 'results', `history-${N}-v${MIGRATIONS.length}`);
const cached = path.join(cacheDir, 'kasa.sqlite');
const marker = path.join(cacheDir, 'built.json');

if (!fs.existsSync(marker)) {
  fs.rmSync(cacheDir, { recursive: true, force: true });
  fs.mkdirSync(cacheDir, { recursive: true });
  const db = openDatabase(cached);
  // Building is not what is measured: commits need not reach the disk one by one here.
  db.pragma('synchronous = OFF');
  const t0 = performance.now();
  await buildHistory(db, {
    orders: N,
    start: START,
    end: END,
    queuedEvery: 10_000,
    onProgress: (i) => {
      if (i % 20_480 === 0)
        process.stderr.write(`history: built ${i}/${N} orders (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
    },
  });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  db.close();
  fs.writeFileSync(
    marker,
    JSON.stringify({ orders: N, builtIn: Math.round(performance.now() - t0), at: new Date().toISOString() }),
  );
}
const dbBytes = fs.statSync(cached).size;
process.stderr.write(`history: ${N} orders, ${(dbBytes / 2 ** 30).toFixed(2)} GiB (${cached})\n`);

/** A fresh data directory holding a copy of the built till (no backups yet: today's is due). */
function copyTill(): string {
  const dir = fs.mkdtempSync(path.join(cacheDir, 'run-'));
  execFileSync('cp', ['--reflink=auto', cached, path.join(dir, 'kasa.sqlite')]);
  return dir;
}

/** Drops the OS page cache; false when not permitted (not root, a container). */
function dropCaches(): boolean {
  try {
    execFileSync('sync');
    fs.writeFileSync('/proc/sys/vm/drop_caches', '3');
    return true;
  } catch {
    return false;
  }
}

const lines: string[] = [];
const out = (l: string): void => {
  lines.push(l);
  console.log(l);
};

// --- cold start: the host process on the 3-year till, page cache dropped, backup due -----------------
{
  const dir = copyTill();
  try {
    // A till in its third year had its first-run PIN changed long ago: do that once, on the copy, before
    // the measured start, so the measured sign-in is what a morning's is (one login).
    const first = await startHostProcess({ dataDir: dir });
    try {
      await signInHost(first);
    } finally {
      await first.stop();
    }
    const cold = dropCaches();
    const t0 = performance.now();
    const host = await startHostProcess({ dataDir: dir });
    try {
      const info = await host.call('app.info');
      const answered = performance.now() - t0;
      if (!info.body.ok) throw new Error(`app.info failed: ${JSON.stringify(info.body)}`);
      const status = await host.call('sync.status');
      if (!status.body.ok) throw new Error(`sync.status failed: ${JSON.stringify(status.body)}`);
      out(
        benchLine('history', cold ? 'cold_start_first_answer_s' : 'warm_start_first_answer_s', answered / 1000, 2, 's'),
      );
      // Ready for sale: the manager logs in and the first sale is committed, while quick_check
      // and the backup run in the background.
      await signInHost(host, MANAGER_PIN, false);
      const sale = await host.call('sales.checkout', saleInput(1, 80));
      if (!sale.body.ok) throw new Error(`first sale failed: ${JSON.stringify(sale.body)}`);
      out(
        benchLine(
          'history',
          cold ? 'cold_start_first_sale_s' : 'warm_start_first_sale_s',
          (performance.now() - t0) / 1000,
          2,
          's',
        ),
      );
      if (!cold)
        process.stderr.write('history: page cache NOT dropped (not permitted here): the start figure is warm\n');
    } finally {
      await host.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// --- queries a person waits on ------------------------------------------------------------------------
{
  const dir = copyTill();
  const db = openDatabase(path.join(dir, 'kasa.sqlite'));
  try {
    const store = new OrderStore(db, { onFiscalized: recordFiscalized });
    const taxRates = new TaxRatesCache(db, () => END);
    const archive = new Archive(store, () => {
      throw new Error('offline: the bench reads the local archive');
    });
    // A sale from the first year (every 10,000th order stays queued: this one is fiscalized).
    const old = store.get(Math.floor(N / 3) + 1);
    if (!old?.invoice_number) throw new Error(`order ${Math.floor(N / 3) + 1} of the built till is not fiscalized`);
    const lastDay = new Date(END);
    lastDay.setUTCHours(0, 0, 0, 0);
    const month = new Date(END - 30 * DAY).toISOString();
    const numberPrefix = old.order_number.split('-').slice(0, 2).join('-'); // that till's day
    const orders = new BackOfficeOrders({
      store,
      engine: new SyncEngine({ store, client: () => null }),
      taxRates,
      client: () => {
        throw new Error('offline: the bench reads the local history');
      },
      terminalId: () => 'BENCH',
      onlineBudgetMs: () => 0,
      now: () => END,
    });
    const queries: [string, () => unknown][] = [
      // orders_created (008): reads only that day's rows (~N / 1095 of them).
      [
        'end_of_day_report',
        () => buildReport(db, taxRates, { from: lastDay.toISOString(), to: new Date(END + 1).toISOString() }, END),
      ],
      // a year: 364 stored days (012) and the orders of two partial days.
      [
        'report_one_year',
        () =>
          buildReport(
            db,
            taxRates,
            { from: new Date(END - 365 * DAY).toISOString(), to: new Date(END + 1).toISOString() },
            END,
          ),
      ],
      // the UNIQUE order-number index: one probe.
      ['archive_order_number_exact', () => archive.local({ orderNumber: old.order_number })],
      // the same index, a range walked backwards for one page; the count stops at COUNT_CAP.
      ['archive_order_number_prefix', () => archive.local({ orderNumber: numberPrefix })],
      // orders_invoice (001): one probe.
      ['archive_invoice_number', () => archive.local({ invoiceNumber: old.invoice_number as string })],
      // orders_created: one day's range, counted and paged.
      ['archive_day', () => archive.local({ startDate: lastDay.toISOString(), endDate: new Date(END).toISOString() })],
      // orders_created: a month's range; the count is bounded by COUNT_CAP.
      ['archive_month', () => archive.local({ startDate: month, endDate: new Date(END).toISOString() })],
      // order_payments (008): newest ids of that type, one page; count bounded.
      ['archive_payment_type', () => archive.local({ paymentType: 'voucher' })],
      // orders_state (001): the parked orders only.
      ['needs_attention_list', () => store.list('needs_attention', 50, 0)],
      // the refund screen's recent orders: the primary key walked back one page; the count stops at COUNT_CAP.
      ['recent_orders_list', () => store.list(undefined, 30, 0)],
      // the refund screen on a two-year-old sale: its row, then refunds already made of it (011: probes).
      ['refund_source_old_sale', () => orders.refundSource({ orderId: old.id })],
      // the advances screen: the partial indexes of advances and final receipts only (011).
      ['open_advances_list', () => orders.openAdvances()],
      // the outbox table (only unsent orders) and orders_state for the oldest queued one.
      ['sync_status', () => store.counts()],
    ];
    // What the till does a minute after start, in the background: the totals of every closed day stored.
    const warm0 = performance.now();
    const warmed = await warmReportDays(db, END);
    out(benchLine('history', 'report_days_background_s', (performance.now() - warm0) / 1000, 60, 's'));
    process.stderr.write(`history: ${warmed} closed days' report totals stored\n`);
    dropCaches();
    for (const [name, run] of queries) {
      let t = performance.now();
      await run();
      const first = performance.now() - t;
      const times: number[] = [];
      for (let i = 0; i < 15; i++) {
        t = performance.now();
        await run();
        times.push(performance.now() - t);
      }
      out(benchLine('history', `${name}_ms`, percentile(times, 50), QUERY_LIMIT_MS, 'ms'));
      out(benchLine('history', `${name}_first_cold_ms`, first, QUERY_LIMIT_MS, 'ms'));
    }

    // --- background maintenance beside sales ------------------------------------------------------------
    const check = await quickCheckInWorker(db.name);
    if (!check.ok) throw new Error(`quick_check failed: ${check.problems.join('; ')}`);
    out(benchLine('history', 'quick_check_background_s', check.ms / 1000, 60, 's'));
    let clock = END + DAY + 8 * 3_600_000;
    await buildHistory(db, { orders: 3, start: clock, end: clock + 2000, terminalId: 'BK' }); // warm-up
    clock += 3000;
    // The same sales with nothing in the background: what this machine (shared, loaded) gives anyway.
    const idle: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      await buildHistory(db, { orders: 1, start: clock, end: clock, terminalId: 'BK' });
      idle.push(performance.now() - t);
      clock += 1000;
    }
    out(benchLine('history', 'sale_without_backup_p99_ms', percentile(idle, 99), QUERY_LIMIT_MS, 'ms'));
    /** A backup (restore point) taken while sales go on (checkout + settle, synchronous=FULL): each sale's time. */
    const backupBesideSales = async (now: number) => {
      const t0 = performance.now();
      let done = false;
      const pending = backupInWorker(db, dir, { now }).finally(() => (done = true));
      const sales: number[] = [];
      while (!done) {
        const t = performance.now();
        await buildHistory(db, { orders: 1, start: clock, end: clock, terminalId: 'BK' });
        sales.push(performance.now() - t);
        clock += 1000;
        // A sale every 100 ms: ten times a busy shop's rush hour (the WAL grows by each while the copy runs).
        await new Promise((r) => setTimeout(r, Math.max(0, 100 - (performance.now() - t))));
      }
      const point = await pending;
      return { point, s: (performance.now() - t0) / 1000, sales };
    };
    /** A day of trading: 300 sales through the app's code paths, one after another. */
    const tradeOneDay = async (day: number) => {
      clock = END + day * DAY + 8 * 3_600_000;
      await buildHistory(db, { orders: 300, start: clock, end: clock + 10 * 3_600_000, terminalId: 'BK' });
      clock += 11 * 3_600_000;
    };
    const MiB = 2 ** 20;
    // As in the app: the idle checkpointer keeps the WAL small between backups (checkpoint.ts).
    const stopCheckpointer = startCheckpointer(db);
    // The first restore point: a full one (all pages, compressed), paced.
    const full = await backupBesideSales(END + DAY);
    if (full.point.point.kind !== 'full') throw new Error(`first point is ${full.point.point.kind}`);
    out(benchLine('history', 'backup_full_s', full.s, (2 * dbBytes) / BACKUP_BYTES_PER_SEC, 's'));
    out(benchLine('history', 'backup_full_MiB', full.point.bytes / MiB, dbBytes / MiB, 'MiB'));
    out(benchLine('history', 'sale_during_backup_p99_ms', percentile(full.sales, 99), QUERY_LIMIT_MS, 'ms'));
    process.stderr.write(`history: ${full.sales.length} sales committed while the full point was written\n`);
    // A day of trading, then the next point: an increment, the pages that day changed.
    await tradeOneDay(2);
    const inc = await backupBesideSales(END + 2 * DAY + 21 * 3_600_000);
    if (inc.point.point.kind !== 'incremental')
      throw new Error(`second point is ${inc.point.point.kind}: ${inc.point.point.reason}`);
    // Reading and hashing the whole file dominates: at most a second (the worker's start, the checkpoint)
    // plus twice what the read pace alone would take.
    out(benchLine('history', 'backup_increment_s', inc.s, 1 + (2 * dbBytes) / BACKUP_READ_BYTES_PER_SEC, 's'));
    out(benchLine('history', 'sale_during_increment_p99_ms', percentile(inc.sales, 99), QUERY_LIMIT_MS, 'ms'));
    process.stderr.write(
      `history: increment ${inc.point.point.changedPages}/${inc.point.point.pageCount} pages, WAL ${inc.point.point.walBytes} bytes, ${inc.sales.length} sales during it\n`,
    );
    // Bytes written per day of trading: the increment (limit: 5 % of the database).
    out(benchLine('history', 'backup_bytes_written_per_day_MiB', inc.point.bytes / MiB, (0.05 * dbBytes) / MiB, 'MiB'));
    // Five more days: the chain is a full point and six increments, the most a chain holds; all of them kept.
    for (let day = 3; day <= 7; day++) {
      await tradeOneDay(day);
      const p = await backupInWorker(db, dir, { now: END + day * DAY + 21 * 3_600_000 });
      if (p.point.kind !== 'incremental') throw new Error(`point of day ${day} is ${p.point.kind}: ${p.point.reason}`);
    }
    const kept = listBackups(dir).filter((b) => b.kind === 'daily');
    if (kept.length !== 7) throw new Error(`${kept.length} points kept, not 7`);
    out(
      benchLine(
        'history',
        'backup_disk_all_kept_MiB',
        kept.reduce((sum, b) => sum + b.bytes, 0) / MiB,
        dbBytes / MiB,
        'MiB',
      ),
    );
    // Restoring the newest point: its chain rebuilt (7 files verified and applied), WAL folded, integrity_check.
    const newest = kept[0]?.name as string;
    const tr = performance.now();
    requestRestore(dir, newest);
    out(benchLine('history', 'restore_s', (performance.now() - tr) / 1000, 60, 's'));
    cancelRestore(dir);
    stopCheckpointer();
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
process.stderr.write(`history: ${lines.length} figures at ${N} orders\n`);
