import { describe, expect, it } from 'vitest';
import { BASE_LOCK_MS, MAX_FAILURES, beginAttempt, emptyRow, freshen, takeBack, type AttemptRow } from './attempts.ts';

/** Runs `n` attempts on the scopes' rows, carrying the rows forward as a store would. */
const run = (rows: AttemptRow[], n: number, now: number): { rows: AttemptRow[]; refused: number } => {
  let refused = 0;
  for (let i = 0; i < n; i++) {
    const d = beginAttempt(rows, now);
    rows = d.rows;
    if (d.refusedUntil !== null) refused++;
  }
  return { rows, refused };
};

describe('PIN attempt counting (shared by the till and the hub)', () => {
  it('counts 5 attempts, then locks every full scope, doubling the lock each time', () => {
    const t = 1_000_000;
    const first = run([emptyRow('shop:1', t), emptyRow('source:a', t)], 8, t);
    expect(first.refused).toBe(8 - MAX_FAILURES);
    expect(first.rows.map((r) => [r.lockouts, r.lockedUntil])).toEqual([
      [1, t + BASE_LOCK_MS],
      [1, t + BASE_LOCK_MS],
    ]);
    const later = t + BASE_LOCK_MS + 1;
    const second = run(first.rows, MAX_FAILURES + 1, later);
    expect(second.refused).toBe(1);
    expect(second.rows[0]?.lockedUntil).toBe(later + 2 * BASE_LOCK_MS);
  });

  it('a locked scope refuses even when the other scope is fresh; a match takes back only its own count', () => {
    const t = 5_000_000;
    const locked: AttemptRow = { ...emptyRow('shop:1', t), lockedUntil: t + 10 };
    const d = beginAttempt([locked, emptyRow('source:b', t)], t);
    expect(d.refusedUntil).toBe(t + 10);
    expect(d.rows[1]?.failures).toBe(0);
    const counted = beginAttempt([emptyRow('x', t)], t).rows[0] as AttemptRow;
    expect(takeBack({ ...counted, failures: 3 }, t).failures).toBe(2);
  });

  it('forgets failures after 15 quiet minutes and the lockout doubling after a quiet day', () => {
    const row: AttemptRow = { scope: 's', failures: 4, lockouts: 3, lockedUntil: 0, updatedAt: 0 };
    expect(freshen(row, 15 * 60_000 + 1)).toMatchObject({ failures: 0, lockouts: 3 });
    expect(freshen(row, 24 * 3_600_000 + 1)).toMatchObject({ failures: 0, lockouts: 0 });
  });
});
