/**
 * Reconciliation is bounded: an order whose outcome is unknown, past the dedupe margin, whose look-ups
 * keep failing, stops being looked up after its budget and waits in needs_attention with the gateway's
 * words. A person's resend looks it up again first (never a blind resend): one receipt at the gateway.
 * Real sandbox over HTTP, real SQLite.
 */
import { describe, expect, it } from 'vitest';
import { saleInput, type Rig } from '../support/rig.ts';
import { rigsAfterEach } from '../support/rigs.ts';
import { RECONCILE_LIMIT } from '../../electron/outbox/reconcile-budget.ts';

const DAY = 24 * 3600_000;
const newRig = rigsAfterEach();

const modes = (r: Rig, orderId: number) =>
  r.db
    .prepare<[number], { mode: string; outcome: string | null }>(
      'SELECT mode, outcome FROM attempts WHERE order_id = ? ORDER BY id',
    )
    .all(orderId)
    .map((a) => `${a.mode}:${a.outcome}`);

describe('reconciliation budget', () => {
  it('an unreadable archive record parks the order after maxLookupTries look-ups; a resend looks it up again and settles it once', async () => {
    const maxLookupTries = 4;
    const rig = await newRig({ engine: { concurrency: 1, bulkThreshold: 1000, maxLookupTries } });
    rig.sandbox.controls.setFaults([{ match: 'POST /receipt/normal/sale', action: 'drop_after', times: 1 }]);
    const sale = await rig.sales.checkout(saleInput(1, 40));
    await rig.engine.runOnce();
    expect(rig.store.outbox(sale.orderId)?.unknown).toBe(1);
    // Twenty days later the order may only be looked up; the archive answers garbage every time.
    rig.advance(20 * DAY);
    rig.sandbox.controls.setFaults([{ match: 'GET /archive/receipts/', action: 'malformed' }]);
    const before = rig.sandbox.controls.stats().requests;
    await rig.settle(200);

    const row = rig.store.get(sale.orderId);
    expect(row?.state).toBe('needs_attention');
    const error = JSON.parse(row?.last_error ?? '{}') as { code?: string; message?: string };
    expect(error.code).toBe(RECONCILE_LIMIT);
    expect(error.message).toContain(`${maxLookupTries} look-ups failed`);
    const after = rig.sandbox.controls.stats().requests;
    const archiveGets = Object.entries(after)
      .filter(([k]) => k.startsWith('GET /archive/receipts/'))
      .reduce((s, [k, n]) => s + n - (before[k] ?? 0), 0);
    expect(archiveGets).toBe(maxLookupTries);
    expect(modes(rig, sale.orderId).filter((m) => m.startsWith('lookup:'))).toHaveLength(maxLookupTries);
    expect(rig.ledgerCounts().get(sale.orderNumber)).toBe(1);

    // The archive works again; a person resends: looked up first, settled from the archive, never re-issued.
    rig.sandbox.controls.setFaults([]);
    rig.store.requeue(sale.orderId, null, null, rig.clock.now);
    await rig.settle();
    expect(rig.store.get(sale.orderId)?.state).toBe('fiscalized');
    expect(rig.store.get(sale.orderId)?.invoice_number).toBeTruthy();
    expect(rig.ledgerCounts().get(sale.orderNumber)).toBe(1);
    const last = modes(rig, sale.orderId);
    expect(last.at(-1)).toBe('lookup:issued');
    expect(last.filter((m) => m === 'single:issued' || m === 'bulk:issued')).toHaveLength(0);
  });

  it('an order missing from every lookup reply is parked too, not looked up forever', async () => {
    const maxLookupTries = 3;
    const rig = await newRig({ engine: { concurrency: 1, bulkThreshold: 1000, maxLookupTries } });
    rig.sandbox.controls.setOffline(true);
    const sale = await rig.sales.checkout(saleInput(1, 41));
    await rig.engine.runOnce();
    // A send whose outcome is unknown, 20 days old; every fiscalization-lookup reply is unreadable.
    rig.sandbox.controls.setOffline(false);
    rig.db
      .prepare('UPDATE outbox SET first_attempt_at = ?, unknown = 1 WHERE order_id = ?')
      .run(rig.clock.now, sale.orderId);
    rig.advance(20 * DAY);
    rig.sandbox.controls.setFaults([{ match: 'POST /archive/receipts/fiscalization-lookup', action: 'malformed' }]);
    await rig.settle(200);
    const row = rig.store.get(sale.orderId);
    expect(row?.state).toBe('needs_attention');
    expect((JSON.parse(row?.last_error ?? '{}') as { code?: string }).code).toBe(RECONCILE_LIMIT);
    expect(rig.sandbox.controls.stats().requests['POST /archive/receipts/fiscalization-lookup']).toBe(maxLookupTries);
    expect(rig.ledgerCounts().get(sale.orderNumber)).toBeUndefined();
  });
});
