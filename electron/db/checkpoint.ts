/**
 * WAL checkpoints off the commit path, and a commit that costs one fsync of blocks already
 * written. SQLite's automatic checkpoint runs inside the commit that crosses its threshold, so one sale in
 * a thousand paid for copying the WAL into the database file. Instead:
 * - `openDatabase` sets `wal_autocheckpoint` to `WAL_FALLBACK_PAGES` (about 40 MiB of WAL), far above
 *   what the checkpointer lets accumulate, so no commit ever checkpoints while it runs; should it stop (a
 *   bug, a hung timer), SQLite's own checkpoint takes over at that size, so the WAL cannot grow without
 *   bound. `journal_size_limit` truncates the WAL file back to 64 MiB after a checkpoint has reset it.
 * - `startCheckpointer` looks at the WAL on a timer, between commits (the event loop runs one thing at a
 *   time): once it holds `CHECKPOINT_FRAMES` frames not yet copied it runs `PRAGMA wal_checkpoint(PASSIVE)`
 *   (never waits for a reader: the background integrity check holds one) and then restarts the WAL with a
 *   one-page commit of its own (`restartWal`), so no sale pays the restart's extra header fsync.
 * - `growWal` keeps the WAL file written ahead (`WAL_PREALLOC_BYTES`), so a commit overwrites blocks and
 *   its fsync flushes only its own data, not a new file size as well.
 * - `pauseCheckpoints` stops checkpoints (and the growing) while the daily backup copies the database
 *   file (maintenance.ts); the WAL then grows only by the sales made during the copy.
 * Measured: `npm run bench -- checkout-commit` (docs/history.md).
 */
import fs from 'node:fs';
import type { Db } from './open.ts';
import { createSyncLoop } from '../retry/loop.ts';

/** WAL pages after which SQLite checkpoints by itself (the fallback bound; 4 KiB pages: ~40 MiB). */
export const WAL_FALLBACK_PAGES = 10_000;
/** Bytes the WAL file is truncated back to after a checkpoint reset it. */
export const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/** How many backups currently need the database file left as it is (see `pauseCheckpoints`). */
const paused = new WeakMap<Db, number>();

/**
 * Stops every checkpoint of `db` (the idle timer's and SQLite's fallback) until the returned function is
 * called: while a backup copies the database file, only the WAL may change. Sales go on; the WAL grows
 * by what they write during the copy, then the next idle tick folds it in.
 */
export function pauseCheckpoints(db: Db): () => void {
  paused.set(db, (paused.get(db) ?? 0) + 1);
  db.pragma('wal_autocheckpoint = 0');
  let resumed = false;
  return () => {
    if (resumed) return;
    resumed = true;
    const n = (paused.get(db) ?? 1) - 1;
    paused.set(db, n);
    if (n === 0 && db.open) db.pragma(`wal_autocheckpoint = ${WAL_FALLBACK_PAGES}`);
  };
}

export function checkpointPassive(db: Db): CheckpointResult | null {
  if (!db.open || (paused.get(db) ?? 0) > 0) return null;
  const row = (db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[])[0];
  return row ?? null;
}

/**
 * Frames the WAL may hold beyond what is already checkpointed before the checkpointer copies them
 * (SQLite's own default: ~4 MiB of 4 KiB pages, some 100 sales). Not after every commit: each checkpoint
 * that catches up means a WAL restart, and a restart costs a second fsync (SQLite syncs the new WAL header
 * before the frames); the checkpointer pays it itself (`restartWal`), but less often is less disk work.
 */
export const CHECKPOINT_FRAMES = 1000;
/** Bytes the WAL file is kept written ahead to (see `growWal`): room for `CHECKPOINT_FRAMES` and more. */
export const WAL_PREALLOC_BYTES = 16 * 1024 * 1024;
/** Zeros written per checkpointer tick while the WAL file is smaller than `WAL_PREALLOC_BYTES`. */
const WAL_GROW_CHUNK = 1024 * 1024;

