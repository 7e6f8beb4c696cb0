/**
 * Restore points (backups that scale) on real SQLite files with the real maintenance worker:
 * a chain of a full point and increments taken while sales go on, each point restoring to a database that
 * passes integrity_check and holds every order acknowledged before its backup started; increments much
 * smaller than the full point; damaged, cut-short and dependent points refused by name; the manifest, a
 * killed worker, a shrinking file, pruning by chain, and the previous version's `.sqlite` backups.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../electron/db/open.ts';
import {
  backupDir,
  cancelRestore,
  listBackups,
  pruneBackups,
  requestRestore,
  type BackupInfo,
} from '../../electron/db/backup.ts';
import { backupInWorker } from '../../electron/db/maintenance.ts';
import { MANIFEST_FILE, planNextPoint } from '../../electron/db/restore-points.ts';
import { buildHistory, sellWhile } from '../support/history.ts';
import { tempDatabases } from '../support/temp-db.ts';
import { tempDirs } from '../support/temp-dirs.ts';
import { watchThreads } from '../support/threads.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 2, 3, 8, 0, 0);
const { tmp, db, logger, cleanup } = tempDatabases('kasa-points-');
const open: Database.Database[] = [];
afterEach(() => {
  open.splice(0).forEach((d) => d.open && d.close());
  cleanup();
});

const numbers = (d: Database.Database | Db): Set<string> =>
  new Set(
    (d.prepare('SELECT order_number FROM orders').all() as { order_number: string }[]).map((r) => r.order_number),
  );

/** Rebuilds and stages point `name` the manager's way, and opens the staged database (read-only). */
function restored(dir: string, name: string): Database.Database {
  expect(requestRestore(dir, name, { logger })).toEqual({ restartRequired: true, name });
  const copy = new Database(path.join(dir, 'restore', 'staged.sqlite'), { readonly: true, fileMustExist: true });
  open.push(copy);
  expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
  return copy;
}
const unstage = (dir: string): void => {
  open.splice(0).forEach((d) => d.close());
  cancelRestore(dir);
};

/**
 * A till with history (some months of it): increments are a small part of its full point, as on a real till. The
 * history is built once for the file (2,000 checkouts, about 2 CPU-seconds) and each till starts on a copy of it.
 */
const built = tempDirs('kasa-points-history-');
afterAll(built.cleanup);
let historyFile: Promise<string> | null = null;
async function tillWithHistory(): Promise<{ dir: string; d: Db }> {
  historyFile ??= (async () => {
    const file = built.file();
    const d = openDatabase(file);
    d.pragma('synchronous = OFF'); // building the history is not what is tested
    await buildHistory(d, { orders: 2000, start: T0 - 60 * DAY, end: T0 - DAY });
    d.pragma('wal_checkpoint(TRUNCATE)');
    d.close();
    return file;
  })();
  const dir = tmp();
  fs.copyFileSync(await historyFile, path.join(dir, 'kasa.sqlite'));
  const d = db(dir);
  d.pragma('synchronous = FULL');
  return { dir, d };
}

/** A day of trading: `n` sales through the app's checkout and settle, on day `day`. */
const trade = (d: Db, day: number, n: number, terminalId = 'T1'): Promise<number[]> =>
  buildHistory(d, { orders: n, start: T0 + day * DAY, end: T0 + day * DAY + 8 * 3_600_000, terminalId });

const daily = (dir: string): BackupInfo[] => listBackups(dir).filter((b) => b.kind === 'daily');
const file = (dir: string, name: string): string => path.join(backupDir(dir), name);

