/** The named backoff policies: full jitter within its ceiling, the other jitters, and budgets that end retries. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open.ts';
import { RetryBudgets } from './budget.ts';
import { POLICIES, backoffCeilingMs, backoffMs, type BackoffPolicy } from './policy.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A seeded generator, so a failure names the draws that made it. */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

describe('backoff policies', () => {
  it('full jitter stays within [0, min(cap, base × 2^(n−1))] and reaches both ends', () => {
    const p: BackoffPolicy = { baseMs: 100, capMs: 5000, jitter: 'full' };
    const random = lcg(22);
    for (let n = 1; n <= 12; n++) {
      const ceiling = Math.min(5000, 100 * 2 ** (n - 1));
      expect(backoffCeilingMs(p, n)).toBe(ceiling);
      for (let i = 0; i < 200; i++) {
        const ms = backoffMs(p, n, random);
        expect(ms).toBeGreaterThanOrEqual(0);
        expect(ms).toBeLessThanOrEqual(ceiling);
        expect(Number.isInteger(ms)).toBe(true);
      }
    }
    expect(backoffMs(p, 3, () => 0)).toBe(0);
    expect(backoffMs(p, 3, () => 0.999_999)).toBe(399);
    expect(backoffMs(p, 40, () => 0.999_999)).toBe(4999);
  });

  it('never overflows, stops doubling at maxDoublings, and adds its floor', () => {
    expect(backoffCeilingMs({ baseMs: 1, capMs: 10, jitter: 'none' }, 1e9)).toBe(10);
    expect(backoffCeilingMs({ baseMs: 1, capMs: 1e12, jitter: 'none', maxDoublings: 3 }, 10)).toBe(8);
    expect(backoffMs(POLICIES.gatewaySend, 1, () => 0)).toBe(100);
    expect(backoffMs(POLICIES.gatewaySend, 30, () => 0.5)).toBe(100 + 150_000);
    expect(backoffMs(POLICIES.gatewayBusy, 1, () => 0.999_999)).toBe(1999);
  });

  it('equal jitter waits at least half its ceiling; none waits the ceiling', () => {
    const p = POLICIES.gatewayProbe;
    for (let n = 1; n <= 8; n++) {
      const c = backoffCeilingMs(p, n);
      expect(backoffMs(p, n, () => 0)).toBe(c / 2);
      expect(backoffMs(p, n, () => 0.999_999)).toBeLessThan(c);
    }
    expect([1, 2, 3, 4, 10].map((n) => backoffMs(POLICIES.pinLockout, n))).toEqual([
      30_000, 60_000, 120_000, 240_000, 3_600_000,
    ]);
  });

  it('the named policies keep the numbers the loops were measured with', () => {
    expect([1, 2, 3, 9, 20].map((n) => backoffMs(POLICIES.email, n))).toEqual([
      5_000, 10_000, 20_000, 900_000, 900_000,
    ]);
    expect([1, 2, 6].map((n) => backoffMs(POLICIES.printer, n))).toEqual([1000, 2000, 30_000]);
    expect(POLICIES.hubSync).toMatchObject({ jitter: 'full', baseMs: 1000 });
  });

  it('a budgeted policy ends the retries after maxTries, each try waiting its backoff', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-policy-'));
    dirs.push(dir);
    const db = openDatabase(path.join(dir, 'kasa.sqlite'));
    const clock = { now: 0 };
    const b = new RetryBudgets(db, () => clock.now);
    const { maxTries } = POLICIES.journal;
    for (let n = 1; n < maxTries; n++) {
      expect(b.failed('journal', 'X-1', 'X-1', 'offline')).toBe('retrying');
      expect(b.retryAt('journal', 'X-1')).toBe(clock.now + backoffMs(POLICIES.journal, n));
      clock.now = b.retryAt('journal', 'X-1') ?? 0;
    }
    expect(b.failed('journal', 'X-1', 'X-1', 'offline')).toBe('needs_attention');
    expect(b.mayTry('journal', 'X-1')).toBe(false);
    db.close();
  });
});
