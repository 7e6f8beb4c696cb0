/**
 * Years of history on real SQLite files: start-up does not wait for the integrity check or the backup (they run
 * in a worker), a damaged database is still detected and keeps good backups, a backup taken while sales
 * continue restores to a database holding every acknowledged order, the WAL is bounded when the
 * checkpointer stops, and every history query is an index range (query plans, not timings).
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../electron/db/open.ts';
import { applyPendingRestore, backupDir, listBackups, requestRestore } from '../../electron/db/backup.ts';
import { backupInWorker, startMaintenance } from '../../electron/db/maintenance.ts';
import { WAL_FALLBACK_PAGES } from '../../electron/db/checkpoint.ts';
import { createCore, type Core } from '../../electron/core.ts';
import { Archive } from '../../electron/manager/archive.ts';
import { COUNT_CAP, OrderStore } from '../../electron/orders/store.ts';
import { buildReport } from '../../electron/manager/reports.ts';
import {
  OPEN_ADVANCES_SQL,
  REFUNDED_ID_SQL,
  REFUNDED_INVOICE_SQL,
  REFUNDS_OF_ID_SQL,
  REFUNDS_OF_INVOICE_SQL,
  taxGroupChangedIds,
} from '../../electron/orders/queries.ts';
import { TaxRatesCache } from '../../electron/sales/tax-rates.ts';
import { buildHistory, sellWhile } from '../support/history.ts';
import { tempDatabases } from '../support/temp-db.ts';
import { saleInput } from '../support/rig.ts';
import { signIn } from '../support/session.ts';
import type { Result } from '../../shared/contract/index.ts';
import { MIGRATIONS } from '../../electron/db/migrations/index.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 2, 8, 0, 0);
const open: Db[] = [];
const cores: Core[] = [];
const { tmp, db, lines, logger, cleanup } = tempDatabases('kasa-history-');
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cores.splice(0)) await c.close();
  open.splice(0).forEach((d) => d.open && d.close());
  cleanup();
});

/** A till's database in a folder of its own with the migrations before the one named `name`: folder and database. */
function databaseBefore(name: string): { dir: string; old: Db } {
  const dir = tmp();
  const at = MIGRATIONS.findIndex((m) => m.name === name);
  return { dir, old: openDatabase(path.join(dir, 'kasa.sqlite'), MIGRATIONS.slice(0, at)) };
}

