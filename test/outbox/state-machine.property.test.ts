/**
 * Property: whatever the gateway does to each request (drop before, lose the response after issuing,
 * 500, malformed reply, delay) and in whatever order, every order ends in exactly one of fiscalized
 * (with exactly one receipt in the gateway's ledger) or needs_attention (with none), and the outbox is empty.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { makeRig, saleInput } from '../support/rig.ts';

const ACTIONS = ['drop_before', 'drop_after', 'error500', 'malformed', 'delay'] as const;

describe('order state machine (property-based)', () => {
  it('any interleaving of outcomes ends in exactly one terminal state per order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...ACTIONS), { maxLength: 10 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (faults, rejectedFlags, bulk) => {
          const rig = await makeRig({ engine: { concurrency: 1, bulkThreshold: bulk ? 1 : 1000 } });
          try {
            rig.sandbox.controls.setFaults(
              faults.map((action) => ({ match: 'POST /receipt/', action, times: 1, delayMs: 0 })),
            );
            const orders = [];
            for (const rejected of rejectedFlags)
              orders.push(await rig.sales.checkout(saleInput(1, 10, rejected ? 'Ж' : 'A')));
            await rig.settle(400);
            const ledger = rig.ledgerCounts();
            orders.forEach((o, i) => {
              const state = rig.store.get(o.orderId)?.state;
              if (rejectedFlags[i]) {
                expect(state).toBe('needs_attention');
                expect(ledger.get(o.orderNumber)).toBeUndefined();
              } else {
                expect(state).toBe('fiscalized');
                expect(ledger.get(o.orderNumber)).toBe(1);
              }
            });
            expect(rig.store.counts().queued).toBe(0);
          } finally {
            await rig.close();
          }
        },
      ),
      { numRuns: 40, seed: 20261122 },
    );
  }, 120_000);
});
