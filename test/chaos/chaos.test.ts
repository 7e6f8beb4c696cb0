import { describe, expect, it } from 'vitest';
import { runChaos, type ChaosResult } from './chaos.ts';

/**
 * What both runs must show whatever processor signed: every kill happened, enough orders were acknowledged to mean
 * something, and every order has exactly one receipt (none twice, none lost, none left unfiscalized).
 */
function expectExactlyOnce(r: ChaosResult): void {
  expect(r.kills).toBe(12);
  expect(r.acknowledged).toBeGreaterThan(100);
  expect(r.duplicates).toBe(0);
  expect(r.lost).toBe(0);
  expect(r.unfiscalized).toBe(0);
}

describe('chaos (short version; `npm run chaos -- --kills 1000` runs the long one)', () => {
  it('SIGKILLs the host at random moments under gateway faults: every order has exactly one receipt', async () => {
    const r = await runChaos({ kills: 12, ordersPerLife: 40, seed: 7 });
    console.log(
      `orders=${r.orders} kills=${r.kills} duplicates=${r.duplicates} lost=${r.lost} acknowledged=${r.acknowledged}`,
    );
    expectExactlyOnce(r);
  }, 180_000);

  it('with an L-PFR up, down, without its card or faulty, remembering one RequestId: exactly once across both processors', async () => {
    const r = await runChaos({ kills: 12, ordersPerLife: 40, seed: 11, lpfr: true, keep: 1 });
    console.log(
      `lpfr: orders=${r.orders} kills=${r.kills} duplicates=${r.duplicates} lost=${r.lost} ` +
        `signedByLpfr=${r.signedByLpfr} wrongProcessor=${r.wrongProcessor}`,
    );
    expectExactlyOnce(r);
    expect(r.signedByLpfr).toBeGreaterThan(0);
    expect(r.wrongProcessor).toBe(0);
  }, 180_000);
});