describe('start-up does not wait for history', () => {
  it('the core answers and sells while a deliberately slow integrity check runs; the check and backup then complete', async () => {
    const dir = tmp();
    // A till with history already on disk.
    const seed = db(dir);
    await buildHistory(seed, { orders: 400, start: T0, end: T0 + 30 * DAY });
    seed.close();
    const core = await createCore({
      dataDir: dir,
      transport: 'host',
      env: { KASA_LANG: 'en' },
      logger: { ...logger, redact() {} } as unknown as Core['logger'],
      maintenance: { delayMs: 0, slowCheckMs: 4000 },
    });
    cores.push(core);
    // createCore returned; the check has started in the worker (it logs that first) and has not finished.
    while (!lines.some((l) => l.includes('quick_check started'))) await new Promise((r) => setImmediate(r));
    await signIn(core); // the manager past the first-run PIN
    const info = (await core.dispatch('app.info', {})) as Result<{ version: string }>;
    expect(info).toMatchObject({ ok: true });
    const sale = (await core.dispatch('sales.checkout', saleInput(1, 80))) as Result<{ orderId: number }>;
    expect(sale).toMatchObject({ ok: true });
    const status = (await core.dispatch('sync.status', {})) as Result<unknown>;
    expect(status).toMatchObject({ ok: true });
    // All of that happened while the (4 s) check was still running in the worker.
    expect(lines.some((l) => l.includes('quick_check ok') || l.includes('daily backup'))).toBe(false);
    // Then the check passes and the day's backup is taken, still in the background.
    while (!lines.some((l) => l.includes('daily backup'))) await new Promise((r) => setTimeout(r, 50));
    expect(lines.filter((l) => l.includes('quick_check ok'))).toHaveLength(1);
    expect(listBackups(dir).filter((b) => b.kind === 'daily')).toHaveLength(1);
  });

  it('startMaintenance: the main thread commits sales while the check sleeps in the worker, then check and backup finish', async () => {
    const dir = tmp();
    const d = db(dir);
    await buildHistory(d, { orders: 300, start: T0, end: T0 + 10 * DAY });
    const m = startMaintenance(d, dir, logger, { delayMs: 0, slowCheckMs: 1500, now: () => T0 + 11 * DAY });
    const more = await buildHistory(d, {
      orders: 50,
      start: T0 + 11 * DAY,
      end: T0 + 11 * DAY + 3_600_000,
      terminalId: 'T2',
    });
    expect(more).toHaveLength(50);
    expect(m.report().integrity.pending).toBe(true);
    const r = await m.firstRun;
    expect(r.integrity).toMatchObject({ ok: true, problems: [] });
    expect(r.integrity.pending).toBeUndefined();
    expect(r.backup?.name).toMatch(/^kasa-.*\.kbak$/);
    // It restores: rebuilt, integrity_check and schema checked, staged.
    expect(requestRestore(dir, r.backup?.name as string)).toMatchObject({ restartRequired: true });
    await m.stop();
  });

  it('a damaged database is still detected in the background, reported, and no backup replaces the good one', async () => {
    const dir = tmp();
    const d = db(dir);
    await buildHistory(d, { orders: 300, start: T0, end: T0 + 10 * DAY });
    await backupInWorker(d, dir, { now: T0 });
    d.pragma('wal_checkpoint(TRUNCATE)');
    d.close();
    const file = path.join(dir, 'kasa.sqlite');
    const fd = fs.openSync(file, 'r+');
    const size = fs.fstatSync(fd).size;
    for (let off = 4096 * 2; off < size - 4096; off += 4096 * 3)
      fs.writeSync(fd, Buffer.alloc(512, 0xa5), 0, 512, off + 100);
    fs.closeSync(fd);
    const broken = new Database(file);
    open.push(broken);
    const m = startMaintenance(broken, dir, logger, { delayMs: 0, now: () => T0 + DAY });
    const r = await m.firstRun;
    await m.stop();
    expect(r.integrity.ok).toBe(false);
    expect(r.integrity.problems.length).toBeGreaterThan(0);
    expect(m.report().integrity.ok).toBe(false);
    expect(r.backup).toBeNull();
    expect(lines.some((l) => l.startsWith('E database quick_check FAILED'))).toBe(true);
    expect(listBackups(dir)).toHaveLength(1);
  });
});

