/**
 * Start-up crash safety: `PRAGMA quick_check` of the open database, then the day's backup (see
 * backup.ts) unless one was already taken today or the check failed (a damaged database must not
 * push a good backup out of the last seven). Plain Node: the Electron app and the host both call it.
 */
import type { Db } from './open.ts';
import { backupDue, createBackup, KEEP_BACKUPS, type BackupInfo } from './backup.ts';

interface LogLike {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

export interface QuickCheckResult {
  ok: boolean;
  /** SQLite's messages when not ok (at most 20). */
  problems: string[];
  ms: number;
  /** True until the background check has run (maintenance.ts); nothing found yet. */
  pending?: boolean;
}

/** `PRAGMA quick_check`: the O(N) structural check (no index-content comparison). */
export function quickCheck(db: Db): QuickCheckResult {
  const started = performance.now();
  try {
    const rows = db.pragma('quick_check(20)') as { quick_check: string }[];
    const problems = rows.map((r) => r.quick_check).filter((m) => m !== 'ok');
    return { ok: rows.length > 0 && problems.length === 0, problems, ms: Math.round(performance.now() - started) };
  } catch (err) {
    return { ok: false, problems: [err instanceof Error ? err.message : String(err)], ms: Math.round(performance.now() - started) };
  }
}

export interface StartupReport {
  integrity: QuickCheckResult;
  /** The backup taken now, or null (not due, skipped after a failed check, or failed: see backupError). */
  backup: BackupInfo | null;
  backupError: string | null;
}

/**
 * Runs at start, after the database is opened: quick_check, then the daily backup when due. Never throws;
 * everything it finds is logged and returned (the UI may show `integrity.ok === false` to the manager,
 * with the list of backups to restore from).
 */
export async function runStartupChecks(
  db: Db,
  dataDir: string,
  logger: LogLike,
  options: { now?: number; keep?: number } = {},
): Promise<StartupReport> {
  const integrity = quickCheck(db);
  if (integrity.ok) logger.info(`database quick_check ok (${integrity.ms} ms)`);
  else logger.error(`database quick_check FAILED: ${integrity.problems.join('; ')}; no backup taken; restore one from the manager screen`);
  let backup: BackupInfo | null = null;
  let backupError: string | null = null;
  if (integrity.ok && backupDue(dataDir, options.now)) {
    try {
      backup = await createBackup(db, dataDir, { now: options.now, keep: options.keep ?? KEEP_BACKUPS });
      logger.info(`daily backup ${backup.name} (${backup.bytes} bytes)`);
    } catch (err) {
      backupError = err instanceof Error ? err.message : String(err);
      logger.error(`daily backup failed: ${backupError}`);
    }
  }
  return { integrity, backup, backupError };
}

/**
 * For a till left running for days: checks every `intervalMs` (default hourly) whether the day's backup
 * is due and takes it. Returns the function that stops it (call before closing the database).
 */
export function startBackupSchedule(
  db: Db,
  dataDir: string,
  logger: LogLike,
  options: { intervalMs?: number; now?: () => number; keep?: number } = {},
): () => void {
  const now = options.now ?? Date.now;
  let running = false;
  const timer = setInterval(() => {
    if (running || !db.open || !backupDue(dataDir, now())) return;
    running = true;
    createBackup(db, dataDir, { now: now(), keep: options.keep ?? KEEP_BACKUPS })
      .then((b) => logger.info(`daily backup ${b.name} (${b.bytes} bytes)`))
      .catch((err: unknown) => logger.error(`daily backup failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs ?? 60 * 60 * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
