/**
 * checkout-commit: the latency of `sales.checkout` up to the durable commit (price, one SQLite
 * transaction with order + frozen request + outbox row, synchronous=FULL), with the network out of the
 * picture. The limit is one fsync of a small write on the same disk, measured in the same run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../electron/db/open.ts';
import { startCheckpointer, WAL_PREALLOC_BYTES } from '../electron/db/checkpoint.ts';
import { SyncEngine } from '../electron/outbox/engine.ts';
import { OrderStore } from '../electron/orders/store.ts';
import { recordFiscalized } from '../electron/goods/ledger.ts';
import { SalesService } from '../electron/sales/service.ts';
import { TaxRatesCache } from '../electron/sales/tax-rates.ts';
import { benchLine, percentile } from './format.ts';

const N = Number(process.env.BENCH_N ?? 2000);
const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kasa-bench-commit-'));
try {
  const db = openDatabase(path.join(dir, 'kasa.sqlite'));
  db.prepare(
    "INSERT INTO tax_rates (id, group_id, valid_from, body, fetched_at) VALUES (1, 1, '2024-01-01', ?, '2026-01-01')",
  ).run(JSON.stringify([{ label: 'A', rate: 10, categoryName: 'VAT', categoryType: 0 }]));
  // As the core runs it: WAL checkpoints on an idle timer between commits, never inside one.
  const stopCheckpointer = startCheckpointer(db);
  const store = new OrderStore(db, { onFiscalized: recordFiscalized });
  const engine = new SyncEngine({ store, client: () => null });
  const sales = new SalesService({
    store,
    engine,
    taxRates: new TaxRatesCache(db),
    terminalId: () => 'BENCH',
    trainingMode: () => false,
    onlineBudgetMs: () => 0,
  });
  const input = {
    lines: Array.from({ length: 8 }, (_, i) => ({
      name: `Артикал ${i}`,
      quantity: 1.5,
      unitPrice: 99.9,
      labels: ['A'],
    })),
    payments: [{ type: 'cash' as const, amount: 2000 }],
  };
  for (let i = 0; i < 20; i++) await sales.checkout(input); // warm-up
  // A till some seconds after start: the checkpointer has written its WAL ahead (checkpoint.ts, growWal),
  // so commits overwrite WAL blocks instead of growing the file. Sales go on meanwhile, one every 20 ms.
  const walFile = path.join(dir, 'kasa.sqlite-wal');
  const grown = Date.now();
  while (
    (fs.statSync(walFile, { throwIfNoEntry: false })?.size ?? 0) < WAL_PREALLOC_BYTES &&
    Date.now() - grown < 60_000
  ) {
    await sales.checkout(input);
    await new Promise<void>((resolve) => setTimeout(resolve, 20));
  }
  // Side by side, interleaved so both see the same disk and load: one fsync (a 4 KiB page written in
  // place and fdatasync'd, the least a durable commit must do) and one checkout.
  const fd = fs.openSync(path.join(dir, 'fsync.bin'), 'w');
  const page = Buffer.alloc(4096, 7);
  fs.writeSync(fd, page, 0, page.length, 0);
  fs.fsyncSync(fd);
  const fsyncs: number[] = [];
  const commits: number[] = [];
  // Also SQLite's own least commit (one small row, same database, same pragmas), for reference.
  const minimal: number[] = [];
  const ping = db.prepare("INSERT INTO audit_log (at, action) VALUES (?, 'bench')");
  for (let i = 0; i < N; i++) {
    let t = process.hrtime.bigint();
    fs.writeSync(fd, page, 0, page.length, 0);
    fs.fdatasyncSync(fd);
    fsyncs.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    ping.run(String(i));
    minimal.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    await sales.checkout(input);
    commits.push(Number(process.hrtime.bigint() - t) / 1e6);
    // Between sales the event loop turns, as at a real counter: the idle checkpointer's timer may run here.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  fs.closeSync(fd);
  stopCheckpointer();
  db.close();
  console.log(benchLine('checkout-commit', 'p50', percentile(commits, 50), percentile(fsyncs, 50), 'ms'));
  console.log(benchLine('checkout-commit', 'p99', percentile(commits, 99), percentile(fsyncs, 99), 'ms'));
  // The product target: a sale is durable within 1 ms at p99, checkpoints never inside it.
  console.log(benchLine('checkout-commit', 'p99_target', percentile(commits, 99), 1, 'ms'));
  console.log(
    benchLine('checkout-commit', 'p50_vs_sqlite_min_commit', percentile(commits, 50), percentile(minimal, 50), 'ms'),
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
