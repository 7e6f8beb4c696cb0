import { describe, expect, it } from 'vitest';
import { runHubChaos } from './chaos.ts';

describe.each(['pglite', 'postgres'] as const)(
  'hub chaos on %s (short; `npm run hub-chaos` runs the long one)',
  (backend) => {
    it('SIGKILLs tills and the hub at random moments: every till order reaches the hub exactly once, no gap; every till ends on the hub’s last price; every sale and every refund of an earlier sale moved its stock at the hub exactly once', async () => {
      const r = await runHubChaos({ backend, kills: 3, ordersPerLife: 6, seed: 11 });
      console.log(
        `hub chaos ${backend}: orders=${r.orders} kills=${JSON.stringify(r.kills)} lost=${r.lost} foreign=${r.foreign} gaps=${r.gaps} stale=${r.stale} stock: sales=${r.stock.sales} movements=${r.stock.movements} lost=${r.stock.lost} doubled=${r.stock.doubled} refunds: fired=${r.refunds.fired} at hub=${r.refunds.orders} movements=${r.refunds.movements} lost=${r.refunds.lost} doubled=${r.refunds.doubled}`,
      );
      expect(r.kills).toEqual({ till: 2, hub: 1 });
      expect(r.acknowledged).toBeGreaterThan(10);
      expect(r.lost).toBe(0);
      expect(r.foreign).toBe(0);
      expect(r.gaps).toBe(0);
      expect(r.stale).toBe(0);
      // The goods: sales of the catalog product reached the hub's book, each exactly once.
      expect(r.stock.sales).toBeGreaterThan(5);
      expect(r.stock.movements).toBe(r.stock.sales);
      expect(r.stock.lost).toBe(0);
      expect(r.stock.doubled).toBe(0);
      expect(r.stock.offBook).toBe(false);
      // Refunds of earlier sales, fired through the same kills: each moved its stock back exactly once.
      expect(r.refunds.fired).toBeGreaterThan(2);
      expect(r.refunds.orders).toBeGreaterThanOrEqual(r.refunds.fired);
      expect(r.refunds.movements).toBe(r.refunds.orders);
      expect(r.refunds.lost).toBe(0);
      expect(r.refunds.doubled).toBe(0);
    }, 240_000);
  },
);
