/**
 * The receipt check must never park a legitimate receipt, nor invite a second fiscal receipt.
 * Every case runs through the core with its embedded sandbox in the `sdk` variant (forced here, whatever
 * KASA_SANDBOX_VARIANT the suite runs with): issued and archived receipts carry `items` and `payments` as
 * the vendor's SDK shows the real gateway returns them — items in the gateway's own order, payments as
 * `{type, amount}` without `advanceAmount`, a full refund's items being the original's — and
 * fiscalization-lookup names the first receipt under an order number (a finalize's advance refund).
 * Each of these was parked as "another sale's receipt" before; each is now fiscalized with its receipt.
 * A real other sale's receipt is still parked, and a new number is issued only when lookup + archive
 * confirm, at that moment, that the old number's receipt is another sale's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { OrderStore } from '../../electron/orders/store.ts';
import { checkReceipt } from '../../electron/outbox/verify.ts';
import type { OrderView } from '../../shared/domain.ts';
import { message } from '../../shared/messages.ts';
import { reuseOrderNumber } from '../support/rig.ts';
import { makeRefund, closeCores, FAST_ENGINE, MANAGER_PIN, ok, startCore } from '../support/session.ts';

afterEach(closeCores);

/** A core in demo mode whose embedded sandbox answers in the SDK's shapes. */
const start = (engine: Record<string, number> = {}): Promise<Core> =>
  startCore({ prefix: 'kasa-identity-', env: { KASA_SANDBOX_VARIANT: 'sdk' }, engine: { ...FAST_ENGINE, ...engine } });

