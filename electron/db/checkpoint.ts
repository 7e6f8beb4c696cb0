/**
 * WAL checkpoints off the commit path (issue #13). SQLite's automatic checkpoint runs inside the commit
 * that crosses its threshold, so one sale in a thousand paid for copying the WAL into the database file.
 * Instead:
 * - `openDatabase` sets `wal_autocheckpoint` to `WAL_FALLBACK_PAGES` (about 40 MiB of WAL), far above
 *   what the idle checkpointer lets accumulate, so no commit ever checkpoints while it runs; should it
 *   stop (a bug, a hung timer), SQLite's own checkpoint takes over at that size, so the WAL cannot grow
 *   without bound. `journal_size_limit` truncates the WAL file back after a checkpoint has reset it.
 * - `startCheckpointer` runs `PRAGMA wal_checkpoint(PASSIVE)` on a timer, between commits (the event loop
 *   runs one thing at a time), copying only the few pages written since the last tick; PASSIVE never
 *   waits for a reader (the background integrity check holds one).
 * - `pauseCheckpoints` stops both while the daily backup copies the database file (maintenance.ts); the
 *   WAL then grows only by the sales made during the copy.
 */
import type { Db } from './open.ts';

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

/** Checkpoints every `intervalMs` (default 1 s); returns the function that stops it. */
export function startCheckpointer(db: Db, options: { intervalMs?: number; onError?: (err: unknown) => void } = {}): () => void {
  const timer = setInterval(() => {
    try {
      checkpointPassive(db);
    } catch (err) {
      options.onError?.(err);
    }
  }, options.intervalMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}