describe('restore points: a chain of a full point and increments', () => {
  it('each point restores to every order acknowledged before its backup started, also one taken while sales went on', async () => {
    const { dir, d } = await tillWithHistory();
    const acknowledged: Set<string>[] = [];
    const points: Awaited<ReturnType<typeof backupInWorker>>[] = [];
    for (let day = 1; day <= 4; day++) {
      await trade(d, day, 40);
      acknowledged.push(numbers(d));
      if (day !== 4) {
        points.push(await backupInWorker(d, dir, { now: T0 + day * DAY + 20 * 3_600_000 }));
        continue;
      }
      // Day 4: paced so slowly that sales commit while the worker reads the file and writes the point
      // (last: its WAL copy, a few MiB of frames, would otherwise count against the chain's size).
      const pending = backupInWorker(d, dir, {
        now: T0 + day * DAY + 20 * 3_600_000,
        bytesPerSec: 256 * 1024,
        readBytesPerSec: 2 * 1024 * 1024,
        walLimit: 2 ** 40,
      });
      const { result, sold: during } = await sellWhile(d, pending, {
        orders: 1,
        start: T0 + day * DAY + 21 * 3_600_000,
        pauseMs: 25,
      });
      expect(during).toBeGreaterThan(0);
      points.push(result);
    }
    expect(points.map((p) => p.point.kind)).toEqual(['full', 'incremental', 'incremental', 'incremental']);
    expect(points.map((p) => p.chain?.parent ?? null)).toEqual([
      null,
      points[0]?.name,
      points[1]?.name,
      points[2]?.name,
    ]);
    const full = points[0] as (typeof points)[number];
    // Only the pages a day of trading changed: far less than the full point (which is compressed itself).
    for (const inc of points.slice(1)) expect(inc.point.changedPages).toBeLessThan(full.point.pageCount / 10);
    for (const inc of points.slice(1, 3)) expect(inc.bytes).toBeLessThan(full.bytes / 8);
    expect(points[3]?.point.walBytes).toBeGreaterThan(0); // the sales made during that backup
    expect(full.bytes).toBeLessThan(fs.statSync(d.name).size / 2); // compressed
    points.forEach((p, i) => {
      const copy = restored(dir, p.name);
      const have = numbers(copy);
      for (const n of acknowledged[i] as Set<string>) expect(have.has(n), `${n} in ${p.name}`).toBe(true);
      // Consistent: no order without its outbox row or receipt.
      const torn = copy
        .prepare(
          "SELECT count(*) AS n FROM orders o WHERE o.state = 'queued' AND NOT EXISTS (SELECT 1 FROM outbox b WHERE b.order_id = o.id)",
        )
        .get() as { n: number };
      expect(torn.n).toBe(0);
      unstage(dir);
    });
    // The point taken during sales holds the sales its WAL copy caught, and none the till does not have.
    const live = numbers(d);
    const atDay4 = numbers(restored(dir, points[3]?.name as string));
    expect(atDay4.size).toBeGreaterThan((acknowledged[3] as Set<string>).size);
    for (const n of atDay4) expect(live.has(n)).toBe(true);
  }, 120_000);

  it('a damaged or cut-short point is refused by name, and so is every later point built on it; the next backup starts a new chain', async () => {
    const { dir, d } = await tillWithHistory();
    const p0 = await backupInWorker(d, dir, { now: T0 + DAY });
    await trade(d, 1, 30);
    const p1 = await backupInWorker(d, dir, { now: T0 + 2 * DAY });
    await trade(d, 2, 30);
    const p2 = await backupInWorker(d, dir, { now: T0 + 3 * DAY });
    // One flipped byte in the middle of p1.
    const fd = fs.openSync(file(dir, p1.name), 'r+');
    const mid = Math.floor(fs.fstatSync(fd).size / 2);
    const byte = Buffer.alloc(1);
    fs.readSync(fd, byte, 0, 1, mid);
    byte[0] = (byte[0] as number) ^ 0x01;
    fs.writeSync(fd, byte, 0, 1, mid);
    fs.closeSync(fd);
    expect(() => requestRestore(dir, p1.name, { logger })).toThrow(
      new RegExp(`${p1.name} cannot be restored: restore point ${p1.name} is damaged`),
    );
    expect(() => requestRestore(dir, p2.name, { logger })).toThrow(
      new RegExp(`${p2.name} cannot be restored: restore point ${p1.name} is damaged`),
    );
    expect(fs.existsSync(path.join(dir, 'restore', 'staged.sqlite'))).toBe(false);
    restored(dir, p0.name); // the full point before it is whole
    unstage(dir);
    // Cut short (a disk that filled up, a copy interrupted).
    fs.truncateSync(file(dir, p0.name), fs.statSync(file(dir, p0.name)).size - 100);
    expect(() => requestRestore(dir, p0.name, { logger })).toThrow(
      new RegExp(`restore point ${p0.name} is damaged: checksum mismatch`),
    );
    // The worker checks the chain before it builds on it: a new full point, which restores.
    await trade(d, 3, 10);
    const p3 = await backupInWorker(d, dir, { now: T0 + 4 * DAY });
    expect(p3.point.kind).toBe('full');
    expect(p3.point.reason).toMatch(/fails its checksum/);
    expect(numbers(restored(dir, p3.name))).toEqual(numbers(d));
  });

  it('a point whose chain is missing a file is refused naming the missing file', async () => {
    const dir = tmp();
    const d = db(dir);
    await trade(d, 0, 100);
    const p0 = await backupInWorker(d, dir, { now: T0 + DAY });
    await trade(d, 1, 10);
    const p1 = await backupInWorker(d, dir, { now: T0 + 2 * DAY });
    fs.rmSync(file(dir, p0.name));
    expect(() => requestRestore(dir, p1.name)).toThrow(new RegExp(`needs ${p0.name}, which is missing`));
  });

  it("without its manifest (deleted, damaged, or another point's) the next point is a full one", async () => {
    const dir = tmp();
    const d = db(dir);
    await trade(d, 0, 100);
    await backupInWorker(d, dir, { now: T0 + DAY });
    fs.rmSync(file(dir, MANIFEST_FILE));
    await trade(d, 1, 10);
    const p1 = await backupInWorker(d, dir, { now: T0 + 2 * DAY });
    expect(p1.point).toMatchObject({ kind: 'full', reason: 'no manifest: a full point' });
    await trade(d, 2, 10);
    const p2 = await backupInWorker(d, dir, { now: T0 + 3 * DAY });
    expect(p2.point.kind).toBe('incremental');
    const ofP2 = fs.readFileSync(file(dir, MANIFEST_FILE));
    const m = Buffer.from(ofP2);
    m[m.length - 40] = (m[m.length - 40] as number) ^ 0xff;
    fs.writeFileSync(file(dir, MANIFEST_FILE), m);
    const p3 = await backupInWorker(d, dir, { now: T0 + 4 * DAY });
    expect(p3.point).toMatchObject({ kind: 'full', reason: 'manifest damaged: a full point' });
    for (const p of [p1, p2, p3]) {
      restored(dir, p.name);
      unstage(dir);
    }
    // A point renamed in place but its manifest not (a crash between the two renames): another point's manifest.
    fs.writeFileSync(file(dir, MANIFEST_FILE), ofP2);
    const p5 = await backupInWorker(d, dir, { now: T0 + 4 * DAY + 3_600_000 });
    expect(p5.point).toMatchObject({
      kind: 'full',
      reason: `the manifest is of ${p2.name}, not of ${p3.name}: a full point`,
    });
    // Another page size (only outside WAL mode can it change): every page differs, a new chain.
    d.pragma('journal_mode = DELETE');
    d.pragma('page_size = 8192');
    d.exec('VACUUM');
    d.pragma('journal_mode = WAL');
    const p4 = await backupInWorker(d, dir, { now: T0 + 5 * DAY });
    expect(p4.point).toMatchObject({ kind: 'full', reason: 'the page size changed: a full point' });
    expect(numbers(restored(dir, p4.name))).toEqual(numbers(d));
    unstage(dir);
  });

  it('a worker killed mid-backup leaves no point and no manifest change; the next backup builds on the last good point', async () => {
    const { dir, d } = await tillWithHistory();
    const p0 = await backupInWorker(d, dir, { now: T0 + DAY });
    const manifest = fs.readFileSync(file(dir, MANIFEST_FILE));
    await trade(d, 1, 20);
    // The backup's worker, as Node announces the threads it starts.
    const threads = watchThreads();
    const killed = backupInWorker(d, dir, { now: T0 + 2 * DAY, bytesPerSec: 16 * 1024, readBytesPerSec: 64 * 1024 });
    // Once it has started writing, the worker dies (as with a crash of its thread).
    while (!fs.readdirSync(backupDir(dir)).some((f) => f.endsWith('.kbak.partial')))
      await new Promise((r) => setTimeout(r, 5));
    threads.end();
    await threads.started.at(-1)?.terminate();
    await expect(killed).rejects.toThrow(/maintenance worker stopped/);
    expect(daily(dir).map((b) => b.name)).toEqual([p0.name]);
    expect(fs.readdirSync(backupDir(dir)).filter((f) => f.includes('partial'))).toEqual([]);
    expect(fs.readFileSync(file(dir, MANIFEST_FILE)).equals(manifest)).toBe(true);
    // A crash of the whole process leaves its partial files: listed nowhere, removed by the next backup.
    fs.writeFileSync(file(dir, 'kasa-inprogress-1.kbak.partial'), 'half');
    fs.writeFileSync(file(dir, 'kasa-inprogress-1.manifest.partial'), 'half');
    expect(daily(dir)).toHaveLength(1);
    const p1 = await backupInWorker(d, dir, { now: T0 + 3 * DAY });
    expect(p1.point.kind).toBe('incremental');
    expect(p1.chain?.parent).toBe(p0.name);
    expect(fs.readdirSync(backupDir(dir)).filter((f) => f.includes('partial'))).toEqual([]);
    expect(numbers(restored(dir, p1.name))).toEqual(numbers(d));
  });

  it('a database file that shrank (VACUUM) and grew again restores right at every point', async () => {
    const dir = tmp();
    const d = db(dir);
    await trade(d, 0, 100);
    d.exec('CREATE TABLE t_bulk (b BLOB)');
    const insert = d.prepare('INSERT INTO t_bulk (b) VALUES (randomblob(3000))');
    for (let i = 0; i < 600; i++) insert.run();
    const big = await backupInWorker(d, dir, { now: T0 + DAY });
    d.exec('DELETE FROM t_bulk WHERE rowid > 20');
    d.pragma('wal_checkpoint(TRUNCATE)');
    d.exec('VACUUM');
    const small = await backupInWorker(d, dir, { now: T0 + 2 * DAY });
    expect(small.point.kind).toBe('incremental');
    expect(small.point.pageCount).toBeLessThan(big.point.pageCount / 2);
    for (let i = 0; i < 300; i++) insert.run();
    await trade(d, 2, 10);
    const grown = await backupInWorker(d, dir, { now: T0 + 3 * DAY });
    const bulk = (x: Database.Database | Db): number =>
      (x.prepare('SELECT count(*) AS n FROM t_bulk').get() as { n: number }).n;
    const shrunk = restored(dir, small.name);
    expect(bulk(shrunk)).toBe(20);
    expect(fs.statSync(path.join(dir, 'restore', 'staged.sqlite')).size).toBe(
      small.point.pageCount * (d.pragma('page_size', { simple: true }) as number),
    );
    unstage(dir);
    const again = restored(dir, grown.name);
    expect(bulk(again)).toBe(320);
    expect(numbers(again)).toEqual(numbers(d));
    unstage(dir);
    expect(bulk(restored(dir, big.name))).toBe(600);
  });
});

