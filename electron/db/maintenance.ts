/**
 * Database maintenance off the critical path (docs/history.md): the till answers first, then,
 * once it is up, `PRAGMA quick_check` and the day's backup run in a worker thread.
 *
 * Why a sale never waits on them: the worker has its own SQLite connection (the check) or only reads and
 * writes files (the backup), so the main thread (IPC, HTTP host, checkout) only posts a message and later
 * receives the result; in WAL mode a reader never blocks a writer. The backup is a restore point
 * (restore-points.ts: only the pages changed since the previous one, compressed), written in chunks of at
 * most 1 MiB, each flushed and paced (`BACKUP_BYTES_PER_SEC`), so a sale's fsync never queues behind a
 * gigabyte of pending writes; while the worker reads the file, checkpoints are paused (checkpoint.ts) so
 * the database file stays as it is and only the WAL grows.
 *
 * Order and guarantees (as the start-up checks they replace): the backup is taken only after the check
 * passed, so a damaged database never pushes a good backup out; a failed check is logged as an error and
 * shown to the manager (`backups.list` → integrity). A till left running checks every hour whether the
 * day's backup is due.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Db } from './open.ts';
import { backupDir, backupDue, finishBackup, KEEP_BACKUPS, listBackups, pointName, type BackupInfo } from './backup.ts';
import { MANIFEST_FILE, planNextPoint, POINT_CONSTS, POINT_WRITER_SOURCE } from './restore-points.ts';
import type { QuickCheckResult, StartupReport } from './integrity.ts';
import { pauseCheckpoints } from './checkpoint.ts';
import { createSyncLoop } from '../retry/loop.ts';
import type { LogLike } from '../log/logger.ts';

export interface MaintenanceOptions {
  /** Wait this long after start before the first check (default 1.5 s: the first sale comes first). */
  delayMs: number;
  /** How often a running till looks whether the day's backup is due (default hourly). */
  intervalMs: number;
  now: () => number;
  keep: number;
  /** Daily backups are pruned (oldest first, the newest always kept) to fit this many bytes; see backup.ts. */
  maxBytes?: number;
  /** Tests: the check takes this much longer (a slow disk); it sleeps in the worker, never on the main thread. */
  slowCheckMs?: number;
}

export interface Maintenance {
  /** What the last check and backup found; `integrity.pending` until the first check has finished. */
  report(): StartupReport;
  /** Resolves with the report once the first check (and backup, when due) has finished. */
  readonly firstRun: Promise<StartupReport>;
  /**
   * A backup now, at a manager's word (`backups.create`), after the first check; null while that check found
   * problems (a damaged database never pushes a good backup out). One at a time with the daily one.
   */
  backupNow(): Promise<BackupInfo | null>;
  stop(): Promise<void>;
}

const nodeRequire = createRequire(import.meta.url);
/** How fast a backup is written (bytes per second, see `backupInWorker`): 1 GiB in about 30 s. */
export const BACKUP_BYTES_PER_SEC = 32 * 1024 * 1024;
/** How fast the worker reads the database file to hash its pages (reads leave no dirty pages behind). */
export const BACKUP_READ_BYTES_PER_SEC = 256 * 1024 * 1024;
/** The WAL may grow this much while a backup has checkpoints paused; past it the backup is given up. */
export const PAUSED_WAL_LIMIT = 256 * 1024 * 1024;

/**
 * The worker, as plain JavaScript (no build step, works the same in Electron and the host). One worker serves a
 * whole maintenance pass: it takes its tasks (the check, the checkpoint, the point) one message at a time, each on a
 * connection of its own closed before the answer. A new thread costs about 60 ms of CPU to start on the reference
 * machine, a pass of three tasks in one thread a third of what three threads cost.
 */
