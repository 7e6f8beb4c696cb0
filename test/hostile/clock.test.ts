/**
 * Clock drift: the till's clock against the gateway's `sdcDateTime`, exposed in sync.status with a
 * warning over the `clockDriftMaxMs` setting (default 5 minutes). Real sandbox over HTTP, real SQLite.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeTill, sale, type Till } from '../faults/harness.ts';

const tills: Till[] = [];
afterEach(async () => {
  for (const t of tills.splice(0)) await t.close();
});

async function till(tillOffsetMs: number): Promise<Till> {
  const t = await makeTill({ tillOffsetMs });
  t.db
    .prepare(
      "INSERT INTO settings (key, value) VALUES ('language', 'en') ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    )
    .run();
  tills.push(t);
  return t;
}

describe('clock drift', () => {
  it('is unknown before any receipt, then measured from a freshly issued receipt', async () => {
    const t = await till(0);
    expect(t.engine.status()).toMatchObject({ clockDriftMs: null, clockWarning: null });
    await t.sales.checkout(sale());
    await t.settle();
    const s = t.engine.status();
    expect(Math.abs(s.clockDriftMs ?? Infinity)).toBeLessThan(1000);
    expect(s.clockWarning).toBeNull();
  });

  it('warns when the till is far behind the gateway, and the threshold is a setting', async () => {
    const t = await till(-12 * 60_000); // the till's clock is 12 minutes slow
    await t.sales.checkout(sale());
    await t.settle();
    const s = t.engine.status();
    expect(s.clockDriftMs).toBeGreaterThan(11 * 60_000);
    expect(s.clockWarning).toBe(
      "The till's clock is 12 min off the fiscal service's time. Set the computer's date and time.",
    );
    t.db.prepare("INSERT INTO settings (key, value) VALUES ('clockDriftMaxMs', '900000')").run();
    expect(t.engine.status().clockWarning).toBeNull();
  });

  it('warns when the till is ahead too', async () => {
    const t = await till(+7 * 60_000);
    await t.sales.checkout(sale());
    await t.settle();
    expect(t.engine.status().clockDriftMs).toBeLessThan(-6 * 60_000);
    expect(t.engine.status().clockWarning).toMatch(/7 min/);
  });

  it('ignores the old sdcDateTime of a receipt returned again for an order resent after a lost reply', async () => {
    const t = await till(0);
    t.sandbox.controls.setFaults([{ match: 'POST /receipt/', action: 'drop_after', times: 1 }]);
    const { orderNumber } = await t.sales.checkout(sale());
    await t.engine.runOnce();
    t.clock.now += 2 * 3600_000; // resent two hours later: the gateway returns the receipt issued then
    await t.settle();
    expect(t.store.getByNumber(orderNumber)?.state).toBe('fiscalized');
    expect(t.ledger().get(orderNumber)).toBe(1);
    expect(t.engine.status()).toMatchObject({ clockDriftMs: null, clockWarning: null });
  });
});