describe('restore points: chains, pruning and older backups', () => {
  it('a new chain weekly or when the increments outgrow half their full point', () => {
    const inc = (name: string, parent: string, bytes = 10) => ({ name, bytes, kind: 'incremental' as const, parent });
    const full = { name: 'f', bytes: 1000, kind: 'full' as const, parent: null };
    expect(planNextPoint([])).toMatchObject({ parent: null });
    expect(planNextPoint([full])).toMatchObject({ parent: 'f', chain: ['f'] });
    const six = [
      inc('i6', 'i5'),
      inc('i5', 'i4'),
      inc('i4', 'i3'),
      inc('i3', 'i2'),
      inc('i2', 'i1'),
      inc('i1', 'f'),
      full,
    ];
    expect(planNextPoint(six.slice(1))).toMatchObject({ parent: 'i5', chain: ['f', 'i1', 'i2', 'i3', 'i4', 'i5'] });
    expect(planNextPoint(six)).toMatchObject({ parent: null, reason: '6 increments since f' });
    expect(planNextPoint([inc('i2', 'i1', 300), inc('i1', 'f', 300), full])).toMatchObject({
      parent: null,
      reason: expect.stringContaining('more than half'),
    });
    expect(planNextPoint([inc('i1', 'gone'), full])).toMatchObject({
      parent: null,
      reason: expect.stringContaining('incomplete'),
    });
  });

  it('the newest 7 stay restorable; a point goes only when no kept point is built on it; a byte budget', async () => {
    const { dir, d } = await tillWithHistory();
    const take = async (day: number, maxBytes?: number) => {
      await trade(d, day, 10);
      return backupInWorker(d, dir, { now: T0 + day * DAY + 20 * 3_600_000, ...(maxBytes ? { maxBytes } : {}) });
    };
    const first: string[] = [];
    for (let day = 1; day <= 7; day++) first.push((await take(day)).name);
    expect(
      daily(dir)
        .map((b) => b.chain?.type)
        .reverse(),
    ).toEqual(['full', ...Array(6).fill('incremental')]);
    const f2 = await take(8); // the weekly full point
    expect(f2.point.kind).toBe('full');
    // The newest 7 include six increments of the first chain: its full point stays too.
    expect(daily(dir)).toHaveLength(8);
    for (let day = 9; day <= 14; day++) await take(day);
    // Now the newest 7 are the second chain: the first goes as a whole.
    expect(daily(dir)).toHaveLength(7);
    expect(daily(dir).some((b) => first.includes(b.name))).toBe(false);
    // Whatever the budget, the newest point and what it is built on stay.
    const newest = await take(15, 1);
    expect(newest.point.kind).toBe('full');
    expect(daily(dir).map((b) => b.name)).toEqual([newest.name]);
    const i1 = await take(16);
    expect(pruneBackups(dir, 7, 1)).toEqual([]);
    expect(daily(dir).map((b) => b.name)).toEqual([i1.name, newest.name]);
    expect(numbers(restored(dir, i1.name))).toEqual(numbers(d));
  });

  it('a daily backup of the previous version (.sqlite) is listed, restores, and is pruned like a full point', async () => {
    const dir = tmp();
    const d = db(dir);
    await trade(d, 0, 100);
    fs.mkdirSync(backupDir(dir), { recursive: true });
    const legacy = 'kasa-20250301T200000000Z.sqlite';
    await d.backup(file(dir, legacy)); // the previous version's daily backup
    const acknowledged = numbers(d);
    await trade(d, 1, 20);
    const p = await backupInWorker(d, dir, { now: T0 + 2 * DAY });
    expect(p.point.kind).toBe('full');
    expect(daily(dir).map((b) => [b.name, b.chain?.type ?? 'sqlite'])).toEqual([
      [p.name, 'full'],
      [legacy, 'sqlite'],
    ]);
    expect(numbers(restored(dir, legacy))).toEqual(acknowledged);
    unstage(dir);
    for (let day = 3; day <= 8; day++) await backupInWorker(d, dir, { now: T0 + day * DAY });
    expect(daily(dir)).toHaveLength(7);
    expect(daily(dir).some((b) => b.name === legacy)).toBe(false); // the eighth: out of retention
  });
});
