/**
 * PIN attempt counting, the pure part shared by the till (electron/auth/attempts.ts, SQLite) and the hub
 * (hub/attempts.ts, PostgreSQL). Each side keeps one row per scope (the till; a person; a source address; a
 * shop) and runs `beginAttempt` on the scopes' rows inside one transaction that serialises attempts, BEFORE
 * the slow PIN compare, then writes back the rows it returns: so a parallel burst cannot outrun the lock and
 * at most `MAX_FAILURES` guesses per scope are compared before it. Each lockout doubles the previous one
 * (30 s, 60 s, … up to an hour). A matching PIN only takes back its own count (`takeBack`), so one's own
 * valid PIN between guesses does not reset them; counts are forgotten after 15 quiet minutes, the lockout
 * doubling after a quiet day. Times are epoch milliseconds.
 */

export const MAX_FAILURES = 5;
export const BASE_LOCK_MS = 30_000;
export const MAX_LOCK_MS = 3_600_000;
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const LOCKOUT_MEMORY_MS = 24 * 3_600_000;

/** One scope's counters as stored. */
export interface AttemptRow {
  scope: string;
  failures: number;
  lockouts: number;
  lockedUntil: number;
  updatedAt: number;
}

/** An attempt row as both sides store it (table `auth_attempts`, till and hub alike). */
export interface StoredAttemptRow {
  scope: string;
  failures: number;
  lockouts: number;
  locked_until: number;
  updated_at: number;
}

/** A stored row as the counting reads it. */
export const fromStored = (r: StoredAttemptRow): AttemptRow => ({
  scope: r.scope,
  failures: r.failures,
  lockouts: r.lockouts,
  lockedUntil: r.locked_until,
  updatedAt: r.updated_at,
});

export interface Lockout {
  scope: string;
  until: number;
}

/** How long the lock lasts: `baseMs` doubled per lockout before it, at most `capMs`. */
export interface LockPolicy {
  baseMs: number;
  capMs: number;
}

export const PIN_LOCK_POLICY: LockPolicy = { baseMs: BASE_LOCK_MS, capMs: MAX_LOCK_MS };

/** The length of the `n`-th lockout in a row (1 = the first). */
export function lockMs(policy: LockPolicy, n: number): number {
  return Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, Math.min(n - 1, 52)));
}

/** A new scope's row. */
export const emptyRow = (scope: string, now: number): AttemptRow => ({
  scope,
  failures: 0,
  lockouts: 0,
  lockedUntil: 0,
  updatedAt: now,
});

/** The row with what quiet time forgives forgotten: failures after 15 minutes, lockout doubling after a day. */
export function freshen(row: AttemptRow, now: number): AttemptRow {
  const quiet = now - Math.max(row.updatedAt, row.lockedUntil);
  return {
    ...row,
    failures: quiet > FAILURE_WINDOW_MS ? 0 : row.failures,
    lockouts: quiet > LOCKOUT_MEMORY_MS ? 0 : row.lockouts,
  };
}

export interface AttemptDecision {
  /** When the lock that refuses this attempt ends; null when the attempt is counted and may be compared. */
  refusedUntil: number | null;
  /** The scopes' rows to store, whatever the decision. */
  rows: AttemptRow[];
  /** Lockouts this attempt started (for an alarm or the audit). */
  started: Lockout[];
}

/**
 * One attempt over the scopes' current rows (`emptyRow` for a scope without one): refused without counting
 * when a scope is locked, or when it would exceed a scope's allowance (which starts that scope's lockout);
 * otherwise counted in every scope. `allowance` gives a scope's allowance (default `MAX_FAILURES` for all).
 */
export function beginAttempt(
  current: readonly AttemptRow[],
  now: number,
  policy: LockPolicy = PIN_LOCK_POLICY,
  allowance: (scope: string) => number = () => MAX_FAILURES,
): AttemptDecision {
  const rows = current.map((r) => freshen(r, now));
  const locked = rows.find((r) => r.lockedUntil > now);
  if (locked) return { refusedUntil: locked.lockedUntil, rows, started: [] };
  const full = rows.filter((r) => r.failures >= allowance(r.scope));
  if (full.length > 0) {
    const started: Lockout[] = [];
    const out = rows.map((r) => {
      if (r.failures < allowance(r.scope)) return r;
      const until = now + lockMs(policy, r.lockouts + 1);
      started.push({ scope: r.scope, until });
      return { ...r, failures: 0, lockouts: r.lockouts + 1, lockedUntil: until, updatedAt: now };
    });
    return { refusedUntil: Math.max(...started.map((s) => s.until)), rows: out, started };
  }
  return {
    refusedUntil: null,
    rows: rows.map((r) => ({ ...r, failures: r.failures + 1, updatedAt: now })),
    started: [],
  };
}

/** A PIN matched: the attempt `beginAttempt` counted is taken back. */
export const takeBack = (row: AttemptRow, now: number): AttemptRow => ({
  ...row,
  failures: Math.max(0, row.failures - 1),
  updatedAt: now,
});
