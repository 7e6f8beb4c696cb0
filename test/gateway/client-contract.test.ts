/**
 * Contract of the lead's GatewayClient against the sandbox gateway over real HTTP: every endpoint,
 * every error of the spec's error table (GatewayError fields and classify()), malformed replies and
 * lost connections.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../electron/gateway/client.ts';
import { classify, GatewayError } from '../../electron/gateway/errors.ts';
import type { ReceiptRequest } from '../../electron/gateway/types.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { sandboxVariant } from '../../electron/sandbox/variant.ts';
import { failure } from '../support/gateway.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SDK = sandboxVariant(process.env) === 'sdk';
let sb: Sandbox;
let client: GatewayClient;
let seq = 0;

beforeAll(async () => {
  sb = await startSandbox({ variant: sandboxVariant(process.env) });
  client = new GatewayClient({ baseUrl: sb.url, apiKey: 'demo-key', timeoutMs: 5_000 });
});
afterAll(async () => {
  await sb.close();
});
beforeEach(() => {
  sb.controls.reset();
});

function as(apiKey: string, timeoutMs = 5_000): GatewayClient {
  return new GatewayClient({ baseUrl: sb.url, apiKey, timeoutMs });
}

function order(): string {
  seq += 1;
  return `GC-${seq}`;
}

function body(over: Partial<ReceiptRequest> = {}): ReceiptRequest {
  return {
    orderNumber: order(),
    items: [{ name: 'Кафа', quantity: 2, unitPrice: 150, totalAmount: 300, labels: ['A'] }],
    payments: [{ type: 'cash', amount: 300 }],
    settings: { returnIfOrderNumberExists: true },
    ...over,
  };
}

const s = (b: unknown) => JSON.stringify(b);

function expectHttp(e: GatewayError, status: number, code: string | null, path: string): void {
  expect(e.kind).toBe('http');
  expect(e.status).toBe(status);
  expect(e.code).toBe(code);
  expect(e.message.length).toBeGreaterThan(0);
  expect(e.correlationId).toMatch(UUID);
  expect(e.path).toBe(path);
}

describe('every endpoint', () => {
  it('issues sale, refund, full refund, advance and finalize', async () => {
    const sale = await client.issueSale('normal', s(body({ metaFields: { kasaOrderId: 17, note: 'ћ' } })));
    expect(sale.correlationId).toMatch(UUID);
    expect(sale.receipt.invoiceNumber).toMatch(/^[A-Z0-9]{8}-[A-Z0-9]{8}-\d+$/);
    expect(sale.receipt.metaFields).toEqual({ kasaOrderId: 17, note: 'ћ' });
    expect(sale.receipt.taxItems?.[0]).toMatchObject({ label: 'A', rate: 10, amount: 27.27 });
    const refund = await client.issueRefund(
      'normal',
      s(
        body({
          referentDocumentNumber: sale.receipt.invoiceNumber,
          referentDocumentDt: sale.receipt.sdcDateTime,
          buyerId: '10:123456789',
        }),
      ),
    );
    expect(refund.receipt).toMatchObject({ transactionType: 'refund', invoiceCounterExtension: 'ПР' });
    const full = await client.refundFull(
      sale.receipt.invoiceNumber,
      s({ orderNumber: order(), items: body().items, buyerId: '11:0101990710006' }),
    );
    expect(full.receipt).toMatchObject({
      transactionType: 'refund',
      totalAmount: 300,
      referentDocumentNumber: sale.receipt.invoiceNumber,
    });
    const advance = await client.issueSale('advance', s(body()));
    expect(advance.receipt.invoiceCounterExtension).toBe('АП');
    const fin = await client.finalizeAdvance(
      s(
        body({
          referentDocumentNumber: advance.receipt.invoiceNumber,
          payments: [{ type: 'card', amount: 0, advanceAmount: 300 }],
        }),
      ),
    );
    expect(fin.refundReceipt.invoiceCounterExtension).toBe('АР');
    expect(fin.finalReceipt.invoiceCounterExtension).toBe('ПП');
    expect(fin.finalReceipt.referentDocumentNumber).toBe(fin.refundReceipt.invoiceNumber);
  });

  it('issues async and bulk', async () => {
    const req = body();
    const ack = (await client.issueAsync('normal', 'sale', s(req))) as Record<string, unknown>;
    expect(ack).toMatchObject({ status: 'queued', orderNumber: req.orderNumber });
    await sb.controls.idle();
    const [record] = await client.fiscalizationLookup([req.orderNumber]);
    expect(record).toMatchObject({ orderNumber: req.orderNumber, fiscalized: true });
    const bodies = [
      s(body()),
      s(
        body({
          items: [{ name: 'x', quantity: 1, unitPrice: 1, totalAmount: 1, labels: ['Ж'] }],
          payments: [{ type: 'cash', amount: 1 }],
        }),
      ),
    ];
    const bulk = await client.bulk('normal', 'sale', bodies);
    expect(bulk).toMatchObject({ totalProcessed: 2, successful: 1, failed: 1 });
    expect(bulk.receipts[0]).toMatchObject({
      orderNumber: (JSON.parse(bodies[0] ?? '{}') as ReceiptRequest).orderNumber,
    });
    // The sdk variant names a failure with a plain string: the order is still matched, the code is lost.
    expect(bulk.failedReceipts[0]).toMatchObject({
      orderNumber: (JSON.parse(bodies[1] ?? '{}') as ReceiptRequest).orderNumber,
      error: { status: 400, code: SDK ? null : 'ERR_01010' },
    });
  });

  it('reads tax rates, lookup, archive list and archive get', async () => {
    const rates = await client.taxRates();
    expect(rates.currentTaxRates.taxCategories.flatMap((c) => c.taxRates.map((r) => r.label))).toEqual(
      expect.arrayContaining(['A', 'E', 'F']),
    );
    expect(rates.allTaxRates?.length).toBeGreaterThan(1);
    const prodRates = await as('prod-key').taxRates();
    expect(prodRates.currentTaxRates.taxCategories.flatMap((c) => c.taxRates.map((r) => r.label)).sort()).toEqual(
      ['А', 'Г', 'Ђ', 'Е'].sort(),
    );
    const sale = await client.issueSale('normal', s(body()));
    const records = await client.fiscalizationLookup([sale.receipt.orderNumber ?? '', 'unknown-order']);
    expect(records[0]).toMatchObject({ fiscalized: true, invoiceNumber: sale.receipt.invoiceNumber });
    expect(records[1]).toMatchObject({ fiscalized: false, invoiceNumber: null });
    const list = await client.archiveList({ page: 1, limit: 10, invoiceType: 'normal' });
    expect(list.total).toBe(1);
    expect(list.items).toHaveLength(1);
    const record = await client.archiveGet(sale.receipt.invoiceNumber);
    expect(record.receipt.qrCodeFileUrl).toBe(`${sb.url}/files/${sale.receipt.invoiceNumber}.png`);
    expect(record.receipt.journal).toContain('ФИСКАЛНИ РАЧУН');
    // A flat (sdk) archive record has no chain; the spec's wrapper has one.
    if (SDK) expect(record.chain).toBeUndefined();
    else expect(record.chain).toBeDefined();
  });

  it('manages drafts', async () => {
    const created = await client.createDraft({ draftName: 'Сто 1', orderNumber: 'DR-1', items: body().items });
    const id = created['id'] as number;
    expect(typeof id).toBe('number');
    const list = await client.listDrafts({ orderNumber: 'dr-' });
    expect(list.total).toBe(1);
    expect(await client.getDraft(id)).toMatchObject({ id, draftName: 'Сто 1' });
    expect(await client.updateDraft(id, { draftName: 'Сто 2' })).toMatchObject({ id, draftName: 'Сто 2' });
    await client.deleteDraft(id);
    const e = await failure(client.getDraft(id));
    expectHttp(e, 404, 'NOT_FOUND', `/receipt/drafts/${id}`);
  });

  it('sends e-mail, verifies the key and manages cashiers', async () => {
    const sale = await client.issueSale('normal', s(body()));
    expect(
      await client.sendEmail({ invoiceNumber: sale.receipt.invoiceNumber, email: 'kupac@example.rs' }),
    ).toMatchObject({ success: true });
    expect(sb.controls.emails().emails).toHaveLength(1);
    const v2 = await client.verifyApiToken();
    expect(v2).toMatchObject({ type: 'api-key', apiKey: { version: 'V2' }, user: null });
    expect(await as('demo-key-v1').verifyApiToken()).toMatchObject({
      apiKey: { version: 'V1' },
      authable: { shopId: v2.authable?.shopId },
    });
    const me = await client.apiKeyMe();
    expect(me.shopId).toBe(v2.authable?.shopId);
    expect(typeof me.shopName).toBe('string');
    const cashier = await client.createCashier({ name: 'Јована Ђурић', email: 'jovana@example.rs' });
    const id = cashier['id'] as number;
    expect((await client.listCashiers({ name: 'јована' })).items).toHaveLength(1);
    expect(await client.getCashier(id)).toMatchObject({ id, active: true });
    expect(await client.updateCashier(id, { phone: '+381 11 123 456' })).toMatchObject({
      id,
      phone: '+381 11 123 456',
    });
  });
});

describe('every error of the spec', () => {
  it('400 ERR_00202: validation, with validationErrors', async () => {
    const e = await failure(client.issueSale('normal', s({ orderNumber: order(), items: [], payments: [] })));
    expectHttp(e, 400, 'ERR_00202', '/receipt/normal/sale');
    expect(e.validationErrors.map((v) => v.field)).toEqual(expect.arrayContaining(['items', 'payments']));
    expect(classify(e)).toEqual({ type: 'rejected', reason: 'ERR_00202' });
  });

  it('400 ERR_00603: duplicate order number', async () => {
    const req = body({ settings: {} });
    await client.issueSale('normal', s(req));
    const e = await failure(client.issueSale('normal', s(req)));
    expectHttp(e, 400, 'ERR_00603', '/receipt/normal/sale');
    expect(classify(e)).toEqual({ type: 'exists' });
  });

  it('400 ERR_00701: totals differ', async () => {
    const e = await failure(client.issueSale('normal', s(body({ payments: [{ type: 'cash', amount: 299.99 }] }))));
    expectHttp(e, 400, 'ERR_00701', '/receipt/normal/sale');
    expect(classify(e)).toEqual({ type: 'rejected', reason: 'ERR_00701' });
  });

  it('400 ERR_00201: referenced document missing', async () => {
    const e = await failure(client.finalizeAdvance(s(body())));
    expectHttp(e, 400, 'ERR_00201', '/receipt/advance/finalize');
    expect(classify(e)).toEqual({ type: 'rejected', reason: 'ERR_00201' });
  });

  it('400 ERR_01010 with Tax Administration reason 2310', async () => {
    const req = body({ items: [{ name: 'Вино', quantity: 1, unitPrice: 300, totalAmount: 300, labels: ['Ђ'] }] });
    const e = await failure(client.issueSale('normal', s(req)));
    expectHttp(e, 400, 'ERR_01010', '/receipt/normal/sale');
    expect(e.taxAdministrationReason).toBe('2310');
    expect(classify(e)).toEqual({ type: 'rejected', reason: 'ERR_01010' });
  });

  it('401 ERR_00101: invalid key', async () => {
    const e = await failure(as('not-a-key').taxRates());
    expectHttp(e, 401, 'ERR_00101', '/receipt/tax-rates');
    expect(e.message).not.toContain('not-a-key');
    expect(classify(e)).toEqual({ type: 'blocked', reason: 'auth' });
  });

  it('403 without code: key without access', async () => {
    const e = await failure(as('noaccess-key').issueSale('normal', s(body())));
    expectHttp(e, 403, null, '/receipt/normal/sale');
    expect(classify(e)).toEqual({ type: 'blocked', reason: 'auth' });
    const c = await failure(as('noaccess-key').listCashiers());
    expect(c.status).toBe(403);
    expect(c.code).toBeNull();
  });

  it('404 NOT_FOUND: unknown invoice', async () => {
    const e = await failure(client.archiveGet('NOPE0000-NOPE0000-1'));
    expectHttp(e, 404, 'NOT_FOUND', '/archive/receipts/NOPE0000-NOPE0000-1');
    expect(classify(e)).toEqual({ type: 'rejected', reason: 'NOT_FOUND' });
    const full = await failure(
      client.refundFull(
        'NOPE0000-NOPE0000-1',
        s({ orderNumber: order(), items: body().items, buyerId: '10:123456789' }),
      ),
    );
    expect(full.status).toBe(404);
  });

  it('409 ERR_00302: advance label rule on demo', async () => {
    const req = body({ items: [{ name: 'Торта', quantity: 1, unitPrice: 300, totalAmount: 300, labels: ['Ж'] }] });
    const e = await failure(client.issueSale('advance', s(req)));
    expectHttp(e, 409, 'ERR_00302', '/receipt/advance/sale');
    expect(classify(e)).toEqual({ type: 'rejected', reason: 'ERR_00302' });
  });

  it('429 without code: a bulk already in progress', async () => {
    sb.controls.setFaults([{ match: '/bulk', action: 'hang', times: 1 }]);
    const abort = new AbortController();
    const first = client.bulk('normal', 'sale', [s(body())], { signal: abort.signal }).catch((e: unknown) => e);
    for (
      let i = 0;
      i < 500 && (sb.controls.stats().requests['POST /receipt/{invoiceType}/{transactionType}/bulk'] ?? 0) < 1;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const e = await failure(client.bulk('normal', 'sale', [s(body())]));
    expectHttp(e, 429, null, '/receipt/normal/sale/bulk');
    expect(classify(e)).toEqual({ type: 'retry' });
    abort.abort();
    const aborted = await first;
    expect(aborted).toBeInstanceOf(GatewayError);
  });

  it('500 ERR_00002: internal error and async unavailable', async () => {
    sb.controls.setFaults([{ action: 'error500', times: 1 }]);
    const e = await failure(client.issueSale('normal', s(body())));
    expectHttp(e, 500, 'ERR_00002', '/receipt/normal/sale');
    expect(classify(e)).toEqual({ type: 'retry' });
    expect(sb.controls.ledger().receipts).toHaveLength(0);
    sb.controls.setAsyncFailure('demo-key', true);
    const a = await failure(client.issueAsync('normal', 'sale', s(body())));
    expectHttp(a, 500, 'ERR_00002', '/receipt/normal/sale/async');
  });
});

describe('broken replies', () => {
  it('a truncated 201 body is kind malformed (and the receipt was issued)', async () => {
    sb.controls.setFaults([{ match: 'POST /receipt/normal/sale', action: 'malformed', times: 1 }]);
    const req = body();
    const e = await failure(client.issueSale('normal', s(req)));
    expect(e.kind).toBe('malformed');
    expect(e.status).toBe(201);
    expect(classify(e)).toEqual({ type: 'retry' });
    const retried = await client.issueSale('normal', s(req));
    expect(sb.controls.ledger().receipts.map((r) => r.invoiceNumber)).toEqual([retried.receipt.invoiceNumber]);
  });

  it('drop_before and drop_after are kind network; the retry with the same body is idempotent', async () => {
    const req = body();
    sb.controls.setFaults([{ action: 'drop_before', times: 1 }]);
    const before = await failure(client.issueSale('normal', s(req)));
    expect(before.kind).toBe('network');
    expect(before.status).toBeNull();
    expect(classify(before)).toEqual({ type: 'retry' });
    expect(sb.controls.ledger().receipts).toHaveLength(0);
    sb.controls.setFaults([{ action: 'drop_after', times: 1 }]);
    const after = await failure(client.issueSale('normal', s(req)));
    expect(after.kind).toBe('network');
    expect(sb.controls.ledger().receipts).toHaveLength(1);
    const retried = await client.issueSale('normal', s(req));
    expect(retried.receipt.invoiceNumber).toBe(sb.controls.ledger().receipts[0]?.invoiceNumber);
    expect(sb.controls.ledger().receipts).toHaveLength(1);
  });

  it('offline is kind network; hang is kind timeout', async () => {
    sb.controls.setOffline(true);
    expect((await failure(client.taxRates())).kind).toBe('network');
    sb.controls.setOffline(false);
    sb.controls.setFaults([{ match: 'tax-rates', action: 'hang', times: 1 }]);
    const e = await failure(as('demo-key', 200).taxRates());
    expect(e.kind).toBe('timeout');
    expect(classify(e)).toEqual({ type: 'retry' });
    expect((await client.taxRates()).currentTaxRates.groupId).toBeGreaterThan(0);
  });
});
