/**
 * The scheduled price changes' job (electron/prices/scheduled-job.ts) on a real SQLite file, time driven by the test
 * (its clock and the loop's timers): a change due while the till was off is applied at `start`; then the job sleeps
 * until the next pending change, at most an hour; a failed pass is logged and retried after the back-off.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/db/open.ts';
import { createCatalogService } from '../../electron/catalog/service.ts';
import { createPricesService } from '../../electron/prices/service.ts';
import { scheduledPricesJob, SCHEDULED_PRICES_MAX_SLEEP_MS } from '../../electron/prices/scheduled-job.ts';
import type { LoopTimers } from '../../electron/retry/loop.ts';
import { POLICIES } from '../../electron/retry/policy.ts';

const HOUR = 3_600_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-price-job-'));
const db = openDatabase(path.join(dir, 'kasa.sqlite'));
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let clock = Date.parse('2026-11-28T14:00:00Z');
const catalog = createCatalogService(db, () => new Date(clock));
const prices = createPricesService(db, catalog, { audit: () => undefined, now: () => clock });
catalog.put({
  code: 'HL',
  name: 'Хлеб',
  pricePara: 120_00,
  label: 'A',
  unit: 'piece',
  group: null,
  favourite: false,
  barcodes: [],
});
const priceOf = (code: string): number | undefined => catalog.product(code, [])?.pricePara;

/** Timers the test fires: the last one armed, with its delay. */
function testTimers(): { timers: LoopTimers; armed: { fn: () => void; ms: number }[] } {
  const armed: { fn: () => void; ms: number }[] = [];
  const timers: LoopTimers = {
    setTimeout: (fn, ms) => (armed.push({ fn, ms }), {}),
    setInterval: (fn, ms) => (armed.push({ fn, ms }), {}),
    clear: () => undefined,
  };
  return { timers, armed };
}

describe('the scheduled prices job', () => {
  it('applies a change due while the till was off at start, then sleeps until the next one (at most an hour)', async () => {
    prices.schedule({ managerPin: '', code: 'HL', price: 130, at: new Date(clock + HOUR).toISOString() });
    prices.schedule({ managerPin: '', code: 'HL', price: 140, at: new Date(clock + 3 * HOUR).toISOString() });
    clock += HOUR + 1; // the till was off when the first was due
    const { timers, armed } = testTimers();
    let applied = 0;
    const warned: string[] = [];
    const job = scheduledPricesJob(prices, { onApplied: () => applied++, warn: (m) => warned.push(m), timers });
    job.start();
    expect(priceOf('HL')).toBe(130_00);
    // The first pass (at once): nothing more due; the next change is two hours away, the job sleeps one (its longest).
    expect(armed.at(-1)?.ms).toBe(SCHEDULED_PRICES_MAX_SLEEP_MS);
    expect(SCHEDULED_PRICES_MAX_SLEEP_MS).toBe(HOUR);
    clock += HOUR;
    armed.at(-1)?.fn();
    expect(applied).toBe(0);
    expect(armed.at(-1)?.ms).toBe(HOUR - 1);
    clock += HOUR;
    armed.at(-1)?.fn();
    expect(priceOf('HL')).toBe(140_00);
    expect(applied).toBe(1);
    expect(warned).toEqual([]);
    await job.stop();
  });

  it('a failed pass is logged and retried after the back-off; applied once it succeeds', async () => {
    prices.schedule({ managerPin: '', code: 'HL', price: 150, at: new Date(clock + 1000).toISOString() });
    clock += 1000;
    let broken = true;
    const flaky = {
      applyDue: () => {
        if (broken) throw new Error('disk busy');
        return prices.applyDue();
      },
      nextDueInMs: () => prices.nextDueInMs(),
    };
    const { timers, armed } = testTimers();
    const warned: string[] = [];
    let applied = 0;
    const job = scheduledPricesJob(flaky, { onApplied: () => applied++, warn: (m) => warned.push(m), timers });
    job.start();
    // At start, then the loop's first pass at once.
    expect(warned).toEqual([
      'scheduled prices not applied at start: disk busy',
      'scheduled prices not applied: disk busy',
    ]);
    expect(armed.at(-1)?.ms).toBe(POLICIES.scheduledPrices.baseMs);
    broken = false;
    armed.at(-1)?.fn();
    expect(priceOf('HL')).toBe(150_00);
    expect(applied).toBe(1);
    await job.stop();
  });
});
