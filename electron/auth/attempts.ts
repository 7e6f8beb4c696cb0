/**
 * PIN attempt counters of the till, persisted in SQLite (migration 006) per scope: the till, and the person
 * logged in when one is. The counting itself is shared with the hub (shared/auth/attempts.ts); this is its
 * storage. An attempt is counted BEFORE the slow scrypt compare, in one synchronous SQLite transaction, so
 * parallel requests are serialised: at most `MAX_FAILURES` guesses run before the lock, whatever the burst.
 */
import type { Db } from '../db/open.ts';
import { CommandError } from '../errors.ts';
import { POLICIES } from '../retry/policy.ts';
import {
  beginAttempt,
  emptyRow,
  fromStored,
  takeBack,
  type AttemptRow,
  type Lockout,
  type StoredAttemptRow,
} from '../../shared/auth/attempts.ts';

export { MAX_FAILURES, type Lockout } from '../../shared/auth/attempts.ts';
export const BASE_LOCK_MS = POLICIES.pinLockout.baseMs;
export const MAX_LOCK_MS = POLICIES.pinLockout.capMs;

type Row = StoredAttemptRow;
const toAttempt = fromStored;

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
    const decision = this.#db.transaction(() => {
      const current = scopes.map((s) => {
        const r = this.get(s);
        return r ? toAttempt(r) : emptyRow(s, now);
      });
      const d = beginAttempt(current, now, POLICIES.pinLockout);
      for (const r of d.rows) this.#write(r);
      return d;
    })();
    for (const l of decision.started) this.#onLockout(l);
    if (decision.refusedUntil !== null)
      throw new CommandError('forbidden', 'pin_locked', { until: new Date(decision.refusedUntil).toISOString() });
  }

  /** A PIN matched: the attempt `begin` counted is taken back. */
  succeed(scopes: readonly string[]): void {
    const now = this.#now();
    this.#db.transaction(() => {
      for (const s of scopes) {
        const r = this.get(s);
        if (r) this.#write(takeBack(toAttempt(r), now));
      }
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

  #write(r: AttemptRow): void {
    this.#db
      .prepare(
        `INSERT INTO auth_attempts (scope, failures, lockouts, locked_until, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(scope) DO UPDATE SET failures = excluded.failures, lockouts = excluded.lockouts,
           locked_until = excluded.locked_until, updated_at = excluded.updated_at`,
      )
      .run(r.scope, r.failures, r.lockouts, r.lockedUntil, r.updatedAt);
  }
}
