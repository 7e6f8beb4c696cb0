/** Migration 008 (retry_budgets) and RetryBudgets on a real SQLite file: tries, age, backoff, resume, restart. */
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open.ts';
import { MIGRATIONS } from '../db/migrations/index.ts';
import { m008 } from '../db/migrations/008_retry_budgets.ts';
import { RetryBudgets } from './budget.ts';
import { tempDirs } from '../../test/support/temp-dirs.ts';

const { file: tmpFile, cleanup } = tempDirs('kasa-budget-');
afterEach(cleanup);

describe('migration 008 retry_budgets', () => {
  it('follows history (007) in order and creates the table with one row per loop and item and a checked state', () => {
    const at = MIGRATIONS.indexOf(m008);
    expect(at).toBeGreaterThan(0);
    expect(MIGRATIONS[at - 1]?.name).toBe('history');
    expect(at + 1).toBe(8);
    const db = openDatabase(tmpFile());
    const insert = db.prepare(
      "INSERT INTO retry_budgets (loop, item, label, first_at, next_at, state) VALUES ('email', '1', 'x', 0, 0, ?)",
    );
    insert.run('retrying');
    expect(() => insert.run('retrying')).toThrow(/UNIQUE|PRIMARY/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO retry_budgets (loop, item, label, first_at, next_at, state) VALUES ('email', '2', 'x', 0, 0, 'lost')",
        )
        .run(),
    ).toThrow(/CHECK/);
    db.close();
  });
});

describe('RetryBudgets', () => {
  it('backs off, needs a person after maxTries, survives a restart and starts fresh when resumed', () => {
    const file = tmpFile();
    const clock = { now: 1_000_000 };
    let db = openDatabase(file);
    let b = new RetryBudgets(db, () => clock.now, { email: { maxTries: 3, baseMs: 1000, capMs: 3000 } });
    expect(b.mayTry('email', '7')).toBe(true);
    expect(b.failed('email', '7', 'a@example.com', 'HTTP 500')).toBe('retrying');
    expect(b.mayTry('email', '7')).toBe(false);
    clock.now += 1000;
    expect(b.mayTry('email', '7')).toBe(true);
    expect(b.failed('email', '7', 'a@example.com', 'HTTP 502')).toBe('retrying');
    expect(b.nextDue('email')).toBe(clock.now + 2000);
    db.close();
    // A restart neither forgets nor resets the budget.
    db = openDatabase(file);
    b = new RetryBudgets(db, () => clock.now, { email: { maxTries: 3, baseMs: 1000, capMs: 3000 } });
    clock.now += 2000;
    expect(b.failed('email', '7', 'a@example.com', 'the gateway said no')).toBe('needs_attention');
    clock.now += 3_600_000;
    expect(b.mayTry('email', '7')).toBe(false);
    expect(b.attention()).toEqual([
      { loop: 'email', item: '7', label: 'a@example.com', tries: 3, lastError: 'the gateway said no' },
    ]);
    expect(b.resume('email', '7')).toBe(true);
    expect(b.mayTry('email', '7')).toBe(true);
    expect(b.attention()).toEqual([]);
    db.close();
  });

  it('needs a person after maxAgeMs since the first failure, whatever the count', () => {
    const clock = { now: 0 };
    const db = openDatabase(tmpFile());
    const b = new RetryBudgets(db, () => clock.now, { drafts: { maxTries: 100, maxAgeMs: 10_000 } });
    expect(b.failed('drafts', 'push:1', 'cart', 'offline')).toBe('retrying');
    clock.now += 10_000;
    expect(b.failed('drafts', 'push:1', 'cart', 'offline')).toBe('needs_attention');
    b.succeeded('drafts', 'push:1');
    expect(b.attention()).toEqual([]);
    db.close();
  });
});
