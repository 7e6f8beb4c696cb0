/**
 * Tolerant reader, one test per reply shape seen in the evidence (spec, the vendor's SDK types, public
 * integrations). Each reply is served over real HTTP by a tiny server standing in for the live service
 * (the one edge we cannot reach), and read through GatewayClient: what comes out is always the spec's
 * shape. The sdk sandbox variant serves the same divergences end to end (client-contract, outbox suites).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../electron/gateway/client.ts';
import { classify, GatewayError } from '../../electron/gateway/errors.ts';
import { normalizePaymentType } from '../../electron/gateway/normalize.ts';

type Canned = { status: number; body: unknown };
const replies = new Map<string, Canned>();
let server: http.Server;
let client: GatewayClient;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const key = `${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`;
    req.resume();
    req.on('end', () => {
      const r = replies.get(key) ?? { status: 404, body: { status: 404, code: 'NOT_FOUND', message: key } };
      const data = Buffer.from(JSON.stringify(r.body));
      res.writeHead(r.status, { 'Content-Type': 'application/json', 'Content-Length': data.length });
      res.end(data);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new GatewayClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: 'k',
    timeoutMs: 5000,
  });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const RECEIPT = {
  invoiceNumber: 'AAAA-BBBB-7',
  sdcDateTime: '2026-11-22T09:00:00.000Z',
  orderNumber: 'K1-7',
  totalAmount: 300,
  verificationUrl: 'https://tap.example/v/?vl=x',
  journal: '==== ФИСКАЛНИ РАЧУН ====\nКРАЈ',
  payments: [{ type: 'Card', amount: 300 }],
};
const serve = (method: string, path: string, body: unknown, status = 200) =>
  replies.set(`${method} ${path}`, { status, body });
const GROUP = (id: number, validFrom: string) => ({
  validFrom,
  groupId: id,
  taxCategories: [{ name: 'VAT', categoryType: 0, orderId: 1, taxRates: [{ rate: 10, label: id === 2 ? 'A' : 'Ж' }] }],
});

describe('tolerant reader: every shape Kasa accepts', () => {
  it('issued receipt wrapped {correlationId, receipt} (spec)', async () => {
    serve('POST', '/receipt/normal/sale', { correlationId: 'c1', receipt: RECEIPT }, 201);
    const r = await client.issueSale('normal', '{}');
    expect(r).toMatchObject({
      correlationId: 'c1',
      receipt: { invoiceNumber: 'AAAA-BBBB-7', journal: RECEIPT.journal },
    });
  });

  it('issued receipt flat, without the wrapper', async () => {
    serve('POST', '/receipt/normal/sale', RECEIPT, 201);
    const r = await client.issueSale('normal', '{}');
    expect(r.receipt.invoiceNumber).toBe('AAAA-BBBB-7');
  });

  it('issued receipt without journal: the journal is fetched from the archive detail', async () => {
    const { journal: _j, ...bare } = RECEIPT;
    serve('POST', '/receipt/normal/refund', { correlationId: 'c2', receipt: bare }, 201);
    serve('GET', '/archive/receipts/AAAA-BBBB-7', { ...RECEIPT, qrCodeFileUrl: 'http://q.png' });
    const r = await client.issueRefund('normal', '{}');
    expect(r.receipt.journal).toBe(RECEIPT.journal);
    expect(r.receipt.qrCodeFileUrl).toBe('http://q.png');
  });

  it('issued receipt with a blank journal and no archive: returned without journal, never with a blank one', async () => {
    serve('POST', '/receipt/normal/sale', { receipt: { ...RECEIPT, journal: '  ' } }, 201);
    replies.delete('GET /archive/receipts/AAAA-BBBB-7');
    const r = await client.issueSale('normal', '{}');
    expect(r.receipt.invoiceNumber).toBe('AAAA-BBBB-7');
    expect(r.receipt.journal).toBeUndefined();
  });

  it('archive record {receipt, chain, chainMetadata} (spec) and flat (SDK) read alike', async () => {
    serve('GET', '/archive/receipts/AAAA-BBBB-7', { receipt: RECEIPT, chain: [], chainMetadata: { length: 1 } });
    const wrapped = await client.archiveGet('AAAA-BBBB-7');
    serve('GET', '/archive/receipts/AAAA-BBBB-7', RECEIPT);
    const flat = await client.archiveGet('AAAA-BBBB-7');
    expect(wrapped.receipt).toEqual(flat.receipt);
    expect(flat.receipt.journal).toBe(RECEIPT.journal);
  });

  it.each([
    ['cash', 'cash'],
    ['Cash', 'cash'],
    ['Card', 'card'],
    ['WireTransfer', 'wireTransfer'],
    ['wire_transfer', 'wireTransfer'],
    ['wiretransfer', 'wireTransfer'],
    ['MobileMoney', 'mobileMoney'],
    ['mobile_money', 'mobileMoney'],
    ['Virman', 'virman'],
    ['Other', 'other'],
  ])('payment type %s reads as %s', async (wire, spec) => {
    expect(normalizePaymentType(wire)).toBe(spec);
    serve('GET', '/archive/receipts', {
      data: [{ ...RECEIPT, payments: [{ type: wire, amount: 1 }] }],
      meta: { total: 1 },
    });
    const list = await client.archiveList();
    expect((list.items[0] as { payments: { type: string }[] }).payments[0]?.type).toBe(spec);
  });

  it('tax rates as {currentTaxRates, allTaxRates} (spec) and as an array (SDK)', async () => {
    serve('GET', '/receipt/tax-rates', {
      currentTaxRates: GROUP(2, '2026-01-01T00:00:00Z'),
      allTaxRates: [GROUP(1, '2020-01-01T00:00:00Z')],
    });
    const spec = await client.taxRates();
    serve('GET', '/receipt/tax-rates', [
      GROUP(1, '2020-01-01T00:00:00Z'),
      GROUP(2, '2026-01-01T00:00:00Z'),
      GROUP(3, '2999-01-01T00:00:00Z'),
    ]);
    const arr = await client.taxRates();
    expect(spec.currentTaxRates.groupId).toBe(2);
    expect(arr.currentTaxRates.groupId).toBe(2);
    expect(arr.allTaxRates).toHaveLength(3);
  });

  it('send-email {success, correlationId} (spec), {} (SDK), and {success:false}', async () => {
    serve('POST', '/receipt/send-email', { success: true, correlationId: 'c' }, 201);
    expect(await client.sendEmail({ invoiceNumber: 'X', email: 'a@b.rs' })).toEqual({
      success: true,
      correlationId: 'c',
    });
    serve('POST', '/receipt/send-email', {}, 201);
    expect(await client.sendEmail({ invoiceNumber: 'X', email: 'a@b.rs' })).toEqual({ success: true });
    serve('POST', '/receipt/send-email', { success: false }, 201);
    expect(await client.sendEmail({ invoiceNumber: 'X', email: 'a@b.rs' })).toEqual({ success: false });
  });

  it("a 4xx whose message is an array or an object is the gateway's words and is parked, not retried", async () => {
    serve(
      'POST',
      '/receipt/normal/sale',
      {
        statusCode: 400,
        message: ['items.0.name must be a string', 'payments should not be empty'],
        error: 'Bad Request',
      },
      400,
    );
    const e1 = await client.issueSale('normal', '{}').catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(GatewayError);
    expect((e1 as GatewayError).message).toBe('items.0.name must be a string; payments should not be empty');
    expect(classify(e1)).toEqual({ type: 'rejected', reason: 'HTTP 400' });
    serve(
      'POST',
      '/receipt/normal/sale',
      { status: 422, code: 'ERR_00202', message: { field: 'items', message: 'required' } },
      422,
    );
    const e2 = await client.issueSale('normal', '{}').catch((e: unknown) => e);
    expect((e2 as GatewayError).message).toBe('items: required');
    expect(classify(e2)).toEqual({ type: 'rejected', reason: 'ERR_00202' });
  });

  it('bulk failedReceipts as {orderNumber, error} (sandbox), plain strings (SDK) and {request:{orderNumber}, message}', async () => {
    serve(
      'POST',
      '/receipt/normal/sale/bulk',
      {
        receipts: [
          { receipt: { ...RECEIPT, orderNumber: 'K1-1' } },
          { ...RECEIPT, invoiceNumber: 'A-B-8', orderNumber: 'K1-2' },
        ],
        failedReceipts: [
          'K1-10: Tax Administration rejected the label',
          'K1-11',
          'K1-14: Order number already used (ERR_00603)',
          { orderNumber: 'K1-12', error: { status: 400, code: 'ERR_00701', message: 'totals' } },
          { request: { orderNumber: 'K1-13' }, message: 'bad gtin', code: 'ERR_01010' },
        ],
        totalProcessed: 6,
      },
      201,
    );
    const bodies = ['K1-1', 'K1-2', 'K1-10', 'K1-11', 'K1-12', 'K1-13', 'K1-14', 'K1-1000'].map((n) =>
      JSON.stringify({ orderNumber: n }),
    );
    const r = await client.bulk('normal', 'sale', bodies);
    expect((r.receipts as { orderNumber: string }[]).map((x) => x.orderNumber)).toEqual(['K1-1', 'K1-2']);
    expect(r.failedReceipts).toEqual([
      { orderNumber: 'K1-10', error: { status: 400, code: null, message: 'Tax Administration rejected the label' } },
      { orderNumber: 'K1-11', error: { status: 400, code: null, message: 'rejected in bulk' } },
      {
        orderNumber: 'K1-14',
        error: { status: 400, code: 'ERR_00603', message: 'Order number already used (ERR_00603)' },
      },
      { orderNumber: 'K1-12', error: { status: 400, code: 'ERR_00701', message: 'totals' } },
      { orderNumber: 'K1-13', error: { status: 400, code: 'ERR_01010', message: 'bad gtin' } },
    ]);
  });

  it('draft records flat, {id, draft} and {data}; lists under data/items or bare', async () => {
    serve('POST', '/receipt/drafts', { id: 5, draft: { draftName: 'a', orderNumber: 'P1' } }, 201);
    expect(await client.createDraft({})).toMatchObject({ id: 5, draftName: 'a' });
    serve('GET', '/receipt/drafts/5', { data: { id: 5, draftName: 'b' } });
    expect(await client.getDraft(5)).toMatchObject({ id: 5, draftName: 'b' });
    serve('PUT', '/receipt/drafts/5', { id: 5, draftName: 'c' });
    expect(await client.updateDraft(5, { draftName: 'c' })).toMatchObject({ id: 5, draftName: 'c' });
    serve('GET', '/receipt/drafts', [{ id: 5, draft: { draftName: 'd' } }]);
    expect((await client.listDrafts()).items).toEqual([{ id: 5, draftName: 'd' }]);
    serve('GET', '/receipt/drafts', { items: [{ id: 6 }], pagination: { totalItems: 1 } });
    expect(await client.listDrafts()).toEqual({ items: [{ id: 6 }], total: 1 });
  });
});