/** A call straight to the embedded sandbox (another till, the archive, the test controls). */
async function gateway<T>(c: Core, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${c.sandboxUrl}${p}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer demo-key', 'x-api-key': 'demo-key' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

const faults = (c: Core, rules: unknown[]) => gateway(c, 'POST', '/__sandbox/faults', { rules });
const get = (c: Core, orderId: number) => ok<OrderView>(c, 'orders.get', { orderId });
const BUYER = '10:101234569';
/** A sale of one `name` at `price` RSD (label A), paid in cash. */
const oneForCash = (c: Core, name: string, price: number): Promise<OrderView> =>
  ok<OrderView>(c, 'sales.checkout', {
    lines: [{ name, quantity: 1, unitPrice: price, labels: ['A'] }],
    payments: [{ type: 'cash', amount: price }],
  });

/** Runs sync passes until the order leaves `queued` (a pass already in flight may predate it). */
async function settle(c: Core, orderId: number): Promise<OrderView> {
  for (let i = 0; i < 100; i++) {
    await ok(c, 'sync.now');
    const v = await get(c, orderId);
    if (v.state !== 'queued') return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  return get(c, orderId);
}

interface WireReceipt {
  invoiceNumber: string;
  invoiceType: string;
  transactionType: string;
  invoiceCounterExtension: string;
  referentDocumentNumber?: string;
  items?: { name: string; totalAmount: number }[];
  payments?: Record<string, unknown>[];
}

describe('SDK-shaped receipts are this order’s receipts: fiscalized, never parked', () => {
  it('a full refund of an archive-only original: the gateway refunds the original’s items, fiscalized with no note', async () => {
    const c = await start();
    // Another till's sale (known only to the gateway archive): two items.
    const original = await gateway<{ receipt: WireReceipt }>(c, 'POST', '/receipt/normal/sale', {
      orderNumber: 'OTHER-TILL-0001',
      items: [
        { name: 'Сок', quantity: 2, unitPrice: 150, totalAmount: 300, labels: ['A'] },
        { name: 'Кафа', quantity: 1, unitPrice: 240, totalAmount: 240, labels: ['A'] },
      ],
      payments: [{ type: 'cash', amount: 540 }],
    });
    const refund = await makeRefund(c, {
      invoiceNumber: original.receipt.invoiceNumber,
      full: true,
      buyerId: BUYER,
    });
    expect(refund.kind).toBe('refund_full');
    expect(refund.state).toBe('fiscalized');
    expect(refund.lastError).toBeUndefined();
    expect(refund.receipt?.totalPara).toBe(54_000);
    // The reply carries the original's two items, grouped by the SDK; Kasa sent the archived original's
    // items (case 12) in its own order: the same multiset, so no note (full refunds skip the item compare
    // anyway: verify.test.ts).
    const archived = await gateway<WireReceipt>(
      c,
      'GET',
      `/archive/receipts/${encodeURIComponent(refund.receipt?.invoiceNumber ?? '')}`,
    );
    expect(archived.items?.map((i) => i.name).sort()).toEqual(['Кафа', 'Сок']);
    const sent = c.db
      .prepare<[number], { request: string }>('SELECT request FROM orders WHERE id = ?')
      .get(refund.orderId);
    expect(
      (JSON.parse(sent?.request ?? '{}') as { items: { name: string }[] }).items.map((i) => i.name).sort(),
    ).toEqual(['Кафа', 'Сок']);
    expect(refund.receiptCheck).toBeUndefined();
  });

  it('a finalize whose final receipt’s payment comes back as {type, amount} without advanceAmount', async () => {
    const c = await start();
    const adv = await ok<OrderView>(c, 'sales.checkout', {
      invoiceType: 'advance',
      lines: [{ name: 'Орман', quantity: 1, unitPrice: 540, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 540 }],
    });
    expect(adv.state).toBe('fiscalized');
    const fin = await ok<OrderView>(c, 'advances.finalize', { orderId: adv.orderId });
    expect(fin.state).toBe('fiscalized');
    expect(fin.lastError).toBeUndefined();
    expect(fin.receipt?.invoiceCounterExtension).toBe('ПП');
    expect(fin.extraReceipts?.[0]?.invoiceCounterExtension).toBe('АР');
    const final = await gateway<WireReceipt>(
      c,
      'GET',
      `/archive/receipts/${encodeURIComponent(fin.receipt?.invoiceNumber ?? '')}`,
    );
    expect(final.payments?.length).toBeGreaterThan(0);
    for (const p of final.payments ?? []) expect(Object.keys(p).sort()).toEqual(['amount', 'type']);
    const sent = c.db
      .prepare<[number], { request: string }>('SELECT request FROM orders WHERE id = ?')
      .get(fin.orderId);
    expect(JSON.stringify(JSON.parse(sent?.request ?? '{}').payments)).toContain('advanceAmount');
    expect(fin.receiptCheck).toBeUndefined();
  });

  it('a finalize reconciled by lookup that lands on its advance refund is followed to its final sale', async () => {
    // Backoff long enough that the lost finalize is not simply resent before we age it.
    const c = await start({ baseBackoffMs: 60_000, maxBackoffMs: 60_000, probeMinMs: 60_000, probeMaxMs: 60_000 });
    const adv = await ok<OrderView>(c, 'sales.checkout', {
      invoiceType: 'advance',
      lines: [{ name: 'Кауч', quantity: 1, unitPrice: 720, labels: ['A'] }],
      payments: [{ type: 'card', amount: 720 }],
    });
    expect(adv.state).toBe('fiscalized');
    // The gateway issues the finalize but the reply is lost: outcome unknown.
    await faults(c, [{ match: 'POST /receipt/advance/finalize', action: 'drop_after', times: 1 }]);
    const fin = await ok<OrderView>(c, 'advances.finalize', { orderId: adv.orderId });
    expect(fin.state).toBe('queued');
    // Its first attempt is past the dedupe window: only fiscalization-lookup + archive may settle it.
    c.db.prepare('UPDATE outbox SET first_attempt_at = 0, unknown = 1 WHERE order_id = ?').run(fin.orderId);
    const lookup = await gateway<{ records: { invoiceNumber: string }[] }>(
      c,
      'POST',
      '/archive/receipts/fiscalization-lookup',
      {
        orderNumbers: [fin.orderNumber],
      },
    );
    const hit = await gateway<WireReceipt>(
      c,
      'GET',
      `/archive/receipts/${encodeURIComponent(lookup.records[0]?.invoiceNumber ?? '')}`,
    );
    expect([hit.invoiceType, hit.transactionType, hit.invoiceCounterExtension]).toEqual(['advance', 'refund', 'АР']);

    const done = await settle(c, fin.orderId);
    expect(done.state).toBe('fiscalized');
    expect(done.lastError).toBeUndefined();
    expect(done.receipt?.invoiceCounterExtension).toBe('ПП');
    expect(done.extraReceipts?.map((r) => r.invoiceNumber)).toEqual([hit.invoiceNumber]);
    const modes = c.db.prepare('SELECT mode, outcome FROM attempts WHERE order_id = ?').all(fin.orderId);
    expect(modes).toContainEqual({ mode: 'lookup', outcome: 'issued' });
    // One finalize at the gateway: one АР and one ПП under the order number, nothing issued twice.
    const issued = await gateway<{ data: WireReceipt[] }>(
      c,
      'GET',
      `/archive/receipts?orderNumber=${encodeURIComponent(fin.orderNumber)}`,
    );
    expect(issued.data.map((r) => r.invoiceCounterExtension).sort()).toEqual(['АР', 'ПП']);
  });

  it('items in another order are the same items', async () => {
    const c = await start();
    const sale = await ok<OrderView>(c, 'sales.checkout', {
      lines: [
        { name: 'Хлеб', quantity: 1, unitPrice: 80, labels: ['A'] },
        { name: 'Ајвар', quantity: 2, unitPrice: 310, labels: ['A'] },
        { name: 'Млеко', quantity: 1, unitPrice: 150, labels: ['A'] },
      ],
      payments: [{ type: 'cash', amount: 850 }],
    });
    expect(sale.state).toBe('fiscalized');
    expect(sale.lastError).toBeUndefined();
    const back = await gateway<WireReceipt>(
      c,
      'GET',
      `/archive/receipts/${encodeURIComponent(sale.receipt?.invoiceNumber ?? '')}`,
    );
    const names = back.items?.map((i) => i.name) ?? [];
    expect(names).toHaveLength(3);
    expect(names).not.toEqual(['Хлеб', 'Ајвар', 'Млеко']);
    expect(sale.receiptCheck).toBeUndefined();
  });
});

describe('another sale’s receipt is still refused; a new number only when lookup + archive confirm it', () => {
  it('a real other sale’s receipt (another total under a reused number) is parked, confirmed by lookup + archive, then re-issued', async () => {
    const c = await start();
    const first = await oneForCash(c, 'Роба', 110);
    const reused = reuseOrderNumber(c.db, new OrderStore(c.db), first.orderNumber);
    const parked = await settle(c, reused);
    expect(parked.state).toBe('needs_attention');
    expect(parked.receipt).toBeUndefined();
    expect(parked.lastError?.code).toBe('KASA_RECEIPT_MISMATCH');
    expect(parked.lastError?.message).toContain('totalAmount');
    // Parked only after fiscalization-lookup + archive said the same as the send's reply.
    const modes = c.db.prepare('SELECT mode, outcome FROM attempts WHERE order_id = ? ORDER BY id').all(reused);
    expect(modes).toEqual([
      { mode: 'single', outcome: 'mismatch' },
      { mode: 'lookup', outcome: 'mismatch' },
    ]);
    const reissued = await ok<OrderView>(c, 'orders.reissue', { managerPin: MANAGER_PIN, orderId: reused });
    expect(reissued.orderNumber).not.toBe(first.orderNumber);
    const done = await settle(c, reused);
    expect(done.state).toBe('fiscalized');
    expect(done.receipt?.totalPara).toBe(30_000);
  });

  /**
   * An order parked by the previous check (it compared items by index, so an SDK-shaped reply of the sale's
   * own receipt parked it): a fiscalized sale put back the way that version left it — no receipt,
   * KASA_RECEIPT_MISMATCH — in the database a till upgrades with.
   */
  async function parkedByOldCheck(c: Core): Promise<OrderView> {
    const sale = await ok<OrderView>(c, 'sales.checkout', {
      lines: [
        { name: 'Роба', quantity: 1, unitPrice: 100, labels: ['A'] },
        { name: 'Амбалажа', quantity: 1, unitPrice: 200, labels: ['A'] },
      ],
      payments: [{ type: 'cash', amount: 300 }],
    });
    expect(sale.state).toBe('fiscalized');
    const error = {
      status: 201,
      code: 'KASA_RECEIPT_MISMATCH',
      message: `The gateway returned receipt ${sale.receipt?.invoiceNumber ?? ''} for order ${sale.orderNumber}, but it is another sale's: items.0.totalAmount 200,00 (this order: 100,00)`,
    };
    c.db
      .prepare(
        "UPDATE orders SET state = 'needs_attention', receipt = NULL, invoice_number = NULL, sdc_date_time = NULL, fiscalized_at = NULL, last_error = ? WHERE id = ?",
      )
      .run(JSON.stringify(error), sale.orderId);
    return get(c, sale.orderId);
  }

  it('reissue is refused, and the order settled with its receipt, when lookup + archive show the receipt is this order’s', async () => {
    const c = await start();
    const parked = await parkedByOldCheck(c);
    expect(parked.state).toBe('needs_attention');
    expect(parked.receipt).toBeUndefined();

    // The manager asks for a new number: lookup + archive show the number's receipt is this sale's.
    const refused = await c.dispatch('orders.reissue', { managerPin: MANAGER_PIN, orderId: parked.orderId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const text = (refused as { error: { message: string } }).error.message;
    const settled = await get(c, parked.orderId);
    expect(settled.state).toBe('fiscalized');
    expect(settled.orderNumber).toBe(parked.orderNumber);
    expect(settled.receipt?.totalPara).toBe(30_000);
    expect(settled.lastError).toBeUndefined();
    expect(text).toBe(
      message('sr-Cyrl', 'reissue_own_receipt', {
        order: parked.orderNumber,
        invoice: settled.receipt?.invoiceNumber ?? '',
      }),
    );
    // Nothing was issued a second time, nothing is queued.
    const issued = await gateway<{ data: WireReceipt[] }>(
      c,
      'GET',
      `/archive/receipts?orderNumber=${encodeURIComponent(parked.orderNumber)}`,
    );
    expect(issued.data).toHaveLength(1);
    expect(c.db.prepare('SELECT count(*) AS n FROM outbox').get()).toEqual({ n: 0 });
    const audit = await ok<{ entries: { action: string }[] }>(c, 'audit.list', { managerPin: MANAGER_PIN, limit: 20 });
    expect(audit.entries.map((e) => e.action)).toContain('order.reissue_refused');
    expect(audit.entries.map((e) => e.action)).not.toContain('order.reissue');
  });

  it('reissue is refused and nothing changes when lookup + archive cannot confirm', async () => {
    const c = await start();
    const parked = await parkedByOldCheck(c);
    await faults(c, [{ match: 'POST /archive/receipts/fiscalization-lookup', action: 'error500' }]);
    const refused = await c.dispatch('orders.reissue', { managerPin: MANAGER_PIN, orderId: parked.orderId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    const still = await get(c, parked.orderId);
    expect(still.state).toBe('needs_attention');
    expect(still.orderNumber).toBe(parked.orderNumber);
    const issued = await gateway<{ data: WireReceipt[] }>(
      c,
      'GET',
      `/archive/receipts?orderNumber=${encodeURIComponent(parked.orderNumber)}`,
    );
    expect(issued.data).toHaveLength(1);
  });
});

describe('a difference in items or payments is a note for the manager, never a park', () => {
  it('the order is fiscalized with its receipt and keeps a "differs — check" note, listed for the manager', async () => {
    const c = await start();
    const sale = await oneForCash(c, 'Сир', 400);
    // The same sale's receipt, as a gateway could return it: the payment as card.
    const store = new OrderStore(c.db);
    const row = store.get(sale.orderId);
    if (!row?.receipt) throw new Error('no receipt');
    const receipt = { ...JSON.parse(row.receipt), payments: [{ type: 'Card', amount: 400 }] };
    c.db
      .prepare("UPDATE orders SET state = 'queued', receipt = NULL, invoice_number = NULL WHERE id = ?")
      .run(sale.orderId);
    expect(checkReceipt(row, receipt).identity).toEqual([]);
    expect(store.markFiscalized(sale.orderId, receipt, Date.now())).toBe('fiscalized');
    const noted = await get(c, sale.orderId);
    expect(noted.state).toBe('fiscalized');
    expect(noted.receiptCheck?.fields).toEqual([{ field: 'payments', expected: 'cash 400,00', got: 'card 400,00' }]);
    const listed = await ok<{ orders: OrderView[] }>(c, 'orders.list', { receiptCheck: true });
    expect(listed.orders.map((o) => o.orderId)).toEqual([sale.orderId]);
  });
});
