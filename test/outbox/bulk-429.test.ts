/**
 * Two tills of one shop drain their backlogs through bulk at the same moment. The sandbox processes a
 * bulk for a realistic time (per receipt) and holds the shop's bulk lock meanwhile, so the second bulk gets
 * 429 — the real thing, no fault injected — and Kasa's wait-and-retry path runs: the orders are deferred
 * (journaled with status 429), sent again later, and every order ends with exactly one receipt.
 */
import { describe, expect, it } from 'vitest';
import { saleInput, type Rig } from '../support/rig.ts';
import { rigsAfterEach } from '../support/rigs.ts';

const newRig = rigsAfterEach();

describe('bulk 429 from a concurrent bulk of the same shop', () => {
  it('the second till waits and retries; every order is fiscalized exactly once', async () => {
    const engine = { concurrency: 0, bulkThreshold: 1, bulkSize: 30 };
    const a = await newRig({ engine, terminalId: 'T1', bulkDelayMsPerReceipt: 15 });
    const b = await newRig({ engine, terminalId: 'T2', sandbox: a.sandbox });
    a.sandbox.controls.setOffline(true);
    const orders: { rig: Rig; orderId: number; orderNumber: string }[] = [];
    for (let i = 0; i < 12; i++) {
      for (const r of [a, b]) orders.push({ rig: r, ...(await r.sales.checkout(saleInput(1, 10 + i))) });
    }
    a.sandbox.controls.setOffline(false);
    // Both tills send their bulk at once; one holds the shop's lock for ~180 ms.
    await Promise.all([a.engine.runOnce(), b.engine.runOnce()]);
    await Promise.all([a.settle(), b.settle()]);

    const deferred = [a, b].flatMap((r) =>
      r.db
        .prepare<[], { outcome: string; http_status: number | null }>(
          "SELECT outcome, http_status FROM attempts WHERE outcome = 'deferred'",
        )
        .all(),
    );
    expect(deferred.length).toBeGreaterThan(0);
    expect(deferred.every((d) => d.http_status === 429)).toBe(true);
    const counts = a.ledgerCounts();
    for (const o of orders) {
      expect(o.rig.store.get(o.orderId)?.state).toBe('fiscalized');
      expect(counts.get(o.orderNumber)).toBe(1);
    }
    expect(
      a.sandbox.controls.stats().requests['POST /receipt/{invoiceType}/{transactionType}/bulk'],
    ).toBeGreaterThanOrEqual(3);
  });
});
