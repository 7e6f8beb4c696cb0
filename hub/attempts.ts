/**
 * The hub's PIN attempt counters in its database (`auth_attempts`, migration 006): the storage of the
 * counting shared with the till (shared/auth/attempts.ts). An attempt is counted in one transaction that
 * holds the hub's login lock, BEFORE the PIN compare, so a parallel burst is serialised and at most
 * `MAX_FAILURES` guesses of a scope are ever compared before its lockout.
 */
import {
  beginAttempt,
  emptyRow,
  PIN_LOCK_POLICY,
  fromStored,
  takeBack,
  type AttemptDecision,
  type AttemptRow,
  type StoredAttemptRow,
} from '../shared/auth/attempts.ts';
import type { HubDb, Queryable } from './db/db.ts';
import { allowanceOf } from './login-throttle.ts';

/** Serialises every login attempt of the hub (on PostgreSQL across hub processes too). */
const LOGIN_LOCK = 715004;

async function load(q: Queryable, scope: string, now: number): Promise<AttemptRow> {
  const rows = await q.query<StoredAttemptRow>(
    'SELECT scope, failures, lockouts, locked_until, updated_at FROM auth_attempts WHERE scope = $1',
    [scope],
  );
  const r = rows[0];
  return r ? fromStored(r) : emptyRow(scope, now);
}

async function store(q: Queryable, r: AttemptRow): Promise<void> {
  await q.query(
    `INSERT INTO auth_attempts (scope, failures, lockouts, locked_until, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (scope) DO UPDATE SET failures = excluded.failures, lockouts = excluded.lockouts,
       locked_until = excluded.locked_until, updated_at = excluded.updated_at`,
    [r.scope, r.failures, r.lockouts, r.lockedUntil, r.updatedAt],
  );
}

/** Counts one attempt in every scope, or decides its refusal (a scope locked, or its allowance spent). */
export function beginLoginAttempt(db: HubDb, scopes: readonly string[], now: number): Promise<AttemptDecision> {
  return db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [LOGIN_LOCK]);
    const current: AttemptRow[] = [];
    for (const s of scopes) current.push(await load(q, s, now));
    const decision = beginAttempt(current, now, PIN_LOCK_POLICY, allowanceOf);
    for (const r of decision.rows) await store(q, r);
    return decision;
  });
}

/** A PIN matched: the attempt counted for it is taken back in every scope. */
export function loginSucceeded(db: HubDb, scopes: readonly string[], now: number): Promise<void> {
  return db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [LOGIN_LOCK]);
    for (const s of scopes) await store(q, takeBack(await load(q, s, now), now));
  });
}
