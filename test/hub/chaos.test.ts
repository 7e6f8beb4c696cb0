import { describe, expect, it } from 'vitest';
import { runHubChaos } from './chaos.ts';

describe.each(['pglite', 'postgres'] as const)(
  'hub chaos on %s (short; `npm run hub-chaos` runs the long one)',
  (backend) => {
    it('SIGKILLs tills and the hub at random moments: every till order reaches the hub exactly once, no gap; every till ends on the hub’s last price', async () => {
      const r = await runHubChaos({ backend, kills: 3, ordersPerLife: 6, seed: 11 });
      console.log(
        `hub chaos ${backend}: orders=${r.orders} kills=${JSON.stringify(r.kills)} lost=${r.lost} foreign=${r.foreign} gaps=${r.gaps} stale=${r.stale}`,
      );
      expect(r.kills).toEqual({ till: 2, hub: 1 });
      expect(r.acknowledged).toBeGreaterThan(10);
      expect(r.lost).toBe(0);
      expect(r.foreign).toBe(0);
      expect(r.gaps).toBe(0);
      expect(r.stale).toBe(0);
    }, 240_000);
  },
);