describe('backups that scale', () => {
  it('a backup taken while sales continue restores to a database holding every acknowledged order', async () => {
    const dir = tmp();
    const d = db(dir);
    d.pragma('synchronous = OFF'); // building the history is not what is tested
    const before = await buildHistory(d, { orders: 600, start: T0, end: T0 + 60 * DAY });
    d.pragma('wal_checkpoint(TRUNCATE)');
    d.pragma('synchronous = FULL');
    const store = new OrderStore(d);
    const acknowledged = new Set(before.map((id) => store.get(id)?.order_number as string));
    // Paced slowly so that many sales land in the WAL while the file is being copied (the WAL limit has
    // its own test below: here it must not be what ends the backup, whatever this machine's speed).
    const backup = backupInWorker(d, dir, {
      now: T0 + 61 * DAY,
      bytesPerSec: 4 * 1024 * 1024,
      walLimit: 2 ** 40,
    });
    // Sales go on while the worker copies: five sales every 20 ms.
    const { result: b, sold: during } = await sellWhile(d, backup, { orders: 5, start: T0 + 61 * DAY, pauseMs: 20 });
    expect(during).toBeGreaterThan(0);
    // Checkpoints were paused for the copy only: SQLite's fallback bound is back.
    expect(d.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_FALLBACK_PAGES);
    requestRestore(dir, b.name, { logger });
    d.close();
    expect(applyPendingRestore(dir, logger)?.restored).toBe(b.name);
    const restored = new Database(path.join(dir, 'kasa.sqlite'));
    open.push(restored);
    expect(restored.pragma('integrity_check', { simple: true })).toBe('ok');
    const numbers = new Set(
      (restored.prepare('SELECT order_number FROM orders').all() as { order_number: string }[]).map(
        (r) => r.order_number,
      ),
    );
    for (const n of acknowledged) expect(numbers.has(n)).toBe(true);
    // The snapshot is consistent: every order in it has its outbox row or its receipt, never half of one.
    const torn = restored
      .prepare(
        "SELECT count(*) AS n FROM orders o WHERE o.state = 'queued' AND NOT EXISTS (SELECT 1 FROM outbox b WHERE b.order_id = o.id)",
      )
      .get() as { n: number };
    expect(torn.n).toBe(0);
  }, 120_000); // a slow, shared disk: two durable commits per sale while the copy runs

  it('daily backups fit a space budget: the oldest go first, the newest always stays', async () => {
    const dir = tmp();
    const d = db(dir);
    await buildHistory(d, { orders: 200, start: T0, end: T0 + DAY });
    // Restore points (restore-points.test.ts has the chains in detail): a full point, six increments, then
    // the next week's chain; the first chain goes once no kept point is built on it.
    for (let i = 0; i < 14; i++) await backupInWorker(d, dir, { now: T0 + i * DAY });
    const daily = () => listBackups(dir).filter((b) => b.kind === 'daily');
    expect(daily()).toHaveLength(7); // never more than 7
    expect(daily().map((b) => b.chain?.type)).toEqual([...Array(6).fill('incremental'), 'full']);
    // A budget smaller than one point: only the newest (a full point: its chain had 6 increments) stays.
    await backupInWorker(d, dir, { now: T0 + 20 * DAY, maxBytes: 1 });
    expect(listBackups(dir).map((b) => b.name)).toEqual([expect.stringContaining('20240122')]);
  });
});

describe('WAL checkpoints off the commit path', () => {
  it('without the checkpointer the WAL stops growing at the fallback bound', () => {
    const dir = tmp();
    const d = db(dir);
    d.exec('CREATE TABLE blob_rows (b BLOB)');
    const insert = d.prepare('INSERT INTO blob_rows (b) VALUES (?)');
    const chunk = Buffer.alloc(1024 * 1024, 1);
    const pageSize = d.pragma('page_size', { simple: true }) as number;
    // Write three times the bound; nobody checkpoints but SQLite's fallback.
    const total = Math.ceil((3 * WAL_FALLBACK_PAGES * pageSize) / chunk.length);
    for (let i = 0; i < total; i++) insert.run(chunk);
    const wal = fs.statSync(path.join(dir, 'kasa.sqlite-wal')).size;
    expect(wal).toBeLessThan(1.2 * WAL_FALLBACK_PAGES * pageSize + 2 * chunk.length);
  });

  it('a backup gives up rather than let the WAL grow past its limit while checkpoints are paused', async () => {
    const dir = tmp();
    const d = db(dir);
    d.pragma('synchronous = OFF'); // sales as fast as the machine goes: the WAL must outgrow the limit
    await buildHistory(d, { orders: 300, start: T0, end: T0 + 10 * DAY });
    const limit = 2 * 1024 * 1024;
    let settled = false;
    // Paced so slowly that the copy cannot finish before the sales below fill the WAL.
    const backup = backupInWorker(d, dir, { now: T0 + 11 * DAY, bytesPerSec: 64 * 1024, walLimit: limit });
    const outcome = backup.then(
      () => 'finished',
      (err: unknown) => String(err),
    );
    void outcome.finally(() => (settled = true));
    let n = 0;
    while (!settled) {
      await buildHistory(d, {
        orders: 5,
        start: T0 + 11 * DAY + n * 1000,
        end: T0 + 11 * DAY + n * 1000 + 4000,
        terminalId: 'T2',
      });
      n += 5;
      await new Promise((r) => setImmediate(r));
    }
    expect(await outcome).toMatch(/WAL grew past 2097152 bytes/);
    // Checkpoints are back, nothing half-written is left, and the WAL folds in again.
    expect(d.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_FALLBACK_PAGES);
    expect(fs.readdirSync(backupDir(dir))).toEqual([]);
    const r = (d.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[])[0];
    expect(r).toMatchObject({ busy: 0 });
    expect(r?.checkpointed).toBe(r?.log);
  });
  // The checkpointer itself: test/electron/checkpoint.test.ts.
});

