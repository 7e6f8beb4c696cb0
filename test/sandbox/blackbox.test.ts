/**
 * Black-box suite of the sandbox gateway: real HTTP on 127.0.0.1 with plain fetch only, controls
 * through `/__sandbox/`. Every endpoint, every rule of the spec, every fault action.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';

type Json = Record<string, unknown>;
interface Res {
  status: number;
  json: Json;
  text: string;
  headers: Headers;
}

let sb: Sandbox;
let base: string;
let seq = 0;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  sb = await startSandbox();
  base = sb.url;
});
afterAll(async () => {
  await sb.close();
});
beforeEach(async () => {
  await control('reset');
});

function on(prefix = 'BB'): string {
  seq += 1;
  return `${prefix}-${seq}`;
}

async function call(
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown; raw?: string | Uint8Array<ArrayBuffer>; signal?: AbortSignal } = {},
): Promise<Res> {
  const headers: Record<string, string> = {};
  const key = opts.key === undefined ? 'demo-key' : opts.key;
  if (key !== null) headers['Authorization'] = `Bearer ${key}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(base + path, { method, headers, body, signal: opts.signal });
  const text = await r.text();
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = {};
  }
  return { status: r.status, json, text, headers: r.headers };
}

async function control(what: string, body?: unknown): Promise<Json> {
  const r = await fetch(`${base}/__sandbox/${what}`, {
    method: body === undefined && what !== 'reset' ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? (what === 'reset' ? '{}' : undefined) : JSON.stringify(body),
  });
  expect(r.status).toBe(200);
  return (await r.json()) as Json;
}

async function ledger(): Promise<
  { orderNumber: string; invoiceNumber: string; invoiceType: string; transactionType: string }[]
> {
  return (await control('ledger'))['receipts'] as never;
}

function item(over: Json = {}): Json {
  return { name: 'Хлеб', quantity: 1, unitPrice: 100, totalAmount: 100, labels: ['A'], ...over };
}

function sale(orderNumber: string, over: Json = {}): Json {
  return { orderNumber, items: [item()], payments: [{ type: 'cash', amount: 100 }], ...over };
}

function receiptOf(r: Res): Json {
  return r.json['receipt'] as Json;
}

function expectError(r: Res, status: number, code: string | null): void {
  expect(r.status).toBe(status);
  expect(r.json['status']).toBe(status);
  if (code === null) expect(r.json).not.toHaveProperty('code');
  else expect(r.json['code']).toBe(code);
  expect(typeof r.json['message']).toBe('string');
  expect(r.json['correlationId']).toMatch(UUID);
}

function fields(r: Res): string[] {
  const details = r.json['details'] as { validationErrors: { field: string; message: string }[] };
  for (const e of details.validationErrors) expect(typeof e.message).toBe('string');
  return details.validationErrors.map((e) => e.field);
}

async function issue(
  orderNumber = on(),
  over: Json = {},
  path = '/receipt/normal/sale',
  key = 'demo-key',
): Promise<Json> {
  const r = await call('POST', path, { body: sale(orderNumber, over), key });
  expect(r.status).toBe(201);
  return receiptOf(r);
}

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition never became true');
}

async function routeCount(key: string): Promise<number> {
  const s = await control('stats');
  return ((s['requests'] as Record<string, number>)[key] ?? 0) as number;
}

describe('authentication', () => {
  it('rejects a missing or unknown key with 401 ERR_00101 and the full error body', async () => {
    for (const key of [null, 'wrong-key']) {
      const r = await call('GET', '/receipt/tax-rates', { key });
      expectError(r, 401, 'ERR_00101');
      expect(r.json['path']).toBe('/receipt/tax-rates');
    }
  });

  it('verifies V1 and V2 keys of the same shop', async () => {
    const v2 = await call('POST', '/auth/verify-api-token');
    expect(v2.status).toBe(201);
    expect(v2.json).toMatchObject({ type: 'api-key', apiKey: { version: 'V2' }, user: null });
    const v1 = await call('POST', '/auth/verify-api-token', { key: 'demo-key-v1' });
    expect(v1.json).toMatchObject({ type: 'api-key', apiKey: { version: 'V1' } });
    const a1 = v1.json['authable'] as Json;
    const a2 = v2.json['authable'] as Json;
    expect(a1['shopId']).toBe(a2['shopId']);
    expect(a1['id']).not.toBe(a2['id']);
    const prod = await call('POST', '/auth/verify-api-token', { key: 'prod-key' });
    expect((prod.json['authable'] as Json)['shopId']).not.toBe(a2['shopId']);
  });

  it('serves /auth/api-key/me', async () => {
    const r = await call('GET', '/auth/api-key/me');
    expect(r.status).toBe(200);
    for (const f of ['apiKeyId', 'apiKeyName', 'companyId', 'companyName', 'shopId', 'shopName'])
      expect(r.json).toHaveProperty(f);
  });

  it('answers 403 without code for a key without access', async () => {
    expect((await call('POST', '/auth/verify-api-token', { key: 'noaccess-key' })).status).toBe(201);
    for (const [method, path] of [
      ['POST', '/receipt/normal/sale'],
      ['GET', '/archive/receipts'],
      ['GET', '/archive/receipts/X-Y-1'],
    ] as const) {
      const r = await call(method, path, { key: 'noaccess-key', body: method === 'POST' ? sale(on()) : undefined });
      expectError(r, 403, null);
    }
    expect(await ledger()).toHaveLength(0);
  });

  it('shares the shop between demo-key and demo-key-v1 but not with prod-key', async () => {
    const r = await issue();
    const viaV1 = await call('GET', `/archive/receipts/${String(r['invoiceNumber'])}`, { key: 'demo-key-v1' });
    expect(viaV1.status).toBe(200);
    const viaProd = await call('GET', `/archive/receipts/${String(r['invoiceNumber'])}`, { key: 'prod-key' });
    expectError(viaProd, 404, 'NOT_FOUND');
  });
});

describe('tax rates and labels', () => {
  it('serves the demo test group and its history', async () => {
    const r = await call('GET', '/receipt/tax-rates');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const current = r.json['currentTaxRates'] as {
      groupId: number;
      validFrom: string;
      taxCategories: { taxRates: { label: string; rate: number }[] }[];
    };
    const rates = Object.fromEntries(current.taxCategories.flatMap((c) => c.taxRates.map((t) => [t.label, t.rate])));
    expect(rates).toEqual({ Ж: 19, A: 10, F: 11, B: 0, N: 0, C: 0, E: 6, P: 0.5, T: 2 });
    const all = r.json['allTaxRates'] as { groupId: number }[];
    expect(all.length).toBeGreaterThan(1);
    expect(all.map((g) => g.groupId)).toContain(current.groupId);
  });

  it('serves the production labels as Cyrillic UTF-8', async () => {
    const r = await fetch(`${base}/receipt/tax-rates`, { headers: { Authorization: 'Bearer prod-key' } });
    const bytes = Buffer.from(await r.arrayBuffer());
    expect(bytes.includes(Buffer.from('"label":"Ђ"', 'utf8'))).toBe(true);
    const json = JSON.parse(bytes.toString('utf8')) as {
      currentTaxRates: { taxCategories: { taxRates: { label: string; rate: number }[] }[] };
    };
    const rates = Object.fromEntries(
      json.currentTaxRates.taxCategories.flatMap((c) => c.taxRates.map((t) => [t.label, t.rate])),
    );
    expect(rates).toEqual({ Ђ: 20, Е: 10, Г: 0, А: 0 });
    expect(rates['\u0410']).toBe(0); // Cyrillic А
    expect(rates['A']).toBeUndefined(); // Latin A is another label
  });

  it('fiscalizes A, E and F on demo and rejects every other label with ERR_01010 / 2310', async () => {
    for (const label of ['A', 'E', 'F']) await issue(on(), { items: [item({ labels: [label] })] });
    for (const label of ['Ж', 'B', 'N', 'C', 'P', 'T', 'Ђ', 'Е', 'Г', 'А', 'X']) {
      const r = await call('POST', '/receipt/normal/sale', {
        body: sale(on(), { items: [item({ labels: [label] })] }),
      });
      expectError(r, 400, 'ERR_01010');
      expect(JSON.stringify((r.json['details'] as Json)['pursRawResponse'])).toContain('2310');
    }
    expect(await ledger()).toHaveLength(3);
  });

  it('fiscalizes all four production labels on the prod account, round-tripping Cyrillic', async () => {
    const labels = ['Ђ', 'Е', 'Г', 'А'];
    const body = {
      orderNumber: on('ПРОД'),
      items: labels.map((l, i) =>
        item({ name: `Артикал ${l}`, unitPrice: 100 + i, totalAmount: 100 + i, labels: [l] }),
      ),
      payments: [{ type: 'card', amount: 406 }],
    };
    const r = await call('POST', '/receipt/normal/sale', {
      key: 'prod-key',
      raw: new TextEncoder().encode(JSON.stringify(body)),
    });
    expect(r.status).toBe(201);
    const taxItems = receiptOf(r)['taxItems'] as { label: string; amount: number; rate: number }[];
    expect(taxItems.map((t) => t.label).sort()).toEqual([...labels].sort());
    expect(taxItems.find((t) => t.label === 'Ђ')).toMatchObject({ rate: 20, amount: 16.67 });
    expect(taxItems.find((t) => t.label === 'Е')).toMatchObject({ rate: 10, amount: 9.18 });
    expect(receiptOf(r)['orderNumber']).toBe(body.orderNumber);
    for (const label of ['A', 'E', 'F']) {
      const bad = await call('POST', '/receipt/normal/sale', {
        key: 'prod-key',
        body: sale(on(), { items: [item({ labels: [label] })] }),
      });
      expectError(bad, 400, 'ERR_01010');
    }
  });

  it('rejects an invalid GTIN on production with ERR_01010', async () => {
    const r = await call('POST', '/receipt/normal/sale', {
      key: 'prod-key',
      body: sale(on(), { items: [item({ labels: ['Ђ'], gtin: '12ab' })] }),
    });
    expectError(r, 400, 'ERR_01010');
  });
});

describe('sale', () => {
  it('issues a realistic receipt', async () => {
    const meta = { kasa: { terminal: 'T1', nested: [1, 'два', null] }, note: 'ćčžšđ ЋЧЖШЂ' };
    const body = sale(on(), {
      items: [
        item({ quantity: 2, unitPrice: 60, totalAmount: 120 }),
        item({ name: 'Mleko', unitPrice: 99.99, totalAmount: 99.99, labels: ['E'] }),
      ],
      payments: [
        { type: 'cash', amount: 200 },
        { type: 'card', amount: 19.99 },
      ],
      metaFields: meta,
    });
    const r = await call('POST', '/receipt/normal/sale', { body });
    expect(r.status).toBe(201);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.json['correlationId']).toMatch(UUID);
    const rc = receiptOf(r);
    expect(rc['invoiceNumber']).toMatch(/^[A-Z0-9]{8}-[A-Z0-9]{8}-\d+$/);
    expect(rc['invoiceCounter']).toMatch(/^\d+\/\d+ОП$/);
    expect(rc['invoiceCounterExtension']).toBe('ОП');
    expect(rc['sdcDateTime']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(rc['verificationUrl']).toMatch(/^https:\/\/tap\.sandbox\.suf\.purs\.gov\.rs\/v\/\?vl=[A-Za-z0-9_-]+$/);
    expect(rc['invoicePdfUrl']).toBe(`${base}/files/${String(rc['invoiceNumber'])}.pdf`);
    expect(rc).not.toHaveProperty('qrCodeFileUrl');
    expect(rc).toMatchObject({
      totalAmount: 219.99,
      invoiceType: 'normal',
      transactionType: 'sale',
      orderNumber: body['orderNumber'],
    });
    expect(rc['metaFields']).toEqual(meta);
    expect(rc['taxItems']).toEqual([
      { categoryType: 0, label: 'A', amount: 10.91, rate: 10, categoryName: expect.any(String) as unknown },
      { categoryType: 0, label: 'E', amount: 5.66, rate: 6, categoryName: expect.any(String) as unknown },
    ]);
    const additional = rc['additional'] as Json;
    for (const f of ['mrc', 'tin', 'signedBy', 'signature', 'requestedBy', 'taxGroupRevision', 'messages'])
      expect(additional).toHaveProperty(f);
    expect(
      String(rc['invoiceNumber']).startsWith(`${String(additional['requestedBy'])}-${String(additional['signedBy'])}-`),
    ).toBe(true);
    // a fresh correlationId on every response
    const again = await call('POST', '/receipt/normal/sale', { body: sale(on()) });
    expect(again.json['correlationId']).not.toBe(r.json['correlationId']);
    expect(again.headers.get('x-correlation-id')).toBe(again.json['correlationId']);
  });

  it('accepts the invoiceType path segment in any case and the other sale types', async () => {
    expect((await issue(on(), {}, '/receipt/NORMAL/sale'))['invoiceType']).toBe('normal');
    expect((await issue(on(), {}, '/receipt/Training/sale'))['invoiceCounterExtension']).toBe('ТП');
    expect((await issue(on(), {}, '/receipt/proforma/sale'))['invoiceCounterExtension']).toBe('РП');
    const original = await issue();
    const copy = await issue(
      on(),
      { referentDocumentNumber: original['invoiceNumber'], referentDocumentDt: original['sdcDateTime'] },
      '/receipt/copy/sale',
    );
    expect(copy).toMatchObject({
      invoiceType: 'copy',
      invoiceCounterExtension: 'КП',
      referentDocumentNumber: original['invoiceNumber'],
    });
    const r = await call('POST', '/receipt/bogus/sale', { body: sale(on()) });
    expectError(r, 400, 'ERR_00202');
    expect(fields(r)).toContain('invoiceType');
    expectError(await call('POST', '/receipt/proforma/refund', { body: sale(on()) }), 400, 'ERR_00202');
  });

  it('numbers receipts with a total counter and a per-type counter', async () => {
    const a = await issue();
    const b = await issue();
    const t = await issue(on(), {}, '/receipt/training/sale');
    const n = (x: Json) => Number(String(x['invoiceNumber']).split('-')[2]);
    expect(n(b)).toBe(n(a) + 1);
    expect(n(t)).toBe(n(b) + 1);
    expect(a['invoiceCounter']).toBe(`1/${n(a)}ОП`);
    expect(b['invoiceCounter']).toBe(`2/${n(b)}ОП`);
    expect(t['invoiceCounter']).toBe(`1/${n(t)}ТП`);
  });
});

describe('validation (ERR_00202)', () => {
  const cases: [string, unknown, string][] = [
    ['missing orderNumber', { items: [item()], payments: [{ type: 'cash', amount: 100 }] }, 'orderNumber'],
    ['wrong-typed orderNumber', { ...sale('x'), orderNumber: 12 }, 'orderNumber'],
    ['empty items', { ...sale('x'), items: [] }, 'items'],
    ['missing items', { orderNumber: 'x', payments: [{ type: 'cash', amount: 1 }] }, 'items'],
    [
      'item name missing',
      { ...sale('x'), items: [{ quantity: 1, unitPrice: 1, totalAmount: 1, labels: ['A'] }] },
      'items[0].name',
    ],
    ['quantity as string', { ...sale('x'), items: [item({ quantity: '1' })] }, 'items[0].quantity'],
    ['labels missing', { ...sale('x'), items: [item({ labels: undefined })] }, 'items[0].labels'],
    ['three decimals of money', { ...sale('x'), items: [item({ totalAmount: 100.001 })] }, 'items[0].totalAmount'],
    ['missing payments', { orderNumber: 'x', items: [item()] }, 'payments'],
    ['unknown payment type', { ...sale('x'), payments: [{ type: 'bitcoin', amount: 100 }] }, 'payments[0].type'],
    ['invalid buyerId', { ...sale('x'), buyerId: '123456789' }, 'buyerId'],
    ['short tax id', { ...sale('x'), buyerId: '10:1234' }, 'buyerId'],
    ['unknown buyer id type (issue 21)', { ...sale('x'), buyerId: '99:x' }, 'buyerId'],
    ['metaFields not an object', { ...sale('x'), metaFields: 'x' }, 'metaFields'],
    [
      'settings flag not boolean',
      { ...sale('x'), settings: { returnIfOrderNumberExists: 'yes' } },
      'settings.returnIfOrderNumberExists',
    ],
    ['body is an array', [sale('x')], 'body'],
  ];
  it.each(cases)('%s', async (_name, body, field) => {
    const r = await call('POST', '/receipt/normal/sale', { body });
    expectError(r, 400, 'ERR_00202');
    expect(fields(r)).toContain(field);
    expect(r.json['path']).toBe('/receipt/normal/sale');
  });

  it('rejects malformed JSON and invalid UTF-8', async () => {
    expectError(await call('POST', '/receipt/normal/sale', { raw: '{"orderNumber":' }), 400, 'ERR_00202');
    expectError(
      await call('POST', '/receipt/normal/sale', { raw: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }),
      400,
      'ERR_00202',
    );
    expect(await ledger()).toHaveLength(0);
  });

  it('accepts valid buyer ids', async () => {
    await issue(on(), { buyerId: '10:123456789' });
    await issue(on(), { buyerId: '11:0101990710006' });
  });
});

describe('amounts (ERR_00701)', () => {
  it('rejects a mismatch, compares in para and honours skipAmountValidation', async () => {
    const r = await call('POST', '/receipt/normal/sale', {
      body: sale(on(), { payments: [{ type: 'cash', amount: 99.99 }] }),
    });
    expectError(r, 400, 'ERR_00701');
    // 0.1 + 0.2 in floats is not 0.3, in para it is.
    await issue(on(), {
      items: [item({ unitPrice: 0.1, totalAmount: 0.1 }), item({ unitPrice: 0.2, totalAmount: 0.2 })],
      payments: [{ type: 'cash', amount: 0.3 }],
    });
    await issue(on(), { payments: [{ type: 'cash', amount: 1 }], settings: { skipAmountValidation: true } });
    // advanceAmount is added on top of amount
    const twice = await call('POST', '/receipt/normal/sale', {
      body: sale(on(), { payments: [{ type: 'cash', amount: 100, advanceAmount: 100 }] }),
    });
    expectError(twice, 400, 'ERR_00701');
  });
});

describe('order numbers', () => {
  it('rejects a duplicate with ERR_00603 and returns the existing receipt with returnIfOrderNumberExists', async () => {
    const orderNumber = on();
    const first = await issue(orderNumber);
    expectError(await call('POST', '/receipt/normal/sale', { body: sale(orderNumber) }), 400, 'ERR_00603');
    const again = await call('POST', '/receipt/normal/sale', {
      body: sale(orderNumber, { settings: { returnIfOrderNumberExists: true } }),
    });
    expect(again.status).toBe(201);
    expect(receiptOf(again)['invoiceNumber']).toBe(first['invoiceNumber']);
    expect(receiptOf(again)['journal']).toBe(first['journal']);
    expect((await ledger()).filter((l) => l.orderNumber === orderNumber)).toHaveLength(1);
  });

  it('scopes uniqueness per shop, invoiceType and transactionType', async () => {
    const orderNumber = on();
    await issue(orderNumber);
    await issue(orderNumber, {}, '/receipt/training/sale');
    await issue(orderNumber, { items: [item({ labels: ['Ђ'] })] }, '/receipt/normal/sale', 'prod-key');
    expectError(
      await call('POST', '/receipt/normal/sale', { key: 'demo-key-v1', body: sale(orderNumber) }),
      400,
      'ERR_00603',
    );
  });

  it('bypasses the check with skipOrderNumberValidation', async () => {
    const orderNumber = on();
    const a = await issue(orderNumber);
    const b = await issue(orderNumber, { settings: { skipOrderNumberValidation: true } });
    expect(b['invoiceNumber']).not.toBe(a['invoiceNumber']);
  });

  it('forgets order numbers after the 14-day window on the sandbox clock', async () => {
    const orderNumber = on();
    const first = await issue(orderNumber);
    await control('clock', { advanceMs: 13 * DAY });
    const inside = await call('POST', '/receipt/normal/sale', {
      body: sale(orderNumber, { settings: { returnIfOrderNumberExists: true } }),
    });
    expect(receiptOf(inside)['invoiceNumber']).toBe(first['invoiceNumber']);
    expectError(await call('POST', '/receipt/normal/sale', { body: sale(orderNumber) }), 400, 'ERR_00603');
    await control('clock', { advanceMs: DAY + 1 });
    const after = await issue(orderNumber);
    expect(after['invoiceNumber']).not.toBe(first['invoiceNumber']);
    expect(Date.parse(String(after['sdcDateTime'])) - Date.parse(String(first['sdcDateTime']))).toBeGreaterThanOrEqual(
      14 * DAY,
    );
    // with the flag, after the window, the latest (now in its own window) is returned
    const flagged = await call('POST', '/receipt/normal/sale', {
      body: sale(orderNumber, { settings: { returnIfOrderNumberExists: true } }),
    });
    expect(receiptOf(flagged)['invoiceNumber']).toBe(after['invoiceNumber']);
    const clock = await control('clock', { offsetMs: -20 * DAY });
    expect(clock['offsetMs']).toBe(-20 * DAY);
  });

  it('issues a new receipt with returnIfOrderNumberExists after the window', async () => {
    const orderNumber = on();
    const first = await issue(orderNumber, { settings: { returnIfOrderNumberExists: true } });
    await control('clock', { advanceMs: 15 * DAY });
    const later = await issue(orderNumber, { settings: { returnIfOrderNumberExists: true } });
    expect(later['invoiceNumber']).not.toBe(first['invoiceNumber']);
  });
});

describe('refunds', () => {
  it('requires referentDocumentNumber, referentDocumentDt and buyerId', async () => {
    const r = await call('POST', '/receipt/normal/refund', { body: sale(on()) });
    expectError(r, 400, 'ERR_00202');
    expect(fields(r)).toEqual(expect.arrayContaining(['referentDocumentNumber', 'referentDocumentDt', 'buyerId']));
  });

  it('refunds an existing receipt, waiving buyerId with skipBuyerIdValidation', async () => {
    const original = await issue();
    const ref = { referentDocumentNumber: original['invoiceNumber'], referentDocumentDt: original['sdcDateTime'] };
    const withBuyer = await issue(on(), { ...ref, buyerId: '10:123456789' }, '/receipt/normal/refund');
    expect(withBuyer).toMatchObject({
      transactionType: 'refund',
      invoiceCounterExtension: 'ПР',
      referentDocumentNumber: original['invoiceNumber'],
    });
    expect(String(withBuyer['journal'])).toContain('Реф. број:');
    expect(String(withBuyer['journal'])).toContain('-100,00');
    await issue(on(), { ...ref, settings: { skipBuyerIdValidation: true } }, '/receipt/normal/refund');
    const training = await issue(
      on(),
      { ...ref, settings: { skipBuyerIdValidation: true } },
      '/receipt/training/refund',
    );
    expect(training['invoiceCounterExtension']).toBe('ТР');
  });

  it('rejects a refund of an unknown invoice with ERR_00201', async () => {
    const r = await call('POST', '/receipt/normal/refund', {
      body: sale(on(), {
        referentDocumentNumber: 'NOPE0000-NOPE0000-1',
        referentDocumentDt: '2024-01-01T00:00:00Z',
        buyerId: '10:123456789',
      }),
    });
    expectError(r, 400, 'ERR_00201');
  });
});

describe('full refund', () => {
  it('refunds 100 % of the original', async () => {
    const original = await issue(on(), {
      items: [
        item({ quantity: 3, unitPrice: 50, totalAmount: 150 }),
        item({ name: 'Сок', unitPrice: 120.5, totalAmount: 120.5, labels: ['F'] }),
      ],
      payments: [{ type: 'card', amount: 270.5 }],
    });
    const r = await call('POST', `/receipt/${String(original['invoiceNumber'])}/refund/full`, {
      body: { orderNumber: on(), items: [item()], buyerId: '11:0101990710006' },
    });
    expect(r.status).toBe(201);
    expect(receiptOf(r)).toMatchObject({
      transactionType: 'refund',
      invoiceType: 'normal',
      totalAmount: 270.5,
      referentDocumentNumber: original['invoiceNumber'],
      referentDocumentDt: original['sdcDateTime'],
    });
    expect(receiptOf(r)['taxItems']).toEqual(original['taxItems']);
  });

  it('404s with an invoiceType segment or an unknown invoice, 400s without buyerId', async () => {
    const original = await issue();
    const body = { orderNumber: on(), items: [item()], buyerId: '10:123456789' };
    expectError(
      await call('POST', `/receipt/training/${String(original['invoiceNumber'])}/refund/full`, { body }),
      404,
      'NOT_FOUND',
    );
    expectError(await call('POST', '/receipt/NOPE0000-NOPE0000-9/refund/full', { body }), 404, 'NOT_FOUND');
    const r = await call('POST', `/receipt/${String(original['invoiceNumber'])}/refund/full`, {
      body: { orderNumber: on(), items: [item()] },
    });
    expectError(r, 400, 'ERR_00202');
    expect(fields(r)).toContain('buyerId');
  });
});

describe('advance chain', () => {
  it('issues an advance, then finalizes it into an advance refund and a final sale', async () => {
    const adv = await issue(on(), {}, '/receipt/advance/sale');
    expect(adv).toMatchObject({ invoiceType: 'advance', transactionType: 'sale', invoiceCounterExtension: 'АП' });
    const body = {
      orderNumber: on(),
      referentDocumentNumber: adv['invoiceNumber'],
      items: [item({ unitPrice: 300, totalAmount: 300 })],
      payments: [{ type: 'cash', amount: 200, advanceAmount: 100 }],
    };
    const r = await call('POST', '/receipt/advance/finalize', { body });
    expect(r.status).toBe(201);
    expect(r.json['correlationId']).toMatch(UUID);
    const refund = r.json['refundReceipt'] as Json;
    const final = r.json['finalReceipt'] as Json;
    expect(refund).toMatchObject({
      invoiceType: 'advance',
      transactionType: 'refund',
      invoiceCounterExtension: 'АР',
      referentDocumentNumber: adv['invoiceNumber'],
      totalAmount: 100,
    });
    expect(final).toMatchObject({
      invoiceType: 'normal',
      transactionType: 'sale',
      invoiceCounterExtension: 'ПП',
      referentDocumentNumber: refund['invoiceNumber'],
      totalAmount: 300,
    });
    const archived = await call('GET', `/archive/receipts/${String(final['invoiceNumber'])}`);
    const chain = archived.json['chain'] as Json[];
    expect(chain.map((c) => c['invoiceNumber'])).toEqual([
      adv['invoiceNumber'],
      refund['invoiceNumber'],
      final['invoiceNumber'],
    ]);
    expect(archived.json['chainMetadata']).toMatchObject({
      rootInvoiceNumber: adv['invoiceNumber'],
      length: 3,
      position: 2,
    });
    // retry of the lost response
    const again = await call('POST', '/receipt/advance/finalize', {
      body: { ...body, settings: { returnIfOrderNumberExists: true } },
    });
    expect((again.json['finalReceipt'] as Json)['invoiceNumber']).toBe(final['invoiceNumber']);
    expect((again.json['refundReceipt'] as Json)['invoiceNumber']).toBe(refund['invoiceNumber']);
    expectError(await call('POST', '/receipt/advance/finalize', { body }), 400, 'ERR_00603');
  });

  it('requires referentDocumentNumber on finalize (ERR_00201)', async () => {
    const r = await call('POST', '/receipt/advance/finalize', { body: sale(on()) });
    expectError(r, 400, 'ERR_00201');
    const unknown = await call('POST', '/receipt/advance/finalize', {
      body: sale(on(), { referentDocumentNumber: 'NOPE0000-NOPE0000-1' }),
    });
    expectError(unknown, 400, 'ERR_00201');
  });

  it('allows only A, E, F on demo advance items (409 ERR_00302)', async () => {
    const r = await call('POST', '/receipt/advance/sale', { body: sale(on(), { items: [item({ labels: ['Ж'] })] }) });
    expectError(r, 409, 'ERR_00302');
    const adv = await issue(on(), {}, '/receipt/advance/sale');
    const fin = await call('POST', '/receipt/advance/finalize', {
      body: sale(on(), { referentDocumentNumber: adv['invoiceNumber'], items: [item({ labels: ['N'] })] }),
    });
    expectError(fin, 409, 'ERR_00302');
  });

  it("#21: the advance refund of a chain cancels every advance of it net of their refunds (the Tax Administration's chain)", async () => {
    const a1 = await issue(
      on(),
      {
        items: [item({ name: 'Аванс', unitPrice: 3000, totalAmount: 3000 })],
        payments: [{ type: 'cash', amount: 3000 }],
      },
      '/receipt/advance/sale',
    );
    // A further advance references the previous one.
    const a2 = await issue(
      on(),
      {
        referentDocumentNumber: a1['invoiceNumber'],
        items: [item({ name: 'Аванс', unitPrice: 2000, totalAmount: 2000 })],
        payments: [{ type: 'card', amount: 2000 }],
      },
      '/receipt/advance/sale',
    );
    // 500.00 of the first advance was given back.
    const back = await call('POST', '/receipt/advance/refund', {
      body: sale(on(), {
        referentDocumentNumber: a1['invoiceNumber'],
        referentDocumentDt: a1['sdcDateTime'],
        items: [item({ name: 'Аванс', unitPrice: 500, totalAmount: 500 })],
        payments: [{ type: 'cash', amount: 500 }],
        settings: { skipBuyerIdValidation: true },
      }),
    });
    expect(back.status).toBe(201);
    const r = await call('POST', '/receipt/advance/finalize', {
      body: {
        orderNumber: on(),
        referentDocumentNumber: a2['invoiceNumber'],
        items: [item({ name: 'Софа', unitPrice: 10000, totalAmount: 10000 })],
        payments: [{ type: 'cash', amount: 5500, advanceAmount: 4500 }],
      },
    });
    expect(r.status).toBe(201);
    const refund = r.json['refundReceipt'] as Json;
    const final = r.json['finalReceipt'] as Json;
    expect(refund).toMatchObject({
      invoiceCounterExtension: 'АР',
      referentDocumentNumber: a2['invoiceNumber'],
      totalAmount: 4500,
    });
    expect(final).toMatchObject({
      invoiceCounterExtension: 'ПП',
      referentDocumentNumber: refund['invoiceNumber'],
      totalAmount: 10000,
    });
    expect(String(final['journal'])).toMatch(/Плаћено авансом:\s+4\.500,00/);
  });

  it('rejects advanceAmount repeated in amount (ERR_00701)', async () => {
    const r = await call('POST', '/receipt/advance/sale', {
      body: sale(on(), { payments: [{ type: 'cash', amount: 100, advanceAmount: 100 }] }),
    });
    expectError(r, 400, 'ERR_00701');
  });
});

describe('bulk', () => {
  it('rejects a bare array, an empty list and more than 30', async () => {
    expectError(await call('POST', '/receipt/normal/sale/bulk', { body: [sale(on())] }), 400, 'ERR_00202');
    expectError(await call('POST', '/receipt/normal/sale/bulk', { body: { receipts: [] } }), 400, 'ERR_00202');
    const many = Array.from({ length: 31 }, () => sale(on()));
    expectError(await call('POST', '/receipt/normal/sale/bulk', { body: { receipts: many } }), 400, 'ERR_00202');
    expect(await ledger()).toHaveLength(0);
  });

  it('issues each element by its own rules and reports failures per orderNumber', async () => {
    const existing = on();
    const first = await issue(existing);
    const dup = on();
    await issue(dup);
    const okOrders = Array.from({ length: 27 }, () => on());
    const bad = on();
    const receipts = [
      ...okOrders.map((o) => sale(o)),
      sale(existing, { settings: { returnIfOrderNumberExists: true } }),
      sale(dup),
      sale(bad, { items: [item({ labels: ['Ж'] })] }),
    ];
    const r = await call('POST', '/receipt/NORMAL/sale/bulk', { body: { receipts } });
    expect(r.status).toBe(201);
    expect(r.json).not.toHaveProperty('correlationId');
    expect(r.json).toMatchObject({ totalProcessed: 30, successful: 28, failed: 2 });
    const ok = r.json['receipts'] as Json[];
    expect(ok.map((x) => x['orderNumber'])).toEqual([...okOrders, existing]);
    expect(ok[27]?.['invoiceNumber']).toBe(first['invoiceNumber']);
    for (const x of ok) expect(x['invoiceNumber']).toMatch(/^[A-Z0-9]{8}-[A-Z0-9]{8}-\d+$/);
    const failed = r.json['failedReceipts'] as { orderNumber: string; error: Json }[];
    expect(failed.map((f) => [f.orderNumber, f.error['status'], f.error['code']])).toEqual([
      [dup, 400, 'ERR_00603'],
      [bad, 400, 'ERR_01010'],
    ]);
    expect(JSON.stringify(failed[1]?.error['details'])).toContain('2310');
    expect((await ledger()).length).toBe(2 + 27);
  });

  it('answers 429 without code to a second concurrent bulk of the same shop', async () => {
    await control('faults', { rules: [{ match: 'POST /receipt/normal/sale/bulk', action: 'hang', times: 1 }] });
    const abort = new AbortController();
    const first = fetch(`${base}/receipt/normal/sale/bulk`, {
      method: 'POST',
      headers: { Authorization: 'Bearer demo-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ receipts: [sale(on())] }),
      signal: abort.signal,
    }).catch((e: unknown) => e);
    await waitFor(async () => (await routeCount('POST /receipt/{invoiceType}/{transactionType}/bulk')) === 1);
    const second = await call('POST', '/receipt/normal/sale/bulk', { body: { receipts: [sale(on())] } });
    expect(second.status).toBe(429);
    expect(Object.keys(second.json).sort()).toEqual(['correlationId', 'message', 'status']);
    expect(second.json['status']).toBe(429);
    // another shop is not blocked
    const prod = await call('POST', '/receipt/normal/sale/bulk', {
      key: 'prod-key',
      body: { receipts: [sale(on(), { items: [item({ labels: ['Ђ'] })] })] },
    });
    expect(prod.status).toBe(201);
    abort.abort();
    await first;
    const third = await waitFor(async () => {
      const r = await call('POST', '/receipt/normal/sale/bulk', { body: { receipts: [sale(on())] } });
      return r.status === 429 ? null : r;
    });
    expect(third.status).toBe(201);
  });
});

describe('async', () => {
  it('acknowledges, then issues in the background', async () => {
    const orderNumber = on();
    const r = await call('POST', '/receipt/normal/sale/async', { body: sale(orderNumber) });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ status: 'queued', orderNumber });
    expect(r.json['correlationId']).toMatch(UUID);
    const record = await waitFor(async () => {
      const l = await call('POST', '/archive/receipts/fiscalization-lookup', { body: { orderNumbers: [orderNumber] } });
      const rec = (l.json['records'] as Json[])[0];
      return rec?.['fiscalized'] ? rec : null;
    });
    expect(record['invoiceNumber']).toMatch(/^[A-Z0-9]{8}-[A-Z0-9]{8}-\d+$/);
  });

  it('serves async refund and the deprecated generic path', async () => {
    const original = await issue();
    const refundBody = sale(on(), {
      referentDocumentNumber: original['invoiceNumber'],
      referentDocumentDt: original['sdcDateTime'],
    });
    const missing = await call('POST', '/receipt/normal/refund/async', { body: refundBody });
    expectError(missing, 400, 'ERR_00202');
    expect(fields(missing)).toContain('buyerId');
    const refund = await call('POST', '/receipt/normal/refund/async', {
      body: { ...refundBody, buyerId: '10:123456789' },
    });
    expect(refund.status).toBe(201);
    const generic = await call('POST', '/receipt/training/sale/async', { body: sale(on()) });
    expect(generic.status).toBe(201);
    await waitFor(async () => ((await control('stats'))['async'] as Json)['issued'] === 2);
  });

  it('answers 500 ERR_00002 when async is unavailable for the key', async () => {
    await control('async', { apiKey: 'demo-key', fail: true });
    expectError(await call('POST', '/receipt/normal/sale/async', { body: sale(on()) }), 500, 'ERR_00002');
    expect((await call('POST', '/receipt/normal/sale/async', { key: 'demo-key-v1', body: sale(on()) })).status).toBe(
      201,
    );
    await control('async', { apiKey: 'demo-key', fail: false });
    expect((await call('POST', '/receipt/normal/sale/async', { body: sale(on()) })).status).toBe(201);
  });
});

describe('archive and lookup', () => {
  it('lists with filters and pagination', async () => {
    const a = await issue(on('ARC'));
    await issue(on('ARC'), { payments: [{ type: 'card', amount: 100 }] });
    await issue(on('ARC'), {}, '/receipt/training/sale');
    await issue(on(), { items: [item({ labels: ['Ђ'] })] }, '/receipt/normal/sale', 'prod-key');
    const all = await call('GET', '/archive/receipts');
    expect(all.status).toBe(200);
    expect(all.json['meta']).toMatchObject({ page: 1, total: 3 });
    const page = await call('GET', '/archive/receipts?page=2&limit=2');
    expect((page.json['data'] as Json[]).length).toBe(1);
    expect(page.json['meta']).toMatchObject({ page: 2, limit: 2, total: 3 });
    const training = await call('GET', '/archive/receipts?invoiceType=training');
    expect((training.json['data'] as Json[]).map((x) => x['invoiceType'])).toEqual(['training']);
    const cards = await call('GET', '/archive/receipts?paymentType=Card');
    expect(cards.json['meta']).toMatchObject({ total: 1 });
    const byOrder = await call('GET', `/archive/receipts?orderNumber=${String(a['orderNumber'])}`);
    expect((byOrder.json['data'] as Json[])[0]?.['invoiceNumber']).toBe(a['invoiceNumber']);
    const byInvoice = await call(
      'GET',
      `/archive/receipts?invoiceNumber=${String(a['invoiceNumber'])}&transactionType=sale`,
    );
    expect(byInvoice.json['meta']).toMatchObject({ total: 1 });
    const future = await call('GET', '/archive/receipts?startDate=2999-01-01T00:00:00Z');
    expect(future.json['meta']).toMatchObject({ total: 0 });
    const past = await call(
      'GET',
      `/archive/receipts?endDate=${new Date(Date.parse(String(a['sdcDateTime'])) + 60_000).toISOString()}&startDate=2000-01-01`,
    );
    expect(past.json['meta']).toMatchObject({ total: 3 });
    expectError(await call('GET', '/archive/receipts?page=zero'), 400, 'ERR_00202');
  });

  it('gets one receipt with its QR and PDF files', async () => {
    const r = await issue();
    const got = await call('GET', `/archive/receipts/${String(r['invoiceNumber'])}`);
    expect(got.status).toBe(200);
    const rc = got.json['receipt'] as Json;
    expect(rc).toMatchObject({
      invoiceNumber: r['invoiceNumber'],
      journal: r['journal'],
      verificationUrl: r['verificationUrl'],
    });
    expect(got.json).toHaveProperty('chain');
    expect(got.json).toHaveProperty('chainMetadata');
    const png = await fetch(String(rc['qrCodeFileUrl']));
    expect(png.headers.get('content-type')).toBe('image/png');
    const img = PNG.sync.read(Buffer.from(await png.arrayBuffer()));
    const decoded = jsQR(new Uint8ClampedArray(img.data), img.width, img.height);
    expect(decoded?.data).toBe(r['verificationUrl']);
    const pdf = await fetch(String(rc['invoicePdfUrl']));
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(text.startsWith('%PDF-1.4')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    expectError(await call('GET', '/archive/receipts/NOPE0000-NOPE0000-1'), 404, 'NOT_FOUND');
    expect((await fetch(`${base}/files/NOPE.pdf`)).status).toBe(404);
  });

  it('looks up which orders were fiscalized', async () => {
    const r = await issue();
    const l = await call('POST', '/archive/receipts/fiscalization-lookup', {
      body: { orderNumbers: [r['orderNumber'], 'never-sent'] },
    });
    expect(l.status).toBe(200);
    const [hit, miss] = l.json['records'] as Json[];
    expect(hit).toMatchObject({
      orderNumber: r['orderNumber'],
      fiscalized: true,
      invoiceNumber: r['invoiceNumber'],
      sdcDateTime: r['sdcDateTime'],
    });
    expect(hit?.['receiptId']).toBeDefined();
    expect(miss).toMatchObject({ orderNumber: 'never-sent', fiscalized: false, invoiceNumber: null });
    expectError(
      await call('POST', '/archive/receipts/fiscalization-lookup', { body: { orderNumbers: 'x' } }),
      400,
      'ERR_00202',
    );
  });
});

describe('drafts', () => {
  it('creates, lists, gets, updates and deletes drafts of its own shop', async () => {
    const missing = await call('POST', '/receipt/drafts', { body: { orderNumber: 'D-1', items: [item()] } });
    expectError(missing, 400, 'ERR_00202');
    expect(fields(missing)).toContain('draftName');
    const created = await call('POST', '/receipt/drafts', {
      body: {
        draftName: 'Сто 4',
        orderNumber: 'Ord-ABC-1',
        items: [item()],
        payments: [{ type: 'cash', amount: 100 }],
      },
    });
    expect(created.status).toBe(201);
    const id = created.json['id'] as number;
    expect(typeof id).toBe('number');
    expect(created.json['draft']).toMatchObject({ id, draftName: 'Сто 4', orderNumber: 'Ord-ABC-1' });
    await call('POST', '/receipt/drafts', { body: { draftName: 'Terasa', orderNumber: 'ord-abc-2', items: [item()] } });
    await call('POST', '/receipt/drafts', { body: { draftName: 'Other', orderNumber: 'X-9', items: [item()] } });
    const partial = await call('GET', '/receipt/drafts?orderNumber=ORD-abc');
    expect(partial.json['meta']).toMatchObject({ total: 2 });
    const exact = await call('GET', '/receipt/drafts?orderNumber=Ord-ABC-1&orderNumberExact=true');
    expect((exact.json['data'] as Json[]).map((d) => d['id'])).toEqual([id]);
    const exactMiss = await call('GET', '/receipt/drafts?orderNumber=ord-ABC-1&orderNumberExact=true');
    expect(exactMiss.json['meta']).toMatchObject({ total: 0 });
    const byName = await call('GET', '/receipt/drafts?draftName=сто');
    expect(byName.json['meta']).toMatchObject({ total: 1 });
    const paged = await call('GET', '/receipt/drafts?page=1&limit=2');
    expect((paged.json['data'] as Json[]).length).toBe(2);
    expect(paged.json['meta']).toMatchObject({ total: 3 });
    const got = await call('GET', `/receipt/drafts/${id}`);
    expect(got.json).toMatchObject({ id, draftName: 'Сто 4' });
    const put = await call('PUT', `/receipt/drafts/${id}`, { body: { draftName: 'Сто 5' } });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ id, draftName: 'Сто 5', orderNumber: 'Ord-ABC-1' });
    expectError(await call('PUT', `/receipt/drafts/${id}`, { body: { items: [] } }), 400, 'ERR_00202');
    expectError(await call('GET', `/receipt/drafts/${id}`, { key: 'prod-key' }), 404, 'NOT_FOUND');
    expectError(
      await call('PUT', `/receipt/drafts/${id}`, { key: 'prod-key', body: { draftName: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expect((await call('DELETE', `/receipt/drafts/${id}`)).status).toBe(200);
    expectError(await call('GET', `/receipt/drafts/${id}`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/receipt/drafts/${id}`), 404, 'NOT_FOUND');
  });
});

describe('cashiers', () => {
  it('creates, lists with search and fuzzy name, gets and updates', async () => {
    const a = await call('POST', '/cashiers', { body: { name: 'Đorđe Petrović', email: 'djordje@example.rs' } });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ name: 'Đorđe Petrović', email: 'djordje@example.rs', active: true });
    const id = a.json['id'] as number;
    await call('POST', '/cashiers', { body: { name: 'Милица Јовановић', phone: '+381 64 123 4567' } });
    expectError(await call('POST', '/cashiers', { body: { email: 'no-name@example.rs' } }), 400, 'ERR_00202');
    const fuzzy = await call('GET', '/cashiers?name=djordje petrovic');
    expect((fuzzy.json['data'] as Json[]).map((c) => c['id'])).toEqual([id]);
    const search = await call('GET', '/cashiers?search=123 4567');
    expect((search.json['data'] as Json[]).map((c) => c['name'])).toEqual(['Милица Јовановић']);
    const all = await call('GET', '/cashiers?page=1&limit=10');
    expect(all.json['meta']).toMatchObject({ total: 2 });
    expect((await call('GET', `/cashiers/${id}`)).json).toMatchObject({ id, name: 'Đorđe Petrović' });
    const put = await call('PUT', `/cashiers/${id}`, { body: { active: false } });
    expect(put.json).toMatchObject({ id, active: false, name: 'Đorđe Petrović' });
  });

  it('answers 401, 403 and 404 with {message} only', async () => {
    for (const [key, path, status] of [
      [null, '/cashiers', 401],
      ['bad', '/cashiers/1', 401],
      ['noaccess-key', '/cashiers', 403],
      ['demo-key', '/cashiers/999', 404],
    ] as const) {
      const r = await call('GET', path, { key });
      expect(r.status).toBe(status);
      expect(Object.keys(r.json)).toEqual(['message']);
    }
  });
});

describe('e-mail', () => {
  it('records the e-mail instead of sending it', async () => {
    const r = await issue(on(), { settings: { sendToEmail: 'buyer@example.rs' } });
    const sent = await call('POST', '/receipt/send-email', {
      body: { invoiceNumber: r['invoiceNumber'], email: 'kupac@example.rs', cc: ['cc@example.rs'] },
    });
    expect(sent.status).toBe(201);
    expect(sent.json['success']).toBe(true);
    expect(sent.json['correlationId']).toMatch(UUID);
    const emails = (await control('emails'))['emails'] as Json[];
    expect(emails.map((e) => [e['email'], e['invoiceNumber']])).toEqual([
      ['buyer@example.rs', r['invoiceNumber']],
      ['kupac@example.rs', r['invoiceNumber']],
    ]);
    expectError(
      await call('POST', '/receipt/send-email', { body: { invoiceNumber: r['invoiceNumber'], email: 'not-an-email' } }),
      400,
      'ERR_00202',
    );
    expectError(
      await call('POST', '/receipt/send-email', { body: { invoiceNumber: 'NOPE0000-NOPE0000-1', email: 'a@b.rs' } }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('journal', () => {
  const longName = 'Пшенични хлеб бели тип 500 са сусамом и ланом, паковање од 600 грама — дугачак назив';
  async function journalOf(path: string, over: Json = {}): Promise<string[]> {
    const r = await issue(
      on(),
      {
        items: [
          item({ name: longName, quantity: 12, unitPrice: 102.87, totalAmount: 1234.44 }),
          item({ name: 'Ćevapi 10 kom + lepinja', labels: ['E'] }),
          item({ name: 'X'.repeat(95), labels: ['F'] }),
        ],
        payments: [{ type: 'cash', amount: 1434.44 }],
        ...over,
      },
      path,
    );
    return String(r['journal']).split('\n');
  }

  it('has the real markers, Serbian numbers and at most 40 columns', async () => {
    const lines = await journalOf('/receipt/normal/sale');
    expect(lines[0]).toBe('============ ФИСКАЛНИ РАЧУН ============');
    expect(lines[lines.length - 1]).toBe('======== КРАЈ ФИСКАЛНОГ РАЧУНА =========');
    for (const l of lines) {
      expect(l.length).toBeLessThanOrEqual(40);
      expect([...l].length).toBeLessThanOrEqual(40);
    }
    const text = lines.join('\n');
    for (const marker of [
      'Касир:',
      'ЕСИР број:',
      'Укупан износ:',
      'Готовина:',
      'Ознака',
      'Име',
      'Стопа',
      'Порез',
      'ПФР време:',
      'ПФР број рачуна:',
      'Бројач рачуна:',
      '100000017',
    ]) {
      expect(text).toContain(marker);
    }
    expect(text).toContain('1.234,44');
    expect(text).toContain('1.434,44');
    expect(text).toContain('12 x 102,87');
    expect(text).not.toContain('ОВО НИЈЕ ФИСКАЛНИ РАЧУН');
    // the long name is wrapped on word boundaries, without losing characters
    const words = longName.split(' ');
    expect(text.replace(/\n/g, ' ')).toContain(words.slice(0, 4).join(' '));
    expect(text.replace(/\n/g, '')).toContain('X'.repeat(40));
  });

  it.each(['training', 'copy', 'proforma'])(
    'marks a %s receipt as not fiscal above the items and before the end',
    async (type) => {
      let over: Json = {};
      if (type === 'copy') {
        const original = await issue();
        over = { referentDocumentNumber: original['invoiceNumber'], referentDocumentDt: original['sdcDateTime'] };
      }
      const lines = await journalOf(`/receipt/${type}/sale`, over);
      const marks = lines.flatMap((l, i) => (l.includes('ОВО НИЈЕ ФИСКАЛНИ РАЧУН') ? [i] : []));
      expect(marks).toHaveLength(2);
      const firstItem = lines.findIndex((l) => l.startsWith('Пшенични'));
      expect(marks[0]).toBeLessThan(firstItem);
      expect(marks[1]).toBe(lines.length - 2);
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
    },
  );
});

describe('faults and controls', () => {
  const post = (orderNumber: string, settings: Json = {}) =>
    fetch(`${base}/receipt/normal/sale`, {
      method: 'POST',
      headers: { Authorization: 'Bearer demo-key', 'Content-Type': 'application/json' },
      body: JSON.stringify(sale(orderNumber, { settings })),
    });

  it('drop_before: the socket is destroyed and nothing is issued', async () => {
    await control('faults', { rules: [{ match: 'POST /receipt/normal/sale', action: 'drop_before', times: 1 }] });
    await expect(post(on())).rejects.toThrow();
    expect(await ledger()).toHaveLength(0);
    expect((await post(on())).status).toBe(201);
  });

  it('drop_after: the receipt is issued and the response lost; a retry returns it', async () => {
    const orderNumber = on();
    await control('faults', { rules: [{ match: '/receipt/normal/sale', action: 'drop_after', times: 1 }] });
    await expect(post(orderNumber, { returnIfOrderNumberExists: true })).rejects.toThrow();
    const l = await ledger();
    expect(l.map((x) => x.orderNumber)).toEqual([orderNumber]);
    const retry = await post(orderNumber, { returnIfOrderNumberExists: true });
    expect(retry.status).toBe(201);
    expect(((await retry.json()) as { receipt: Json }).receipt['invoiceNumber']).toBe(l[0]?.invoiceNumber);
    expect(await ledger()).toHaveLength(1);
  });

  it('error500: 500 ERR_00002 without processing', async () => {
    await control('faults', { rules: [{ action: 'error500', times: 2 }] });
    const r = await call('POST', '/receipt/normal/sale', { body: sale(on()) });
    expectError(r, 500, 'ERR_00002');
    expectError(await call('GET', '/receipt/tax-rates'), 500, 'ERR_00002');
    expect(await ledger()).toHaveLength(0);
    expect((await call('GET', '/receipt/tax-rates')).status).toBe(200);
  });

  it('delay: waits, then answers normally', async () => {
    await control('faults', { rules: [{ match: 'sale', action: 'delay', delayMs: 30 }] });
    expect((await post(on())).status).toBe(201);
  });

  it('hang: never answers until the client gives up; reset releases it', async () => {
    await control('faults', { rules: [{ match: 'GET /receipt/tax-rates', action: 'hang' }] });
    const hung = fetch(`${base}/receipt/tax-rates`, { headers: { Authorization: 'Bearer demo-key' } }).then(
      () => 'answered',
      () => 'dropped',
    );
    await waitFor(async () => (await routeCount('GET /receipt/tax-rates')) === 1);
    expect((await call('GET', '/auth/api-key/me')).status).toBe(200);
    await control('reset');
    expect(await hung).toBe('dropped');
  });

  it('malformed: processes, then answers 201 with a truncated body', async () => {
    await control('faults', { rules: [{ match: 'POST /receipt', action: 'malformed', times: 1 }] });
    const r = await post(on());
    expect(r.status).toBe(201);
    const text = await r.text();
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect(await ledger()).toHaveLength(1);
  });

  it('applies probabilistic rules deterministically for a seed', async () => {
    const run = async () => {
      await control('faults', { rules: [{ action: 'error500', probability: 0.5 }], seed: 42 });
      const out: number[] = [];
      for (let i = 0; i < 16; i++) out.push((await call('GET', '/receipt/tax-rates')).status);
      return out;
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    expect(a).toContain(500);
    expect(a).toContain(200);
    const listed = await control('faults');
    expect((listed['rules'] as unknown[]).length).toBe(1);
  });

  it('rejects an invalid fault plan', async () => {
    const r = await fetch(`${base}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ rules: [{ action: 'explode' }] }),
    });
    expect(r.status).toBe(400);
  });

  it('offline: every API request is dropped, controls still answer', async () => {
    await control('offline', { offline: true });
    await expect(post(on())).rejects.toThrow();
    await expect(
      fetch(`${base}/receipt/tax-rates`, { headers: { Authorization: 'Bearer demo-key' } }),
    ).rejects.toThrow();
    expect(await ledger()).toHaveLength(0);
    expect(await routeCount('POST /receipt/{invoiceType}/{transactionType}')).toBe(1);
    await control('offline', { offline: false });
    expect((await post(on())).status).toBe(201);
  });

  it('latency, clock and stats', async () => {
    expect(await control('latency', { ms: 20 })).toEqual({ ms: 20 });
    expect((await post(on())).status).toBe(201);
    await control('latency', { ms: 0 });
    const clock = await control('clock', { offsetMs: 2 * DAY });
    expect(Date.parse(String(clock['now'])) - Date.now()).toBeGreaterThan(DAY);
    const r = await issue();
    expect(Date.parse(String(r['sdcDateTime'])) - Date.now()).toBeGreaterThan(DAY);
    const stats = await control('stats');
    expect((stats['requests'] as Record<string, number>)['POST /receipt/{invoiceType}/{transactionType}']).toBe(2);
    expect(stats['total']).toBe(2);
  });

  it('ledger lines carry the fields the chaos test counts', async () => {
    const r = await issue();
    expect(await ledger()).toEqual([
      {
        orderNumber: r['orderNumber'],
        invoiceNumber: r['invoiceNumber'],
        invoiceType: 'normal',
        transactionType: 'sale',
        sdcDateTime: r['sdcDateTime'],
        totalAmount: 100,
        referentDocumentNumber: null,
        shop: expect.any(Number) as unknown,
      },
    ]);
  });

  it('answers unknown routes with 404 NOT_FOUND', async () => {
    expectError(await call('GET', '/receipt/nothing/here/at/all'), 404, 'NOT_FOUND');
    expectError(await call('POST', '/receipt/normal/finalize', { body: sale(on()) }), 400, 'ERR_00202');
  });
});
