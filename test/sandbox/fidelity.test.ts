/**
 * Sandbox fidelity (the conformance suite's three failures) and the `sdk` variant's reply shapes, over real
 * HTTP. Each variant answers in its own shapes; the rules (Content-Type, metaFields, the bulk lock) are the
 * same in both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { SANDBOX_VARIANTS } from '../../electron/sandbox/variant.ts';

type Json = Record<string, unknown>;
let n = 0;
const on = () => `FID-${Date.now()}-${++n}`;
const sale = (orderNumber: string, payment = 'cash'): Json => ({
  orderNumber,
  items: [{ name: 'Хлеб', quantity: 1, unitPrice: 100, totalAmount: 100, labels: ['A'] }],
  payments: [{ type: payment, amount: 100 }],
});

describe.each(SANDBOX_VARIANTS)('sandbox variant %s', (variant) => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, variant, bulkDelayMsPerReceipt: 20 });
  });
  afterAll(() => sb.close());

  const call = async (
    method: string,
    path: string,
    body?: unknown,
    contentType: string | null = 'application/json',
  ) => {
    const headers: Record<string, string> = { Authorization: 'Bearer demo-key' };
    if (contentType) headers['Content-Type'] = contentType;
    const r = await fetch(sb.url + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    return { status: r.status, json: (text ? JSON.parse(text) : null) as unknown };
  };

  it('refuses a body without Content-Type: application/json, naming the header; accepts it with a charset', async () => {
    for (const type of [null, 'text/plain']) {
      const r = await call('POST', '/receipt/normal/sale', sale(on()), type);
      expect(r.status).toBe(400);
      const j = r.json as { code: string; details: { validationErrors: { field: string }[] } };
      expect(j.code).toBe('ERR_00202');
      expect(j.details.validationErrors.map((e) => e.field)).toEqual(['Content-Type']);
    }
    expect((await call('POST', '/receipt/normal/sale', sale(on()), 'application/json; charset=utf-8')).status).toBe(
      201,
    );
  });

  it("finalize's advance refund carries the request's metaFields like the final receipt", async () => {
    const adv = await call('POST', '/receipt/advance/sale', {
      ...sale(on()),
      items: [{ name: 'Торта', quantity: 1, unitPrice: 100, totalAmount: 100, labels: ['A'] }],
    });
    const advance = (adv.json as { receipt?: Json }).receipt ?? (adv.json as Json);
    const metaFields = { kasaOrderId: 42, note: 'ћ' };
    const r = await call('POST', '/receipt/advance/finalize', {
      orderNumber: on(),
      referentDocumentNumber: advance['invoiceNumber'],
      items: [{ name: 'Торта', quantity: 1, unitPrice: 300, totalAmount: 300, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 200, advanceAmount: 100 }],
      metaFields,
    });
    expect(r.status).toBe(201);
    const j = r.json as { refundReceipt: Json; finalReceipt: Json };
    expect(j.refundReceipt['metaFields']).toEqual(metaFields);
    expect(j.finalReceipt['metaFields']).toEqual(metaFields);
  });

  it('a bulk takes time: a concurrent bulk of the same shop gets 429 without any fault injected', async () => {
    const bodies = (k: number) => ({ receipts: Array.from({ length: k }, () => sale(on())) });
    const first = call('POST', '/receipt/normal/sale/bulk', bodies(10));
    // The second arrives while the first is being processed (10 × 20 ms).
    while ((sb.controls.stats().requests['POST /receipt/{invoiceType}/{transactionType}/bulk'] ?? 0) < 1)
      await new Promise((r) => setImmediate(r));
    const second = await call('POST', '/receipt/normal/sale/bulk', bodies(1));
    expect(second.status).toBe(429);
    expect((await first).status).toBe(201);
    expect((await call('POST', '/receipt/normal/sale/bulk', bodies(1))).status).toBe(201);
  });

  it(variant === 'sdk' ? 'answers in the SDK shapes' : 'answers in the spec shapes', async () => {
    const issued = await call('POST', '/receipt/normal/sale', sale(on(), variant === 'sdk' ? 'Card' : 'card'));
    expect(issued.status).toBe(201);
    const receipt = (issued.json as { receipt: Json }).receipt;
    const archived = (await call('GET', `/archive/receipts/${String(receipt['invoiceNumber'])}`)).json as Json;
    const rates = (await call('GET', '/receipt/tax-rates')).json;
    const email = (
      await call('POST', '/receipt/send-email', { invoiceNumber: receipt['invoiceNumber'], email: 'a@example.com' })
    ).json;
    const bulk = (
      await call('POST', '/receipt/normal/sale/bulk', { receipts: [sale(on()), { ...sale(on()), items: [] }] })
    ).json as Json;
    if (variant === 'sdk') {
      expect(receipt).not.toHaveProperty('journal');
      expect(archived['invoiceNumber']).toBe(receipt['invoiceNumber']);
      expect(typeof archived['journal']).toBe('string');
      expect(Array.isArray(rates)).toBe(true);
      expect(email).toEqual({});
      expect((bulk['failedReceipts'] as unknown[]).every((f) => typeof f === 'string')).toBe(true);
    } else {
      expect(typeof receipt['journal']).toBe('string');
      expect((archived['receipt'] as Json)['invoiceNumber']).toBe(receipt['invoiceNumber']);
      expect(rates).toHaveProperty('currentTaxRates');
      expect(email).toMatchObject({ success: true });
      expect((bulk['failedReceipts'] as Json[])[0]).toHaveProperty('orderNumber');
    }
  });
});