describe('queries that stay flat', () => {
  it('every query a person waits on reads an index range, never the whole orders table (the plans of the SQL the code runs)', async () => {
    const dir = tmp();
    const d = db(dir);
    await buildHistory(d, { orders: 400, start: T0, end: T0 + 40 * DAY, queuedEvery: 50 });
    d.exec('ANALYZE');
    // Every statement the code under test runs, with its arguments, recorded as it runs.
    const ran: [string, unknown[]][] = [];
    const prepare = d.prepare.bind(d);
    vi.spyOn(d, 'prepare').mockImplementation(((sql: string) => {
      const st = prepare(sql);
      return new Proxy(st, {
        get(target, prop) {
          const v: unknown = Reflect.get(target, prop, target);
          if (typeof v !== 'function') return v;
          if (prop === 'all' || prop === 'get' || prop === 'iterate')
            return (...args: unknown[]) => {
              ran.push([sql, args]);
              return (v as (...a: unknown[]) => unknown).apply(target, args);
            };
          return (v as (...a: unknown[]) => unknown).bind(target);
        },
      });
    }) as typeof d.prepare);
    const store = new OrderStore(d);
    const archive = new Archive(store, () => {
      throw new Error('offline');
    });
    const taxRates = new TaxRatesCache(d, () => T0 + 41 * DAY);
    const some = store.get(201);
    if (!some?.invoice_number) throw new Error('order 201 is not fiscalized');
    const day = { from: new Date(T0 + 3 * DAY).toISOString(), to: new Date(T0 + 4 * DAY).toISOString() };
    const cases: [string, () => unknown][] = [
      ['end-of-day report', () => buildReport(d, taxRates, day, T0 + 4 * DAY)],
      ['shift report (one cashier)', () => buildReport(d, taxRates, { ...day, cashier: 'Ана' }, T0 + 4 * DAY)],
      ['order number exact', () => archive.local({ orderNumber: some.order_number })],
      ['order number prefix', () => archive.local({ orderNumber: some.order_number.slice(0, 11) })],
      ['invoice number', () => archive.local({ invoiceNumber: some.invoice_number as string })],
      ['day', () => archive.local({ startDate: day.from, endDate: day.to })],
      [
        'date range and invoice type',
        () =>
          archive.local({ startDate: day.from, endDate: new Date(T0 + 20 * DAY).toISOString(), invoiceType: 'normal' }),
      ],
      ['payment type', () => archive.local({ paymentType: 'voucher' })],
      ['needs-attention list', () => store.list('needs_attention', 50, 0)],
      ['sync.status', () => store.counts()],
      ['orders issued under another tax group (#21)', () => taxGroupChangedIds(d, 50, 0)],
    ];
    for (const [name, run] of cases) {
      run();
      expect(ran.length, name).toBeGreaterThan(0);
      for (const [sql, args] of ran.splice(0)) {
        const p = (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[])
          .map((r) => r.detail)
          .join(' | ');
        // A SCAN of a table (or a full walk of one of its indexes) grows with history; SEARCH is a range.
        // The outbox holds only orders not yet fiscalized: its size is the queue's, not the history's.
        // tax_rates_announced holds the few groups the gateway announced ahead, and the partial index
        // orders_tax_group_changed only the orders issued under another group: neither grows with history.
        const scans = p
          .split(' | ')
          .filter((l) =>
            /^SCAN (?!CONSTANT ROW|\(subquery|json_each|outbox\b|tax_rates_announced\b|orders USING (COVERING )?INDEX orders_tax_group_changed\b)/.test(
              l,
            ),
          );
        expect(scans, `${name}: ${sql} → ${p}`).toEqual([]);
        expect(p, `${name}: ${sql}`).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
      }
    }
  });

  it('the recent-orders list counts at most COUNT_CAP past its page, not every order of the till', async () => {
    const dir = tmp();
    const d = db(dir);
    await buildHistory(d, { orders: COUNT_CAP + 60, start: T0, end: T0 + 40 * DAY });
    const store = new OrderStore(d);
    const recent = store.list(undefined, 30, 0);
    expect(recent.total).toBe(COUNT_CAP); // "at least 1,000": the rest of the history is not walked
    expect(recent.rows.map((r) => r.id)).toEqual(Array.from({ length: 30 }, (_, i) => COUNT_CAP + 60 - i));
    expect(store.list(undefined, 30, 40).total).toBe(COUNT_CAP + 40);
    expect(store.list('fiscalized', 10, 0).rows).toHaveLength(10);
  });

  it('archive search: exact and prefix order number, invoice number, day and payment type on the indexed paths', async () => {
    const dir = tmp();
    const d = db(dir);
    await buildHistory(d, { orders: 120, start: T0, end: T0 + 3 * DAY });
    const store = new OrderStore(d);
    const archive = new Archive(store, () => {
      throw new Error('offline');
    });
    const first = store.get(1);
    expect(first).toBeDefined();
    const exact = archive.local({ orderNumber: first?.order_number });
    expect(exact.rows.map((r) => r.orderNumber)).toEqual([first?.order_number]);
    const prefix = archive.local({ orderNumber: 'T1-20240102', limit: 500 });
    const all = d.prepare("SELECT count(*) AS n FROM orders WHERE order_number LIKE 'T1-20240102-%'").get() as {
      n: number;
    };
    expect(prefix.total).toBe(all.n);
    expect(prefix.rows.every((r) => r.orderNumber.startsWith('T1-20240102-'))).toBe(true);
    expect(archive.local({ invoiceNumber: first?.invoice_number as string }).rows[0]?.orderId).toBe(1);
    const card = archive.local({ paymentType: 'card', limit: 500 });
    expect(card.total).toBe(36); // 3 in every 10 orders
    expect(card.rows.every((r) => r.paymentTypes.includes('card'))).toBe(true);
    const dayRows = archive.local({
      startDate: new Date(T0 + DAY).toISOString(),
      endDate: new Date(T0 + 2 * DAY - 1).toISOString(),
      limit: 500,
    });
    expect(dayRows.total).toBe(40);
    expect(dayRows.rows[0]?.createdAt && dayRows.rows[0].createdAt > (dayRows.rows[39]?.createdAt ?? '')).toBe(true);
  });

  it('migration 010: refunds of an original and open advances are index probes, also for orders from before it', () => {
    const { dir, old } = databaseBefore('history_lookups');
    const insert = old.prepare(
      `INSERT INTO orders (order_number, kind, invoice_type, transaction_type, state, created_at, total_para, data)
       VALUES (?, ?, ?, ?, 'fiscalized', '2024-01-01T00:00:00.000Z', 100, ?)`,
    );
    const lines = { lines: [], payments: [{ type: 'cash', amountPara: 100 }] };
    insert.run('S-1', 'sale', 'normal', 'sale', JSON.stringify(lines)); // 1: a sale
    insert.run(
      'R-1',
      'refund',
      'normal',
      'refund',
      JSON.stringify({ ...lines, refundOf: { orderId: 1, invoiceNumber: 'INV-1' } }),
    ); // 2
    insert.run(
      'R-2',
      'refund_full',
      'normal',
      'refund',
      JSON.stringify({ ...lines, refundOf: { invoiceNumber: 'INV-1' } }),
    ); // 3: from another till
    insert.run('A-1', 'sale', 'advance', 'sale', JSON.stringify(lines)); // 4: an advance, closed by 6
    insert.run('A-2', 'sale', 'advance', 'sale', JSON.stringify(lines)); // 5: an open advance
    insert.run('F-1', 'finalize', 'normal', 'sale', JSON.stringify({ ...lines, advanceOf: { orderId: 4 } })); // 6
    old.close();
    const d = db(dir);
    const plan = (sql: string, ...args: unknown[]): string =>
      (d.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan(REFUNDS_OF_ID_SQL, 1)).toMatch(/^SEARCH orders USING INDEX orders_refund_of_id/);
    expect(plan(REFUNDS_OF_INVOICE_SQL, 'INV-1')).toMatch(/^SEARCH orders USING INDEX orders_refund_of_invoice/);
    // Only the advance and final-receipt indexes are walked: rows of those kinds, not the history.
    expect(
      plan(OPEN_ADVANCES_SQL)
        .split(' | ')
        .filter((l) => l.startsWith('SCAN'))
        .sort(),
    ).toEqual([
      'SCAN f USING INDEX orders_finalize_of',
      'SCAN n USING INDEX orders_advances',
      'SCAN o USING INDEX orders_advances',
    ]);
    const ids = (sql: string, ...args: unknown[]): number[] =>
      (d.prepare(sql).all(...args) as { id: number }[]).map((r) => r.id);
    expect(ids(REFUNDS_OF_ID_SQL, 1)).toEqual([2]);
    expect(ids(REFUNDS_OF_INVOICE_SQL, 'INV-1')).toEqual([2, 3]);
    expect(ids(OPEN_ADVANCES_SQL)).toEqual([5]);
    // Whether a candidate was refunded is two probes with bound values, never a walk of the refunds.
    expect(plan(REFUNDED_ID_SQL, 5)).toMatch(/^SEARCH r USING INDEX orders_refund_of_id/);
    expect(plan(REFUNDED_INVOICE_SQL, 'INV-5')).toMatch(/^SEARCH r USING INDEX orders_refund_of_invoice/);
  });

  it('migration 007 fills order_payments for orders that existed before it, and its trigger keeps it for new ones', () => {
    const { dir, old } = databaseBefore('history');
    old
      .prepare(
        `INSERT INTO orders (order_number, kind, invoice_type, transaction_type, state, created_at, total_para, data)
       VALUES ('T1-1', 'sale', 'normal', 'sale', 'fiscalized', '2024-01-01T00:00:00.000Z', 100, ?)`,
      )
      .run(
        JSON.stringify({
          lines: [],
          payments: [
            { type: 'cash', amountPara: 50 },
            { type: 'card', amountPara: 50 },
          ],
        }),
      );
    old.close();
    const d = db(dir);
    expect(d.prepare('SELECT type FROM order_payments ORDER BY type').all()).toEqual([
      { type: 'card' },
      { type: 'cash' },
    ]);
    d.prepare('UPDATE orders SET data = ? WHERE id = 1').run(
      JSON.stringify({ lines: [], payments: [{ type: 'voucher', amountPara: 100 }] }),
    );
    expect(d.prepare('SELECT type FROM order_payments').all()).toEqual([{ type: 'voucher' }]);
  });
});
