/**
 * Integrity of the database: `PRAGMA quick_check` and what the background maintenance found (the check
 * and the day's backup run after start-up, in a worker: maintenance.ts, docs/history.md).
 */
import type { Db } from './open.ts';
import type { BackupInfo } from './backup.ts';

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
    return {
      ok: false,
      problems: [err instanceof Error ? err.message : String(err)],
      ms: Math.round(performance.now() - started),
    };
  }
}

export interface StartupReport {
  integrity: QuickCheckResult;
  /** The backup taken now, or null (not due, skipped after a failed check, or failed: see backupError). */
  backup: BackupInfo | null;
  backupError: string | null;
}
