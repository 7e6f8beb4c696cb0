/**
 * The outbox and sync engine against the real sandbox gateway over HTTP, with real SQLite files.
 * Exactly once: every order ends with one receipt in the gateway's ledger, or in needs_attention with none.
 */
import { describe, expect, it } from 'vitest';
import { saleInput, type Rig } from '../support/rig.ts';
import { rigsAfterEach } from '../support/rigs.ts';
import { SyncEngine } from '../../electron/outbox/engine.ts';
import { GatewayClient } from '../../electron/gateway/client.ts';

const DAY = 24 * 3600_000;
const newRig = rigsAfterEach();

const attemptsOf = (r: Rig, orderId: number) =>
  r.db
    .prepare<
      [number],
      { mode: string; outcome: string | null; http_status: number | null; correlation_id: string | null }
    >('SELECT mode, outcome, http_status, correlation_id FROM attempts WHERE order_id = ? ORDER BY id')
    .all(orderId);

describe('sync engine', () => {
  it('fiscalizes a sale within the online budget and journals the attempt', async () => {
    const rig = await newRig({ onlineBudgetMs: 5000 });
    rig.engine.start();
    const res = await rig.sales.checkout(saleInput(2, 150));
    expect(res.state).toBe('fiscalized');
    expect(res.receipt?.invoiceNumber).toMatch(/^[^-]+-[^-]+-\d+$/);
    expect(res.receipt?.journal).toContain('ФИСКАЛНИ РАЧУН');
    expect(rig.ledgerCounts().get(res.orderNumber)).toBe(1);
    const attempts = attemptsOf(rig, res.orderId);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ mode: 'single', outcome: 'issued', http_status: 201 });
    expect(attempts[0]?.correlation_id).toBeTruthy();
    expect(rig.store.outbox(res.orderId)).toBeUndefined();
  });

  it('answers queued when the gateway is slower than the budget, and fiscalizes later', async () => {
    const rig = await newRig({ onlineBudgetMs: 50 });
    rig.sandbox.controls.setLatency(400);
    rig.engine.start();
    const res = await rig.sales.checkout(saleInput());
    expect(res.state).toBe('queued');
    await rig.engine.waitForSettled(res.orderId, 5000);
    expect(rig.store.get(res.orderId)?.state).toBe('fiscalized');
  });

  it('freezes the request body: the resend after a lost response is byte-identical and deduplicated', async () => {
    const rig = await newRig();
    rig.sandbox.controls.setFaults([{ match: 'POST /receipt/normal/sale', action: 'drop_after', times: 1 }]);
    const { orderId, orderNumber } = await rig.sales.checkout(saleInput());
    const frozen = rig.store.get(orderId)?.request;
    expect(JSON.parse(frozen ?? '{}').settings.returnIfOrderNumberExists).toBe(true);
    await rig.settle();
    expect(rig.store.get(orderId)?.state).toBe('fiscalized');
    expect(rig.store.get(orderId)?.request).toBe(frozen);
    expect(rig.ledgerCounts().get(orderNumber)).toBe(1);
    expect(attemptsOf(rig, orderId).map((a) => a.outcome)).toEqual(['unknown', 'issued']);
  });

  it('keeps selling offline, probes without spamming, and drains once the gateway is back', async () => {
    const rig = await newRig();
    rig.sandbox.controls.setOffline(true);
    const orders = [];
    for (let i = 0; i < 3; i++) orders.push(await rig.sales.checkout(saleInput(1, 10 + i)));
    await rig.engine.runOnce();
    expect(rig.engine.status()).toMatchObject({ online: false, queued: 3 });
    const before = rig.sandbox.controls.stats().total;
    for (let i = 0; i < 5; i++) await rig.engine.runOnce(); // clock not moved: no probe is due yet
    expect(rig.sandbox.controls.stats().total).toBe(before);
    rig.sandbox.controls.setOffline(false);
    await rig.settle();
    expect(rig.engine.status()).toMatchObject({ online: true, queued: 0 });
    for (const o of orders) {
      expect(rig.store.get(o.orderId)?.state).toBe('fiscalized');
      expect(rig.ledgerCounts().get(o.orderNumber)).toBe(1);
    }
  });

  it('parks a Tax Administration rejection in needs_attention, and a fixed label resends it under the same number', async () => {
    const rig = await newRig();
    const { orderId, orderNumber } = await rig.sales.checkout(saleInput(1, 100, 'Ж'));
    await rig.settle();
    const row = rig.store.get(orderId);
    expect(row?.state).toBe('needs_attention');
    const view = rig.store.view(row!);
    expect(view.lastError).toMatchObject({ status: 400, code: 'ERR_01010', reason: '2310' });
    expect(rig.store.outbox(orderId)).toBeUndefined();
    expect(rig.ledgerCounts().get(orderNumber)).toBeUndefined();

    const body = JSON.parse(row!.request!);
    body.items[0].labels = ['A'];
    rig.store.requeue(orderId, JSON.stringify(body), null, rig.clock.now);
    await rig.settle();
    expect(rig.store.get(orderId)?.state).toBe('fiscalized');
    expect(rig.store.get(orderId)?.order_number).toBe(orderNumber);
    expect(rig.ledgerCounts().get(orderNumber)).toBe(1);
  });

  it('pauses everything on 401 and resumes when told the key changed', async () => {
    const rig = await newRig();
    let key = 'wrong-key';
    const engine = new SyncEngine({
      store: rig.store,
      client: () => new GatewayClient({ baseUrl: rig.sandbox.url, apiKey: key }),
      now: () => rig.clock.now,
    });
    const a = await rig.sales.checkout(saleInput());
    const b = await rig.sales.checkout(saleInput());
    await engine.runOnce();
    expect(engine.status()).toMatchObject({ paused: 'auth', queued: 2 });
    const sent = rig.sandbox.controls.stats().total;
    await engine.runOnce();
    expect(rig.sandbox.controls.stats().total).toBe(sent); // paused: nothing more is sent
    key = 'demo-key';
    engine.kick(); // a new sale alone does not lift an auth pause
    await engine.runOnce();
    expect(engine.status().paused).toBe('auth');
    engine.resume();
    for (let i = 0; i < 5 && engine.status().queued > 0; i++) {
      rig.advance(60_000);
      await engine.runOnce();
    }
    expect(engine.status()).toMatchObject({ paused: null, queued: 0 });
    expect(rig.store.get(a.orderId)?.state).toBe('fiscalized');
    expect(rig.store.get(b.orderId)?.state).toBe('fiscalized');
  });

  it('retries 500s and malformed replies with backoff, never issuing twice', async () => {
    const rig = await newRig();
    rig.sandbox.controls.setFaults([
      { match: 'POST /receipt/normal/sale', action: 'error500', times: 2 },
      { match: 'POST /receipt/normal/sale', action: 'malformed', times: 1 },
    ]);
    const { orderId, orderNumber } = await rig.sales.checkout(saleInput());
    await rig.settle();
    expect(rig.store.get(orderId)?.state).toBe('fiscalized');
    expect(rig.ledgerCounts().get(orderNumber)).toBe(1);
    expect(attemptsOf(rig, orderId).map((a) => a.outcome)).toEqual(['unknown', 'unknown', 'unknown', 'issued']);
  });

  it('drains a backlog through bulk requests of at most 30, matched by order number', async () => {
    // Bulks answered at once: how many go out must not depend on how fast the single lane runs meanwhile
    // (the realistic processing delay and its 429 are tested in bulk-429.test.ts).
    const rig = await newRig({ engine: { concurrency: 1 }, bulkDelayMsPerReceipt: 0 });
    rig.sandbox.controls.setOffline(true);
    const orders = [];
    for (let i = 0; i < 95; i++) orders.push(await rig.sales.checkout(saleInput(1, 1 + i)));
    rig.sandbox.controls.setOffline(false);
    await rig.settle();
    const stats = rig.sandbox.controls.stats().requests;
    const bulks = Object.entries(stats)
      .filter(([k]) => k.includes('/bulk'))
      .reduce((s, [, n]) => s + n, 0);
    expect(bulks).toBeGreaterThanOrEqual(3);
    const counts = rig.ledgerCounts();
    for (const o of orders) {
      expect(rig.store.get(o.orderId)?.state).toBe('fiscalized');
      expect(counts.get(o.orderNumber)).toBe(1);
    }
    const bulkAttempts = rig.db.prepare("SELECT count(*) AS n FROM attempts WHERE mode = 'bulk'").get() as {
      n: number;
    };
    expect(bulkAttempts.n).toBeGreaterThan(0);
  });

  it('treats an attempt left open by a crash as unknown and resolves it without a duplicate', async () => {
    const rig = await newRig();
    rig.sandbox.controls.setFaults([{ match: 'POST /receipt/normal/sale', action: 'drop_after', times: 1 }]);
    const { orderId, orderNumber } = await rig.sales.checkout(saleInput());
    // The process "dies" between journaling the attempt and recording its outcome.
    rig.store.startAttempts([orderId], 'single', rig.clock.now);
    await rig.client.issueSale('normal', rig.store.get(orderId)!.request!).catch(() => undefined);
    expect(rig.ledgerCounts().get(orderNumber)).toBe(1);
    // A new process starts: the open attempt becomes UNKNOWN, and the order is resolved by a deduplicated resend.
    const fresh = new SyncEngine({ store: rig.store, client: () => rig.client, now: () => rig.clock.now });
    fresh.start();
    await fresh.waitForSettled(orderId, 5000);
    await fresh.stop();
    expect(attemptsOf(rig, orderId).map((a) => a.outcome)).toEqual(['unknown', 'issued']);
    expect(rig.store.get(orderId)?.state).toBe('fiscalized');
    expect(rig.ledgerCounts().get(orderNumber)).toBe(1);
  });

  it('after a 20-day outage resolves unknown orders through fiscalization-lookup and the archive, not a resend', async () => {
    const rig = await newRig({ engine: { concurrency: 1, bulkThreshold: 1000 } });
    // Three orders whose responses are lost (issued at the gateway), one never sent.
    rig.sandbox.controls.setFaults([{ match: 'POST /receipt/normal/sale', action: 'drop_after' }]);
    const lost = [];
    for (let i = 0; i < 3; i++) lost.push(await rig.sales.checkout(saleInput(1, 20 + i)));
    for (let i = 0; i < 50 && lost.some((o) => attemptsOf(rig, o.orderId).length === 0); i++) {
      await rig.engine.runOnce();
      rig.advance(120_000);
    }
    for (const o of lost) expect(rig.store.outbox(o.orderId)?.unknown).toBe(1);
    rig.sandbox.controls.setOffline(true);
    rig.sandbox.controls.setFaults([]);
    await rig.engine.runOnce();
    const unsent = await rig.sales.checkout(saleInput(1, 99));
    rig.advance(20 * DAY);
    rig.sandbox.controls.setOffline(false);
    await rig.settle();
    const counts = rig.ledgerCounts();
    for (const o of [...lost, unsent]) {
      expect(rig.store.get(o.orderId)?.state).toBe('fiscalized');
      expect(counts.get(o.orderNumber)).toBe(1);
    }
    const lookups = rig.sandbox.controls.stats().requests['POST /archive/receipts/fiscalization-lookup'] ?? 0;
    expect(lookups).toBeGreaterThan(0);
    for (const o of lost) {
      const modes = attemptsOf(rig, o.orderId).map((a) => `${a.mode}:${a.outcome}`);
      expect(modes).toContain('lookup:issued');
      expect(modes.filter((m) => m.startsWith('single:issued'))).toHaveLength(0);
    }
  });

  it('a refund captured while its sale is still queued waits for it and takes its invoiceNumber and date', async () => {
    const rig = await newRig({ engine: { concurrency: 1 } });
    rig.sandbox.controls.setOffline(true);
    const sale = await rig.sales.checkout(saleInput(2, 100));
    const template = {
      orderNumber: 'T1-REFUND-1',
      items: [{ name: 'Артикал 1', quantity: 1, unitPrice: 100, totalAmount: 100, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 100 }],
      buyerId: '10:123456789',
      settings: { returnIfOrderNumberExists: true },
    };
    const refund = rig.store.capture(
      () => ({
        orderNumber: template.orderNumber,
        kind: 'refund',
        invoiceType: 'normal',
        transactionType: 'refund',
        createdAt: new Date(rig.clock.now).toISOString(),
        totalPara: 10000,
        changePara: 0,
        data: { lines: [], payments: [], template },
        request: null,
        dependsOn: sale.orderId,
      }),
      rig.clock.now,
    );
    await rig.engine.runOnce();
    expect(rig.store.get(refund.orderId)?.request).toBeNull();
    rig.sandbox.controls.setOffline(false);
    await rig.settle();
    const saleRow = rig.store.get(sale.orderId)!;
    const refundRow = rig.store.get(refund.orderId)!;
    expect(saleRow.state).toBe('fiscalized');
    expect(refundRow.state).toBe('fiscalized');
    const body = JSON.parse(refundRow.request!);
    expect(body.referentDocumentNumber).toBe(saleRow.invoice_number);
    expect(body.referentDocumentDt).toBe(saleRow.sdc_date_time);
    const ledger = rig.sandbox.controls.ledger().receipts;
    const iSale = ledger.findIndex((r) => r.orderNumber === sale.orderNumber);
    const iRefund = ledger.findIndex((r) => r.orderNumber === refund.orderNumber);
    expect(iSale).toBeGreaterThanOrEqual(0);
    expect(iRefund).toBeGreaterThan(iSale);
    expect(ledger[iRefund]).toMatchObject({
      transactionType: 'refund',
      referentDocumentNumber: saleRow.invoice_number,
    });
  });
});