const WORKER_SOURCE = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
// The driver binds its native module at the first connection: bind it now, then say so. Only from then on may
// the main thread end this worker (stopWorker): a thread ended inside a native module's registration can abort
// the whole process (N-API "Error::New napi_get_last_error_info", seen twice in test runs under heavy load).
new Database(':memory:').close();
parentPort.postMessage({ loaded: true });
const { file } = workerData;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
// On Linux the nice value is per thread: this worker (hashing, compressing, checking) yields the CPU to the
// main thread's sales. Elsewhere it would change the whole process's priority, so it is left alone there.
if (process.platform === 'linux') { try { require('node:os').setPriority(10); } catch {} }
${POINT_WRITER_SOURCE}
parentPort.on('message', (task) => {
  let db;
  try {
    if (task.kind === 'checkpoint') {
      // Copies the WAL into the database file on this thread's own connection, before a backup.
      db = new Database(file, { fileMustExist: true });
      db.pragma('wal_checkpoint(PASSIVE)');
      parentPort.postMessage({ ok: true, problems: [], ms: 0 });
    } else if (task.kind === 'check') {
      db = new Database(file, { readonly: true, fileMustExist: true });
      db.pragma('busy_timeout = 5000');
      const started = performance.now();
      if (task.slowMs) Atomics.wait(sleeper, 0, 0, task.slowMs);
      let rows;
      try { rows = db.pragma('quick_check(20)'); } catch (err) { rows = [{ quick_check: String(err && err.message || err) }]; }
      const problems = rows.map((r) => r.quick_check).filter((m) => m !== 'ok');
      parentPort.postMessage({ ok: rows.length > 0 && problems.length === 0, problems, ms: Math.round(performance.now() - started) });
    } else {
      // The database file does not change while checkpoints are paused (the main thread paused them), and
      // the WAL only grows: the file, then the WAL as it is now, are one consistent state once SQLite
      // recovers the copied WAL (a commit half-written while it was read is dropped, as after a crash).
      const started = performance.now();
      const point = writeRestorePoint(file, task);
      parentPort.postMessage({ ok: true, problems: [], ms: Math.round(performance.now() - started), point });
    }
  } catch (err) {
    parentPort.postMessage({ ok: false, problems: [String(err && err.message || err)], ms: 0 });
  } finally {
    if (db) db.close();
  }
});
`;

type CheckTask = { kind: 'check'; slowMs?: number } | { kind: 'checkpoint' };
type PointTask = {
  kind: 'point';
  /** Where the worker writes the point and the next manifest (`.partial`; the main thread renames them). */
  to: string;
  manifestTo: string;
  manifest: string;
  dir: string;
  name: string;
  parent: string | null;
  /** The points `parent` is rebuilt from, checked by the worker before it builds on them. */
  chain: string[];
  reason: string;
  createdAt: string;
  rate: number;
  readRate: number;
  consts: typeof POINT_CONSTS;
};
/** What the worker reports of the point it wrote. */
export interface PointWritten {
  kind: 'full' | 'incremental';
  /** Why this kind (e.g. why a full point although an increment was planned). */
  reason: string;
  pageCount: number;
  changedPages: number;
  walBytes: number;
  bytes: number;
}
type WorkerResult = QuickCheckResult & { point?: PointWritten };

/** Resolves when a worker has loaded the SQLite driver (or ended): only then may it be terminated. */
const driverLoaded = new WeakMap<Worker, Promise<void>>();

/**
 * Ends a maintenance worker, but never while it loads the native SQLite driver: terminating a thread inside
 * a native module's registration aborts the process (N-API "Error::New napi_get_last_error_info").
 */
async function stopWorker(worker: Worker): Promise<void> {
  await driverLoaded.get(worker);
  await worker.terminate();
}

/** A maintenance worker with its own connections to one database file, running the tasks of one pass in turn. */
interface MaintenanceWorker {
  /** Runs a task once the one before it has answered; a worker that has ended answers with why. */
  run(task: CheckTask | PointTask): Promise<WorkerResult>;
  /** Ends the worker (never while it loads the driver); its exit takes it out of the live set. */
  end(): Promise<void>;
}

/**
 * The workers of one maintenance, each from its start to its exit: a pass's and a manual backup's can be alive at
 * once (the pass's waits for the backup before it). `stop()` ends each of them and marks the set closed, so that a
 * backup still queued then opens no worker.
 */
interface Workers {
  readonly live: Set<Worker>;
  closed: boolean;
}
const noWorkers = (): Workers => ({ live: new Set(), closed: false });

function openWorker(file: string, workers: Workers): MaintenanceWorker {
  if (workers.closed) throw new Error('maintenance stopped');
  const { live } = workers;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver: nodeRequire.resolve('better-sqlite3'), file },
  });
  let loaded: () => void = () => {};
  driverLoaded.set(worker, new Promise<void>((r) => (loaded = r)));
  live.add(worker);
  let answer: ((r: WorkerResult) => void) | null = null;
  let gone: WorkerResult | null = null;
  const settle = (r: WorkerResult): void => {
    const waiting = answer;
    answer = null;
    waiting?.(r);
  };
  const ended = (r: WorkerResult): void => {
    loaded();
    gone ??= r;
    settle(r);
  };
  worker.on('message', (m: WorkerResult | { loaded: true }) => ('loaded' in m ? loaded() : settle(m)));
  worker.once('error', (err) => ended({ ok: false, problems: [err.message], ms: 0 }));
  worker.once('exit', (code) => {
    live.delete(worker);
    ended({ ok: false, problems: [`maintenance worker stopped (exit ${code})`], ms: 0 });
  });
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run(task) {
      const result = queue.then(
        () =>
          new Promise<WorkerResult>((resolve) => {
            if (gone) return resolve(gone);
            answer = resolve;
            worker.postMessage(task);
          }),
      );
      queue = result;
      return result;
    },
    end: () => stopWorker(worker),
  };
}

/** Runs `use` with a worker of its own for `file` (or `shared`, the pass's), ending the worker it opened. */
async function inWorker<T>(
  file: string,
  workers: Workers,
  shared: MaintenanceWorker | undefined,
  use: (w: MaintenanceWorker) => Promise<T>,
): Promise<T> {
  if (shared) return use(shared);
  const own = openWorker(file, workers);
  try {
    return await use(own);
  } finally {
    await own.end();
  }
}

/** `PRAGMA quick_check` of the database file in a worker thread (the main thread stays free). */
export function quickCheckInWorker(file: string, slowMs?: number): Promise<QuickCheckResult> {
  return inWorker(file, noWorkers(), undefined, (w) => w.run({ kind: 'check', ...(slowMs ? { slowMs } : {}) }));
}

/**
 * The day's backup: a restore point (restore-points.ts) written by a worker from the database file and its
 * WAL while checkpoints are paused, so it is one consistent state: an increment on the newest point when
 * its chain allows (`planNextPoint`), else a full point. Then renamed into `backups/`, its manifest after
 * it, and pruned to the space budget. Sales go on meanwhile: they only append to the WAL.
 */
export async function backupInWorker(
  db: Db,
  dataDir: string,
  options: BackupOptions = {},
  /** Where the worker it opens is kept while alive (the maintenance's, for its `stop()`). */
  workers: Workers = noWorkers(),
  /** The pass's worker, already among `workers`: the backup runs in it instead of a worker of its own. */
  shared?: MaintenanceWorker,
): Promise<TakenPoint> {
  // One at a time per data directory (the maintenance tick and a caller of its own): each builds on the
  // point and manifest the one before it left.
  const mine = (inFlight.get(dataDir) ?? Promise.resolve())
    .catch(() => {})
    .then(() => inWorker(db.name, workers, shared, (worker) => takePoint(db, dataDir, options, worker)));
  inFlight.set(dataDir, mine);
  try {
    return await mine;
  } finally {
    if (inFlight.get(dataDir) === mine) inFlight.delete(dataDir);
  }
}

type BackupOptions = {
  now?: number;
  keep?: number;
  maxBytes?: number;
  bytesPerSec?: number;
  readBytesPerSec?: number;
  walLimit?: number;
};
type TakenPoint = BackupInfo & { ms: number; point: PointWritten };
const inFlight = new Map<string, Promise<TakenPoint>>();

async function takePoint(
  db: Db,
  dataDir: string,
  options: BackupOptions,
  worker: MaintenanceWorker,
): Promise<TakenPoint> {
  const now = options.now ?? Date.now();
  const dir = backupDir(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `kasa-inprogress-${now}.kbak.partial`);
  const manifestTmp = path.join(dir, `kasa-inprogress-${now}.manifest.partial`);
  const clean = (): void => removeInProgress(dataDir);
  clean(); // what a killed worker or a crash left
  const name = pointName(now);
  const daily = listBackups(dataDir).filter((b) => b.kind === 'daily' && b.chain);
  const plan = planNextPoint(
    daily.map((b) => ({
      name: b.name,
      bytes: b.bytes,
      kind: b.chain?.type ?? 'unreadable',
      parent: b.chain?.parent ?? null,
    })),
  );
  const task: PointTask = {
    kind: 'point',
    to: tmp,
    manifestTo: manifestTmp,
    manifest: path.join(dir, MANIFEST_FILE),
    dir,
    name,
    ...plan,
    createdAt: new Date(now).toISOString(),
    rate: options.bytesPerSec ?? BACKUP_BYTES_PER_SEC,
    readRate: options.readBytesPerSec ?? BACKUP_READ_BYTES_PER_SEC,
    consts: POINT_CONSTS,
  };
  // Fold the WAL in and empty it first, so the point holds the database file and only the WAL written
  // while it runs. The copying is done by a worker's own connection (PASSIVE: never waits for a sale nor
  // makes one wait); the TRUNCATE here then has only the frames of the last moments left (a TRUNCATE of
  // up to a thousand frames on this thread, with its fsync, made a sale wait ~50 ms).
  await worker.run({ kind: 'checkpoint' });
  db.pragma('wal_checkpoint(TRUNCATE)');
  const resume = pauseCheckpoints(db);
  // The WAL cannot grow without bound while checkpoints are paused: past the limit (a very busy till,
  // or a copy that hangs) the backup is given up, checkpoints resume, and the next hourly tick retries.
  const walLimit = options.walLimit ?? PAUSED_WAL_LIMIT;
  let walTooBig = false;
  const watch = setInterval(() => {
    if ((fs.statSync(`${db.name}-wal`, { throwIfNoEntry: false })?.size ?? 0) <= walLimit) return;
    walTooBig = true;
    void worker.end();
  }, 250);
  const r = await worker.run(task).finally(() => {
    clearInterval(watch);
    resume();
  });
  if (!r.ok || walTooBig || !r.point) {
    clean();
    throw new Error(
      walTooBig
        ? `backup given up: the WAL grew past ${walLimit} bytes while the database was copied (checkpoints resumed; retried later)`
        : r.problems.join('; '),
    );
  }
  const info = finishBackup(tmp, manifestTmp, name, dataDir, { keep: options.keep, maxBytes: options.maxBytes });
  return { ...info, ms: r.ms, point: r.point };
}

/** Removes what an unfinished backup left in `backups/` (a point or manifest still `.partial`). */
function removeInProgress(dataDir: string): void {
  const dir = backupDir(dataDir);
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (f.startsWith('kasa-inprogress-')) fs.rmSync(path.join(dir, f), { force: true });
  }
}

/** Starts the background maintenance of `db` (call once the till is ready); see the module comment. */
export function startMaintenance(
  db: Db,
  dataDir: string,
  logger: LogLike,
  options: Partial<MaintenanceOptions> = {},
): Maintenance {
  const now = options.now ?? Date.now;
  const keep = options.keep ?? KEEP_BACKUPS;
  let current: StartupReport = {
    integrity: { ok: true, problems: [], ms: 0, pending: true },
    backup: null,
    backupError: null,
  };
  let stopped = false;
  let busy: Promise<StartupReport> | null = null;
  const workers = noWorkers();

  // A pass runs its check and its backup in one worker, opened only when the pass has something to do.
  const due = (): boolean => !stopped && current.integrity.ok && backupDue(dataDir, now());
  const run = async (withCheck: boolean): Promise<StartupReport> => {
    if (!withCheck && !due()) return current;
    return inWorker(db.name, workers, undefined, async (worker) => {
      if (withCheck) {
        logger.info('database quick_check started in the background');
        const integrity = await worker.run({
          kind: 'check',
          ...(options.slowCheckMs ? { slowMs: options.slowCheckMs } : {}),
        });
        if (stopped) return current;
        current = { ...current, integrity };
        if (integrity.ok) logger.info(`database quick_check ok (${integrity.ms} ms, in the background)`);
        else
          logger.error(
            `database quick_check FAILED: ${integrity.problems.join('; ')}; no backup taken; restore one from the manager screen`,
          );
      }
      if (!due()) return current;
      try {
        const b = await backupInWorker(db, dataDir, { now: now(), keep, maxBytes: options.maxBytes }, workers, worker);
        logger.info(
          `daily backup ${b.name} (${b.point.kind}: ${b.point.reason}; ${b.point.changedPages} pages, ${b.bytes} bytes, ${b.ms} ms, in the background)`,
        );
        current = { ...current, backup: b, backupError: null };
      } catch (err) {
        const backupError = err instanceof Error ? err.message : String(err);
        if (!stopped) logger.error(`daily backup failed: ${backupError}`);
        current = { ...current, backupError };
      }
      return current;
    });
  };
  const once = (withCheck: boolean): Promise<StartupReport> => {
    if (busy) return busy;
    busy = run(withCheck).finally(() => {
      busy = null;
    });
    return busy;
  };

  let resolveFirst: (r: StartupReport) => void = () => {};
  const firstRun = new Promise<StartupReport>((r) => (resolveFirst = r));
  // The first pass checks the file (and resolves `firstRun`); the hourly ones only take a backup when due.
  let checked = false;
  const loop = createSyncLoop(async () => {
    if (!checked) {
      checked = true;
      if (stopped || !db.open) return resolveFirst(current);
      resolveFirst(await once(true));
      return;
    }
    if (!stopped && db.open && !current.integrity.pending) await once(false);
  });
  // Never in the caller's turn: a delay of 0 is the next turn of the event loop, as a timer of 0 is.
  loop.start(options.intervalMs ?? 60 * 60 * 1000, Math.max(1, options.delayMs ?? 1500));

  return {
    report: () => current,
    firstRun,
    async backupNow() {
      await firstRun;
      if (stopped || !current.integrity.ok) return null;
      const b = await backupInWorker(db, dataDir, { now: now(), keep, maxBytes: options.maxBytes }, workers);
      logger.info(`backup ${b.name} taken at a manager's word (${b.point.kind}: ${b.bytes} bytes, ${b.ms} ms)`);
      current = { ...current, backup: b, backupError: null };
      const { ms: _ms, point: _point, ...info } = b;
      return info;
    },
    async stop() {
      stopped = true;
      // Not awaited: the worker in flight is ended below, and the pass that ran it ends with it.
      void loop.stop();
      resolveFirst(current);
      workers.closed = true;
      await Promise.all([...workers.live].map(stopWorker));
      removeInProgress(dataDir);
    },
  };
}
