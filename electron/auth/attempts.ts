/**
 * PIN attempt counters, persisted in SQLite (migration 006) per scope: the till, and the
 * person logged in when one is. An attempt is counted BEFORE the slow scrypt compare, in one synchronous
 * SQLite transaction, so parallel requests are serialised: at most `MAX_FAILURES` guesses run before the
 * lock, whatever the burst. Each lockout doubles the previous one (30 s, 60 s, … up to an hour).
 * A matching PIN only takes back its own count (so one's own valid PIN between guesses does not reset
 * them); counts are forgotten after 15 quiet minutes, lockout doubling after a quiet day.
 */
import type { Db } from '../db/open.ts';
import { CommandError } from '../errors.ts';
import { POLICIES, backoffMs } from '../retry/policy.ts';

export const MAX_FAILURES = 5;
export const BASE_LOCK_MS = POLICIES.pinLockout.baseMs;
export const MAX_LOCK_MS = POLICIES.pinLockout.capMs;
const FAILURE_WINDOW_MS = 15 * 60_000;
const LOCKOUT_MEMORY_MS = 24 * 3_600_000;

interface Row {
  scope: string;
  failures: number;
  lockouts: number;
  locked_until: number;
  updated_at: number;
}

export interface Lockout {
  scope: string;
  until: number;
}

export class PinAttempts {
  readonly #db: Db;
  readonly #now: () => number;
  readonly #onLockout: (l: Lockout) => void;

  constructor(db: Db, now: () => number, onLockout: (l: Lockout) => void) {
    this.#db = db;
    this.#now = now;
    this.#onLockout = onLockout;
  }

  /**
   * Counts one attempt in every scope, or refuses (`pin_locked`) without counting when a scope is locked
   * or this attempt would exceed the allowance (which starts the lockout).
   */
  begin(scopes: readonly string[]): void {
    const now = this.#now();
    const started: Lockout[] = [];
    const refusal = this.#db.transaction((): number | null => {
      const rows = scopes.map((scope) => this.#row(scope, now));
      const locked = rows.find((r) => r.locked_until > now);
      if (locked) return locked.locked_until;
      const full = rows.filter((r) => r.failures >= MAX_FAILURES);
      if (full.length > 0) {
        let until = now;
        for (const r of full) {
          const lockMs = backoffMs(POLICIES.pinLockout, r.lockouts + 1);
          until = Math.max(until, now + lockMs);
          this.#db
            .prepare(
              'UPDATE auth_attempts SET failures = 0, lockouts = lockouts + 1, locked_until = ?, updated_at = ? WHERE scope = ?',
            )
            .run(now + lockMs, now, r.scope);
          started.push({ scope: r.scope, until: now + lockMs });
        }
        return until;
      }
      for (const r of rows)
        this.#db
          .prepare('UPDATE auth_attempts SET failures = failures + 1, updated_at = ? WHERE scope = ?')
          .run(now, r.scope);
      return null;
    })();
    for (const l of started) this.#onLockout(l);
    if (refusal !== null) throw new CommandError('forbidden', 'pin_locked', { until: new Date(refusal).toISOString() });
  }

  /** A PIN matched: the attempt `begin` counted is taken back. */
  succeed(scopes: readonly string[]): void {
    const now = this.#now();
    const reset = this.#db.prepare(
      'UPDATE auth_attempts SET failures = max(0, failures - 1), updated_at = ? WHERE scope = ?',
    );
    this.#db.transaction(() => {
      for (const s of scopes) reset.run(now, s);
    })();
  }

  /** The current counters (tests, docs). */
  get(scope: string): Row | undefined {
    return this.#db
      .prepare<[string], Row>(
        'SELECT scope, failures, lockouts, locked_until, updated_at FROM auth_attempts WHERE scope = ?',
      )
      .get(scope);
  }

  #row(scope: string, now: number): Row {
    this.#db
      .prepare('INSERT INTO auth_attempts (scope, updated_at) VALUES (?, ?) ON CONFLICT(scope) DO NOTHING')
      .run(scope, now);
    const row = this.get(scope) as Row;
    const quiet = now - Math.max(row.updated_at, row.locked_until);
    if (quiet > FAILURE_WINDOW_MS && row.failures > 0) row.failures = 0;
    if (quiet > LOCKOUT_MEMORY_MS && row.lockouts > 0) row.lockouts = 0;
    this.#db
      .prepare('UPDATE auth_attempts SET failures = ?, lockouts = ? WHERE scope = ?')
      .run(row.failures, row.lockouts, scope);
    return row;
  }
}