/**
 * Makes the WAL file at least `target` bytes by appending (written, flushed) zeros at its end, at most
 * `chunk` bytes per call; returns the bytes added. Why: a commit that appends to the WAL must also make the
 * file's new size durable (a filesystem journal commit on ext4, a second flush), while one that overwrites
 * blocks already written needs only its own data flushed (measured: commit p99 1.4 ms appending, 0.95 ms
 * overwriting). SQLite reuses the WAL from its start after each checkpoint, never reads past the last
 * valid frame (zeros are not a frame: wrong salt and checksum) and never truncates a WAL below
 * `journal_size_limit`, so the written-ahead blocks stay and later commits overwrite them.
 * Safe only between transactions on the thread that owns `db`: every write to this database's WAL is made
 * by that thread, so nothing appends a frame while the zeros go in. Not while a backup copies the WAL.
 */
export function growWal(db: Db, target: number = WAL_PREALLOC_BYTES, chunk: number = WAL_GROW_CHUNK): number {
  if (!db.open || db.inTransaction || db.memory || (paused.get(db) ?? 0) > 0) return 0;
  const file = `${db.name}-wal`;
  // One stat per tick once the WAL has its size (the usual case); no WAL yet (SQLite creates it on the
  // first write) or one just removed: nothing to grow.
  const before = fs.statSync(file, { throwIfNoEntry: false })?.size;
  if (before === undefined || before >= target) return 0;
  let fd: number;
  try {
    fd = fs.openSync(file, 'r+');
  } catch {
    return 0;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const add = Math.min(chunk, target - size);
    if (add <= 0) return 0;
    fs.writeSync(fd, Buffer.alloc(add), 0, add, size);
    fs.fdatasyncSync(fd);
    return add;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * After a checkpoint that copied the whole WAL: one tiny commit (the schema version written back
 * unchanged: one page) so SQLite restarts the WAL now, in the checkpointer's tick, instead of in the next
 * sale. A restart writes a new WAL header and, with synchronous=FULL, syncs it before the frames: a second
 * fsync that the first commit after every checkpoint would otherwise pay.
 */
export function restartWal(db: Db): void {
  if (!db.open || db.inTransaction) return;
  const version = db.pragma('user_version', { simple: true }) as number;
  db.pragma(`user_version = ${version}`);
}

/** Frames in the WAL not yet copied into the database file (a read of the WAL's header: no I/O, no lock held). */
export function pendingFrames(db: Db): number {
  const row = (db.pragma('wal_checkpoint(NOOP)') as CheckpointResult[])[0];
  return row && row.log > 0 ? row.log - Math.max(0, row.checkpointed) : 0;
}

/**
 * Every `intervalMs` (default 100 ms; a look at the WAL header costs ~30 µs), between commits: a PASSIVE
 * checkpoint once the WAL holds `frames` (default `CHECKPOINT_FRAMES`) not yet copied (and then the WAL
 * restarted, `restartWal`), and,
 * from `growAfterMs` (default 5 s: start-up reads come first) until the WAL file has its written-ahead
 * size, one more chunk of it per tick (`growWal`). Returns the function that stops it.
 */
export function startCheckpointer(
  db: Db,
  options: {
    intervalMs?: number;
    frames?: number;
    walBytes?: number;
    growAfterMs?: number;
    onError?: (err: unknown) => void;
  } = {},
): () => void {
  const frames = options.frames ?? CHECKPOINT_FRAMES;
  const growFrom = Date.now() + (options.growAfterMs ?? 5000);
  // A synchronous pass on a fixed interval: the loop calls it directly, no promise per tick.
  const loop = createSyncLoop(() => {
    try {
      if (!db.open) return;
      if (pendingFrames(db) >= frames) {
        const r = checkpointPassive(db);
        if (r && r.busy === 0 && r.log > 0 && r.checkpointed === r.log) restartWal(db);
      }
      if (Date.now() >= growFrom) growWal(db, options.walBytes ?? WAL_PREALLOC_BYTES);
    } catch (err) {
      options.onError?.(err);
    }
  });
  const every = options.intervalMs ?? 100;
  loop.start(every, every);
  return () => void loop.stop();
}
