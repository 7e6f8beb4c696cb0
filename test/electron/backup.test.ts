/**
 * Crash safety on real SQLite files: quick_check and the daily backup after start (in the background:
 * more in history.test.ts), and a restore that validates the backup, keeps the current database and is
 * applied at the next start. The restore points' own guarantees (chains, damage, pruning): restore-points.test.ts.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../electron/db/open.ts';
import {
  applyPendingRestore,
  BackupCopyRefused,
  backupDue,
  copyBackupTo,
  backupDir,
  listBackups,
  pendingRestore,
  requestRestore,
} from '../../electron/db/backup.ts';
import { quickCheck } from '../../electron/db/integrity.ts';
import { backupInWorker, startMaintenance } from '../../electron/db/maintenance.ts';
import { untilValue } from '../support/poll.ts';
import { tempDatabases } from '../support/temp-db.ts';
import { watchThreads } from '../support/threads.ts';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
const open: Db[] = [];
const { tmp, db, lines, logger, cleanup } = tempDatabases('kasa-backup-');
afterEach(() => {
  open.splice(0).forEach((d) => d.open && d.close());
  cleanup();
});

const mark = (d: Db, value: string): void => {
  d.exec('CREATE TABLE IF NOT EXISTS t_mark (v TEXT)');
  d.prepare('INSERT INTO t_mark (v) VALUES (?)').run(value);
};
const marks = (d: Db): string[] =>
  (d.prepare('SELECT v FROM t_mark ORDER BY rowid').all() as { v: string }[]).map((r) => r.v);

describe('startup checks and daily backups', () => {
  it('quick_check passes on a healthy database and the first start takes a backup, all in one worker thread', async () => {
    const dir = tmp();
    const d = db(dir);
    expect(quickCheck(d).ok).toBe(true);
    // Node announces every thread it starts: the pass's check, checkpoint and point share one (a thread costs
    // about 60 ms of CPU to start on the reference machine).
    const threads = watchThreads();
    const first = startMaintenance(d, dir, logger, { delayMs: 0, now: () => T0 });
    const report = await first.firstRun;
    await first.stop();
    threads.end();
    expect(threads.started).toHaveLength(1);
    expect(report.integrity.ok).toBe(true);
    expect(report.backup?.name).toMatch(/^kasa-20261122T090000000Z\.kbak$/);
    expect(backupDue(dir, T0 + 60_000)).toBe(false);
    const again = startMaintenance(d, dir, logger, { delayMs: 0, now: () => T0 + 60_000 });
    expect((await again.firstRun).backup).toBeNull();
    await again.stop();
  });

  it('stop() ends every worker alive: a manual backup’s and the hourly pass’s waiting for it', async () => {
    const dir = tmp();
    const d = db(dir);
    let t = T0;
    const m = startMaintenance(d, dir, logger, { delayMs: 0, intervalMs: 10, now: () => t });
    await m.firstRun;
    // 24 MB that do not compress: the manual backup's increment writes them at 32 MB/s, most of a second.
    d.exec('CREATE TABLE bulk (b BLOB)');
    const put = d.prepare('INSERT INTO bulk (b) VALUES (randomblob(65536))');
    d.transaction(() => {
      for (let i = 0; i < 384; i++) put.run();
    })();
    const { started, exited, end } = watchThreads();
    try {
      const manual = m.backupNow();
      manual.catch(() => {});
      await untilValue(
        'the manual backup’s worker',
        () => started.length,
        (n) => n === 1,
        { everyMs: 5, tries: 2000 },
      );
      // The next day: the hourly pass finds a backup due, opens its worker and waits for the manual one.
      t = T0 + 86_400_000;
      await untilValue(
        'the pass’s worker',
        () => started.length,
        (n) => n === 2,
        { everyMs: 5, tries: 2000 },
      );
      expect(exited.size).toBe(0);
      await m.stop();
      await new Promise((r) => setImmediate(r));
      expect(exited.size).toBe(2);
      await expect(manual).rejects.toThrow(/stopped/);
      // Nothing half-written is left, and a backup asked for after the stop opens no worker.
      expect(fs.readdirSync(backupDir(dir)).filter((f) => f.startsWith('kasa-inprogress-'))).toEqual([]);
      await expect(m.backupNow()).resolves.toBeNull();
      expect(started).toHaveLength(2);
    } finally {
      end();
    }
  });

  it('the backup is consistent while the WAL holds uncheckpointed writes', async () => {
    const dir = tmp();
    const d = db(dir);
    d.pragma('wal_autocheckpoint = 0');
    for (let i = 0; i < 200; i++) mark(d, `row ${i}`);
    // The running app's path: a restore point of the file and its WAL by the worker, checkpoints paused.
    const b = await backupInWorker(d, dir, { now: T0 });
    requestRestore(dir, b.name); // rebuilt and staged (integrity_check passed)
    const copy = openDatabase(path.join(dir, 'restore', 'staged.sqlite'));
    open.push(copy);
    expect(marks(copy)).toHaveLength(200);
    expect(quickCheck(copy).ok).toBe(true);
  });
  // The space budget, the newest-7 limit and a damaged database: history.test.ts.
});

describe('restore', () => {
  it('validates, stages, keeps the current database and applies at the next start', async () => {
    const dir = tmp();
    let d = db(dir);
    mark(d, 'before backup');
    const b = await backupInWorker(d, dir, { now: T0 });
    mark(d, 'after backup');
    expect(requestRestore(dir, b.name, { logger, now: T0 + 1000 })).toEqual({ restartRequired: true, name: b.name });
    expect(pendingRestore(dir)?.name).toBe(b.name);
    // The running database is untouched until the restart.
    expect(marks(d)).toEqual(['before backup', 'after backup']);
    d.close();
    const applied = applyPendingRestore(dir, logger, { now: T0 + 2000 });
    expect(applied?.restored).toBe(b.name);
    d = db(dir);
    expect(marks(d)).toEqual(['before backup']);
    expect(pendingRestore(dir)).toBeNull();
    // The database it replaced is kept, complete.
    const previous = openDatabase(applied?.previous as string);
    open.push(previous);
    expect(marks(previous)).toEqual(['before backup', 'after backup']);
    expect(
      listBackups(dir)
        .map((x) => x.kind)
        .sort(),
    ).toEqual(['daily', 'pre-restore']);
    expect(applyPendingRestore(dir, logger)).toBeNull();
  });

  it('refuses a damaged backup of the previous version (a full .sqlite copy) and leaves nothing staged', async () => {
    const dir = tmp();
    const d = db(dir);
    for (let i = 0; i < 300; i++) mark(d, 'y'.repeat(200));
    fs.mkdirSync(backupDir(dir), { recursive: true });
    const b = { name: 'kasa-20261122T090000000Z.sqlite' };
    await d.backup(path.join(backupDir(dir), b.name)); // how the previous version wrote its daily backups
    const file = path.join(backupDir(dir), b.name);
    const fd = fs.openSync(file, 'r+');
    const size = fs.fstatSync(fd).size;
    for (let off = 4096 * 2; off < size - 4096; off += 4096 * 2)
      fs.writeSync(fd, Buffer.alloc(600, 0x5a), 0, 600, off + 50);
    fs.closeSync(fd);
    expect(() => requestRestore(dir, b.name, { logger })).toThrow(/cannot be restored/);
    expect(pendingRestore(dir)).toBeNull();
    expect(lines.some((l) => l.startsWith('E restore of'))).toBe(true);
  });

  it('refuses names that are not listed backups (no paths)', async () => {
    const dir = tmp();
    await backupInWorker(db(dir), dir, { now: T0 });
    expect(() => requestRestore(dir, '../kasa.sqlite')).toThrow(/no backup named/);
    expect(() => requestRestore(dir, '/etc/passwd')).toThrow(/no backup named/);
  });

  it('refuses a file that is not a Kasa database', () => {
    const dir = tmp();
    fs.mkdirSync(backupDir(dir), { recursive: true });
    const other = new Database(path.join(backupDir(dir), 'kasa-20261122T090000000Z.sqlite'));
    other.exec('CREATE TABLE x (a)');
    other.close();
    expect(() => requestRestore(dir, 'kasa-20261122T090000000Z.sqlite')).toThrow(/not a Kasa database/);
  });
});

describe('a backup copied to a folder the manager names (backups.copy)', () => {
  const refusal = (f: () => unknown): string => {
    try {
      f();
    } catch (err) {
      if (err instanceof BackupCopyRefused) return err.key;
      throw err;
    }
    throw new Error('not refused');
  };

  it('writes an increment as one standalone database that restores on its own, and never overwrites', async () => {
    const dir = tmp();
    const d = db(dir);
    mark(d, 'monday');
    await backupInWorker(d, dir, { now: T0 });
    mark(d, 'tuesday');
    const inc = await backupInWorker(d, dir, { now: T0 + 86_400_000 });
    expect(inc.chain?.type).toBe('incremental');
    const usb = tmp();

    expect(refusal(() => copyBackupTo(dir, inc.name, 'usb'))).toBe('backup_folder_relative');
    expect(refusal(() => copyBackupTo(dir, inc.name, path.join(usb, 'missing')))).toBe('backup_folder_missing');
    fs.writeFileSync(path.join(usb, 'a-file'), 'x');
    expect(refusal(() => copyBackupTo(dir, inc.name, path.join(usb, 'a-file')))).toBe('backup_folder_missing');

    const { file } = copyBackupTo(dir, inc.name, usb);
    expect(path.basename(file)).toBe(inc.name.replace(/\.kbak$/, '.sqlite'));
    // Alone (no chain beside it) it is the whole database of Tuesday.
    const copy = new Database(file, { readonly: true, fileMustExist: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect((copy.prepare('SELECT v FROM t_mark ORDER BY rowid').all() as { v: string }[]).map((r) => r.v)).toEqual([
        'monday',
        'tuesday',
      ]);
    } finally {
      copy.close();
    }
    // Nothing of the rebuild is left in the data directory.
    expect(fs.readdirSync(path.join(dir, 'restore')).filter((f) => f.startsWith('copy-'))).toEqual([]);

    // The same copy again: the file there is the manager's, never overwritten.
    fs.writeFileSync(file, 'hers');
    expect(refusal(() => copyBackupTo(dir, inc.name, usb))).toBe('backup_file_exists');
    expect(fs.readFileSync(file, 'utf8')).toBe('hers');
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)(
    'refuses a folder it cannot write to',
    async () => {
      const dir = tmp();
      const d = db(dir);
      mark(d, 'monday');
      const b = await backupInWorker(d, dir, { now: T0 });
      const locked = tmp();
      fs.chmodSync(locked, 0o555);
      try {
        expect(refusal(() => copyBackupTo(dir, b.name, locked))).toBe('backup_folder_readonly');
        expect(fs.readdirSync(locked)).toEqual([]);
      } finally {
        fs.chmodSync(locked, 0o755);
      }
    },
  );
});
