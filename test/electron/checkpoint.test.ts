/**
 * WAL checkpoints off the commit path (electron/db/checkpoint.ts), on real SQLite files: the
 * checkpointer copies the WAL only once it holds enough frames and then restarts it in its own tick; the
 * WAL file is written ahead so commits overwrite instead of growing it; and a database whose WAL carries
 * written-ahead zeros or stale frames of an earlier cycle still recovers every committed row after a crash.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../electron/db/open.ts';
import {
  growWal,
  pauseCheckpoints,
  pendingFrames,
  restartWal,
  startCheckpointer,
  WAL_FALLBACK_PAGES,
} from '../../electron/db/checkpoint.ts';
import { tempDatabases } from '../support/temp-db.ts';

const { tmp, db, cleanup } = tempDatabases('kasa-checkpoint-');
afterEach(cleanup);

const walSize = (d: Db): number => fs.statSync(`${d.name}-wal`).size;
const walInfo = (d: Db): { log: number; checkpointed: number } =>
  (d.pragma('wal_checkpoint(NOOP)') as { log: number; checkpointed: number }[])[0] ?? { log: -1, checkpointed: -1 };
const until = (cond: () => boolean): Promise<void> =>
  new Promise((resolve) => {
    const poll = setInterval(() => {
      if (!cond()) return;
      clearInterval(poll);
      resolve();
    }, 5);
  });

function withRows(dir: string): { d: Db; insert: (v: string) => void } {
  const d = db(dir);
  d.exec('CREATE TABLE t (v TEXT)');
  const stmt = d.prepare('INSERT INTO t (v) VALUES (?)');
  return { d, insert: (v) => void stmt.run(v) };
}

/** What a power cut leaves: the database and WAL files as they are on disk, opened by a new process. */
function crashCopy(d: Db, to: string): Database.Database {
  fs.mkdirSync(to, { recursive: true });
  fs.copyFileSync(d.name, path.join(to, 'kasa.sqlite'));
  fs.copyFileSync(`${d.name}-wal`, path.join(to, 'kasa.sqlite-wal'));
  return new Database(path.join(to, 'kasa.sqlite'));
}

describe('the checkpointer', () => {
  it('leaves a small WAL alone and copies it once it holds `frames` frames, then restarts it in the same tick', async () => {
    const { d, insert } = withRows(tmp());
    for (let i = 0; i < 30; i++) insert('x'.repeat(500));
    const few = pendingFrames(d);
    expect(few).toBeGreaterThan(0);
    const stop = startCheckpointer(d, { intervalMs: 5, frames: few + 20 });
    await new Promise((r) => setTimeout(r, 60));
    // below the threshold: not copied (every tick would cost the next sale an fsync)
    expect(pendingFrames(d)).toBe(few);
    for (let i = 0; i < 40; i++) insert('y'.repeat(500));
    // Above it: copied, and the WAL restarted by the checkpointer's own one-page commit.
    await until(() => walInfo(d).log === 1);
    stop();
    expect(pendingFrames(d)).toBe(1);
    expect(d.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_FALLBACK_PAGES);
    expect((d.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(70);
  });

  it('restartWal after a full checkpoint makes the next commit write from the start of the WAL', () => {
    const { d, insert } = withRows(tmp());
    for (let i = 0; i < 20; i++) insert('x'.repeat(3000));
    const full = d.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    expect(full[0]?.checkpointed).toBe(full[0]?.log);
    restartWal(d);
    expect(walInfo(d)).toMatchObject({ log: 1, checkpointed: 0 });
    insert('after');
    expect(walInfo(d).log).toBe(2);
  });

  it('writes the WAL ahead in chunks, and commits then overwrite it instead of growing the file', () => {
    const { d, insert } = withRows(tmp());
    insert('first');
    const target = 3 * 1024 * 1024;
    const chunk = 1024 * 1024;
    // What the migrations and the first row already wrote (about 1 MiB, growing with each migration) stays.
    const before = walSize(d);
    expect(before).toBeLessThan(target - chunk);
    const steps: number[] = [];
    for (let step; (step = growWal(d, target, chunk)) > 0;) steps.push(step);
    expect(walSize(d)).toBe(target);
    expect(steps.reduce((a, b) => a + b, 0)).toBe(target - before);
    expect(steps.length).toBe(Math.ceil((target - before) / chunk));
    expect(Math.max(...steps)).toBe(chunk);
    expect(growWal(d, target)).toBe(0);
    for (let i = 0; i < 100; i++) insert('z'.repeat(3000)); // ~100 pages, well inside the written-ahead part
    expect(walSize(d)).toBe(target);
  });

  it('does not touch the WAL inside a transaction or while a backup has checkpoints paused', () => {
    const { d, insert } = withRows(tmp());
    insert('first');
    const before = walSize(d);
    d.exec('BEGIN');
    expect(growWal(d, before + 1024 * 1024)).toBe(0);
    d.exec('COMMIT');
    const resume = pauseCheckpoints(d);
    expect(growWal(d, before + 1024 * 1024)).toBe(0);
    resume();
    expect(walSize(d)).toBe(before);
    expect(growWal(d, before + 1024 * 1024)).toBeGreaterThan(0);
  });
});

describe('crash recovery with a written-ahead WAL', () => {
  it('every committed row survives a crash after the WAL was written ahead', () => {
    const dir = tmp();
    const { d, insert } = withRows(dir);
    for (let i = 0; i < 10; i++) insert(`before ${i}`);
    while (growWal(d, 2 * 1024 * 1024) > 0);
    for (let i = 0; i < 10; i++) insert(`after ${i}`);
    const copy = crashCopy(d, path.join(dir, 'crash'));
    try {
      expect((copy.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(20);
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      copy.close();
    }
  });

  it('stale frames of an earlier WAL cycle behind the new ones are not replayed', () => {
    const dir = tmp();
    const { d, insert } = withRows(dir);
    for (let i = 0; i < 200; i++) insert(`old ${i}`.padEnd(2000, '.'));
    while (growWal(d, 4 * 1024 * 1024) > 0);
    d.pragma('wal_checkpoint(PASSIVE)');
    restartWal(d);
    // A later state in a few frames at the WAL's start; behind them, frames of the earlier cycle holding
    // older versions of the same pages (row 1 still 'old 0'), valid under the earlier salt.
    d.prepare("UPDATE t SET v = 'changed' WHERE rowid = 1").run();
    insert('new');
    expect(walInfo(d).log).toBeLessThan(10);
    const copy = crashCopy(d, path.join(dir, 'crash'));
    try {
      const rows = copy.prepare('SELECT v FROM t ORDER BY rowid').all() as { v: string }[];
      expect(rows).toHaveLength(201);
      expect(rows[0]?.v).toBe('changed');
      expect(rows.at(-1)?.v).toBe('new');
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      copy.close();
    }
  });
});
