import { describe, expect, it } from 'vitest';
import { migrate } from '../../hub/db/db.ts';
import { HUB_MIGRATIONS } from '../../hub/db/migrations/index.ts';
import type { HubEvent, OrderSnapshot } from '../../shared/hub/protocol.ts';
import { HubClient } from '../../electron/hub-client/client.ts';
import { BACKENDS } from './backends.ts';
import { refusal, serveHub } from './served-hub.ts';

const ADMIN = 'admin-token-for-tests-0123456789ab';

const order = (n: string, extra: Partial<OrderSnapshot> = {}): OrderSnapshot => ({
  order_number: n,
  kind: 'sale',
  invoice_type: 'normal',
  transaction_type: 'sale',
  state: 'queued',
  created_at: '2026-11-23T08:00:00.000Z',
  total_para: 12_345,
  data: { lines: [], payments: [{ type: 'cash', amountPara: 12_345 }], cashier: 'Ana' },
  invoice_number: null,
  sdc_date_time: null,
  receipt: null,
  ...extra,
});
const ev = (seq: number, o: OrderSnapshot): HubEvent => ({ seq, kind: 'order', ref: o.order_number, payload: o });

describe.each(BACKENDS)('store hub on $name', (backend) => {
  const hub = serveHub(backend, { adminToken: ADMIN, defaultShop: true });

  const enrolTill = async (
    name: string,
    shop = hub.shop,
  ): Promise<{ client: HubClient; tillId: number; credential: string }> => {
    const code = await hub.service.newEnrolCode(shop);
    const r = await new HubClient({ baseUrl: hub.url }).enrol(code, name);
    return {
      client: new HubClient({ baseUrl: hub.url, credential: r.credential }),
      tillId: r.tillId,
      credential: r.credential,
    };
  };

  it('applies its migrations once, in a transaction each, and a second run applies nothing', async () => {
    expect(await migrate(hub.db, HUB_MIGRATIONS)).toEqual([]);
    const rows = await hub.db.query<{ version: number }>('SELECT version FROM hub_schema ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(HUB_MIGRATIONS.map((_, i) => i + 1));
    const broken = [
      ...HUB_MIGRATIONS,
      {
        name: 'broken',
        statements: ['CREATE TABLE half_done (x int)', 'SELECT * FROM no_such_table'],
      },
    ];
    await expect(migrate(hub.db, broken)).rejects.toThrow(/no_such_table/);
    expect(await hub.db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'")).toEqual([]);
  });

  it('an enrolment code is spent once; unknown codes and missing or foreign credentials are refused', async () => {
    const code = await hub.service.newEnrolCode(hub.shop);
    const anon = new HubClient({ baseUrl: hub.url });
    const first = await anon.enrol(code, 'Till A');
    expect(first.credential).toMatch(/^kh1\.\d+\./);
    expect((await refusal(anon.enrol(code, 'Till B'))).code).toBe('enrol_code_used');
    expect((await refusal(anon.enrol('not-a-code', 'Till B'))).code).toBe('enrol_code_unknown');
    expect((await refusal(anon.changes(0))).status).toBe(401);
    const forged = new HubClient({ baseUrl: hub.url, credential: `kh1.${first.tillId}.${'x'.repeat(43)}` });
    expect((await refusal(forged.changes(0))).status).toBe(401);
    // A till's credential used to push as another till.
    const other = await enrolTill('Till C');
    const mine = new HubClient({ baseUrl: hub.url, credential: first.credential });
    const e = await refusal(mine.push(other.tillId, [ev(1, order('X-1'))]));
    expect([e.status, e.code, e.field]).toEqual([403, 'till_mismatch', 'tillId']);
    expect((await hub.admin('GET', `/api/admin/tills?shopId=${hub.shop}`, undefined)).status).toBe(200);
    const noAdmin = await fetch(`${hub.url}/api/admin/tills?shopId=${hub.shop}`, {
      headers: { authorization: `Bearer ${first.credential}` },
    });
    expect(noAdmin.status).toBe(401);
  });

  it('stores every event exactly once: replays are acknowledged, altered batches refused whole, gaps reported', async () => {
    const t = await enrolTill('Till exactly-once');
    const r1 = await t.client.push(t.tillId, [ev(1, order('EO-1')), ev(2, order('EO-2'))]);
    expect(r1).toMatchObject({ acked: 2, stored: 2, duplicates: 0, gaps: [] });
    // The response was lost: the till sends the same batch again.
    const r2 = await t.client.push(t.tillId, [ev(1, order('EO-1')), ev(2, order('EO-2'))]);
    expect(r2).toMatchObject({ acked: 2, stored: 0, duplicates: 2 });
    // The same order fiscalized later: a new event updates the one order row.
    await t.client.push(t.tillId, [ev(3, order('EO-1', { state: 'fiscalized', invoice_number: 'INV-EO-1' }))]);
    // An altered replay (another total under an acknowledged sequence) is refused and changes nothing.
    const altered = await refusal(
      t.client.push(t.tillId, [ev(4, order('EO-4')), ev(2, order('EO-2', { total_para: 1 }))]),
    );
    expect([altered.status, altered.code]).toEqual([409, 'batch_altered']);
    const rows = await hub.db.query<{ order_number: string; state: string; total_para: number }>(
      'SELECT order_number, state, total_para FROM orders WHERE till_id = $1 ORDER BY order_number',
      [t.tillId],
    );
    expect(rows).toEqual([
      { order_number: 'EO-1', state: 'fiscalized', total_para: 12_345 },
      { order_number: 'EO-2', state: 'queued', total_para: 12_345 },
    ]);
    // Sequences 4..6 never arrive: the hub says so, and keeps saying so in the till status.
    const r3 = await t.client.push(t.tillId, [ev(7, order('EO-7'))]);
    expect(r3.gaps).toEqual([{ from: 4, to: 6 }]);
    const status = (await (await hub.admin('GET', `/api/admin/tills?shopId=${hub.shop}`)).json()) as {
      tills: { tillId: number; gaps: unknown[] }[];
    };
    expect(status.tills.find((x) => x.tillId === t.tillId)?.gaps).toEqual([{ from: 4, to: 6 }]);
  });

  it('refuses oversized and malformed batches with the field named, storing nothing', async () => {
    const t = await enrolTill('Till bad input');
    const big = Array.from({ length: 501 }, (_, i) => ev(i + 1, order(`BIG-${i}`)));
    const e1 = await refusal(t.client.push(t.tillId, big));
    expect([e1.status, e1.code]).toEqual([413, 'batch_too_large']);
    const bad = { ...order('BAD-1'), total_para: 'a lot' } as unknown as OrderSnapshot;
    const e2 = await refusal(t.client.push(t.tillId, [ev(1, order('OK-1')), ev(2, bad)]));
    expect([e2.status, e2.field]).toEqual([400, 'events.1.payload.total_para']);
    expect(await hub.db.query('SELECT 1 FROM till_events WHERE till_id = $1', [t.tillId])).toEqual([]);
  });

  it('sends master data down with a change cursor: a price change arrives once, after the cursor', async () => {
    const shop = await hub.service.createShop('Cursor shop');
    const t = await enrolTill('Till cursor', shop);
    const pinHash = 'scrypt$00ff$abcd';
    expect(
      (
        await hub.admin('PUT', '/api/admin/products', {
          shopId: shop,
          products: [
            {
              code: 'MLK',
              name: 'Млеко 1л',
              pricePara: 15_900,
              label: 'Ђ',
              unit: 'piece',
              barcodes: ['8600000000011'],
            },
            { code: 'HLB', name: 'Хлеб', pricePara: 6_500, label: 'Е', unit: 'piece' },
          ],
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await hub.admin('PUT', '/api/admin/staff', {
          shopId: shop,
          staff: [{ name: 'Мира', role: 'cashier', pinHash }],
        })
      ).status,
    ).toBe(200);
    const c1 = await t.client.changes(0);
    expect(c1.products.map((p) => [p.code, p.pricePara])).toEqual([
      ['MLK', 15_900],
      ['HLB', 6_500],
    ]);
    // Never the hub's hash (issue 39); no verifier either while the hub has not seen her PIN in clear.
    expect(c1.staff).toMatchObject([{ name: 'Мира', role: 'cashier', verifier: '' }]);
    expect(JSON.stringify(c1)).not.toContain(pinHash);
    expect((await t.client.changes(c1.cursor)).products).toEqual([]);
    await hub.service.upsertProducts(shop, [
      { code: 'MLK', name: 'Млеко 1л', pricePara: 16_900, label: 'Ђ', unit: 'piece', barcodes: ['8600000000011'] },
    ]);
    const c2 = await t.client.changes(c1.cursor);
    expect(c2.products.map((p) => [p.code, p.pricePara])).toEqual([['MLK', 16_900]]);
    expect(c2.cursor).toBeGreaterThan(c1.cursor);
    // Another shop's till sees none of it.
    const elsewhere = await enrolTill('Till other shop');
    expect((await elsewhere.client.changes(0)).products.some((p) => p.code === 'HLB')).toBe(false);
    const badPrice = await hub.admin('PUT', '/api/admin/products', {
      shopId: shop,
      products: [{ code: 'X', name: 'X', pricePara: -1, label: 'Ђ', unit: 'piece' }],
    });
    expect(badPrice.status).toBe(400);
    expect(((await badPrice.json()) as { field: string }).field).toBe('products.0.pricePara');
  });

  it('sends shop settings down with the same cursor; an unchanged value is not sent again; bad input names the field', async () => {
    const shop = await hub.service.createShop('Settings shop');
    const t = await enrolTill('Till settings', shop);
    const start = (await t.client.changes(0)).cursor;
    const rules = [{ prefix: '28', kind: 'price', codeLength: 5 }];
    const put = await hub.admin('PUT', '/api/admin/settings', {
      shopId: shop,
      settings: { barcodeRules: rules, discountLimitPercent: 25 },
    });
    expect(await put.json()).toEqual({ changed: 2 });
    const c1 = await t.client.changes(start);
    expect(c1.settings?.map((x) => [x.key, x.value])).toEqual([
      ['barcodeRules', rules],
      ['discountLimitPercent', 25],
    ]);
    // The same values again change nothing; a new limit is one change after the cursor.
    expect(
      await (
        await hub.admin('PUT', '/api/admin/settings', {
          shopId: shop,
          settings: { barcodeRules: rules, discountLimitPercent: 30 },
        })
      ).json(),
    ).toEqual({ changed: 1 });
    const c2 = await t.client.changes(c1.cursor);
    expect(c2.settings?.map((x) => [x.key, x.value])).toEqual([['discountLimitPercent', 30]]);
    expect(await (await hub.admin('GET', `/api/admin/settings?shopId=${shop}`)).json()).toEqual({
      settings: { barcodeRules: rules, discountLimitPercent: 30 },
    });
    // Another shop's till sees none of it.
    const elsewhere = await enrolTill('Till settings elsewhere');
    expect((await elsewhere.client.changes(start)).settings).toEqual([]);
    const bad = await hub.admin('PUT', '/api/admin/settings', {
      shopId: shop,
      settings: { barcodeRules: [{ prefix: '99', kind: 'price', codeLength: 5 }] },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { field: string }).field).toBe('settings.barcodeRules.0.prefix');
    const unknown = await hub.admin('PUT', '/api/admin/settings', { shopId: shop, settings: { apiKey: 'x' } });
    expect(unknown.status).toBe(400);
    const noAuth = await fetch(`${hub.url}/api/admin/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${t.credential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ shopId: shop, settings: {} }),
    });
    expect(noAuth.status).toBe(401);
    expect(await hub.service.shopSettings(shop)).toEqual({ barcodeRules: rules, discountLimitPercent: 30 });
  });

  it('pages a large catalog without skipping a row', async () => {
    const shop = await hub.service.createShop('Paging shop');
    const t = await enrolTill('Till paging', shop);
    const products = Array.from({ length: 12_001 }, (_, i) => ({
      code: `P${i}`,
      name: `Product ${i}`,
      pricePara: i,
      label: 'A',
      unit: 'piece' as const,
    }));
    await hub.service.upsertProducts(shop, products);
    const seen = new Set<string>();
    let cursor = 0;
    for (let more = true; more;) {
      const c = await t.client.changes(cursor);
      c.products.forEach((p) => seen.add(p.code));
      cursor = c.cursor;
      more = c.more;
    }
    expect(seen.size).toBe(12_001);
  }, 120_000);

  it('finds a sale of another till of the same shop by order or invoice number, never of another shop', async () => {
    const a = await enrolTill('Till 1');
    const b = await enrolTill('Till 2');
    await a.client.push(a.tillId, [
      ev(1, order('T1-20261123-7', { state: 'fiscalized', invoice_number: 'AAAA-BBBB-7' })),
    ]);
    const byNumber = await b.client.lookup({ orderNumber: 'T1-20261123-7' });
    expect(byNumber).toMatchObject({
      tillId: a.tillId,
      tillName: 'Till 1',
      order: { invoice_number: 'AAAA-BBBB-7', total_para: 12_345 },
    });
    expect((await b.client.lookup({ invoiceNumber: 'AAAA-BBBB-7' }))?.order.order_number).toBe('T1-20261123-7');
    expect(await b.client.lookup({ orderNumber: 'NOPE' })).toBeNull();
    const shop2 = await hub.service.createShop('Shop 2');
    const c = await enrolTill('Till far away', shop2);
    expect(await c.client.lookup({ orderNumber: 'T1-20261123-7' })).toBeNull();
  });

  it('reports the day per shop, till, cashier, payment type and tax label, as JSON and CSV; refuses a bad date by name', async () => {
    const shop = await hub.service.createShop('Report shop');
    const a = await enrolTill('R1', shop);
    const b = await enrolTill('R2', shop);
    // Each receipt states its VAT (20 % contained); the report sums the receipts' taxItems, refunds subtracted.
    const receipt = (totalPara: number, transactionType = 'sale') => ({
      transactionType,
      taxItems: [
        { label: 'A', rate: 20, amount: Math.round(totalPara / 6) / 100, categoryType: 0, categoryName: 'ПДВ' },
      ],
    });
    const line = (totalPara: number, label = 'A') => ({
      name: 'X',
      quantityMilli: 1000,
      unitPricePara: totalPara,
      totalPara,
      labels: [label],
    });
    type Pay = OrderSnapshot['data']['payments'][number]['type'];
    const sold = (n: string, totalPara: number, type: Pay, cashier: string, extra: Partial<OrderSnapshot> = {}) =>
      order(n, {
        state: 'fiscalized',
        total_para: totalPara,
        receipt: receipt(totalPara, extra.transaction_type ?? 'sale'),
        data: { lines: [line(totalPara)], payments: [{ type, amountPara: totalPara }], cashier },
        ...extra,
      });
    await a.client.push(a.tillId, [
      ev(1, sold('R1-1', 12_000, 'cash', 'Ana')),
      ev(2, sold('R1-2', 6_000, 'card', 'Ana')),
    ]);
    await b.client.push(b.tillId, [
      ev(1, sold('R2-1', 3_000, 'cash', 'Mira')),
      // A fiscalized refund has its invoice number (a refund counts only once fiscalized: issue 39).
      ev(
        2,
        sold('R2-2', 3_000, 'cash', 'Mira', { kind: 'refund', transaction_type: 'refund', invoice_number: 'R2-INV-2' }),
      ),
      ev(3, sold('R2-3', 999_000, 'cash', 'Mira', { invoice_type: 'training' })),
    ]);
    const range = { from: '2026-11-23T00:00:00.000Z', to: '2026-11-24T00:00:00.000Z' };
    const res = await hub.admin('GET', `/api/admin/report?shopId=${shop}&from=${range.from}&to=${range.to}`);
    expect(res.status).toBe(200);
    const r = (await res.json()) as import('../../hub/reports.ts').HubReport;
    expect(r.total).toMatchObject({
      sales: { count: 3, totalPara: 21_000 },
      refunds: { count: 1, totalPara: 3_000 },
      trainingExcluded: 1,
    });
    expect(r.total.byPayment).toEqual(
      expect.arrayContaining([
        { type: 'cash', salesPara: 15_000, refundsPara: 3_000, netPara: 12_000 },
        { type: 'card', salesPara: 6_000, refundsPara: 0, netPara: 6_000 },
      ]),
    );
    // VAT contained in 180.00 at 20 % (the rate from the gateway's receipts): 30.00.
    expect(r.total.byLabel).toEqual([{ label: 'A', rate: 20, netPara: 18_000, taxPara: 3_000 }]);
    expect(r.total.byTax).toEqual([{ label: 'A', rate: 20, taxPara: 3_000 }]);
    expect(r.byTill.map((t) => [t.name, t.report.sales.totalPara])).toEqual([
      ['R1', 18_000],
      ['R2', 3_000],
    ]);
    expect(r.byCashier.map((c) => [c.cashier, c.report.sales.count])).toEqual([
      ['Ana', 2],
      ['Mira', 1],
    ]);
    expect(r.byShop).toHaveLength(1);
    const csv = await (
      await hub.admin('GET', `/api/admin/report?shopId=${shop}&from=${range.from}&to=${range.to}&format=csv`)
    ).text();
    expect(csv.split('\r\n')[0]).toMatch(/^scope,section,key,count,amount_rsd,tax_rsd,opened,/);
    expect(csv).toContain('"till:R2","refunds","total",1,-30.00,'); // a refund is negative, as on screen
    expect(csv).toContain('"cashier:Ana","payment","card",,60.00,');
    // The chain's report (no shopId) holds this shop too; a bad date is refused naming the field.
    const chain = (await (
      await hub.admin('GET', `/api/admin/report?from=${range.from}&to=${range.to}`)
    ).json()) as typeof r;
    expect(chain.byShop.map((s) => s.shopId)).toContain(shop);
    const bad = await hub.admin('GET', `/api/admin/report?shopId=${shop}&from=yesterday`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'invalid_input', field: 'from' });
    expect((await fetch(`${hub.url}/api/admin/report?shopId=${shop}`)).status).toBe(401);
  });

  it('shows every till live and raises an alarm for a silent till, sales needing attention, lost history and a printer', async () => {
    const shop = await hub.service.createShop('Status shop');
    const a = await enrolTill('S1', shop);
    const b = await enrolTill('S2', shop);
    const c = await enrolTill('S3', shop);
    const d = await enrolTill('S4', shop);
    // S1 is a till from before the printer was reported: its push is taken as before.
    await a.client.push(a.tillId, [], { queued: 0, needsAttention: 0, oldestQueuedAt: null, hubQueued: 0 });
    const printer = { state: 'stopped', paper: 'out', coverOpen: false, error: 'none', unconfirmed: true, held: 1 };
    await d.client.push(d.tillId, [], { queued: 0, needsAttention: 0, oldestQueuedAt: null, hubQueued: 0, printer });
    await b.client.push(b.tillId, [ev(2, order('S2-2'))], {
      queued: 3,
      needsAttention: 1,
      oldestQueuedAt: new Date(Date.now() - 2 * 3600_000).toISOString(),
      hubQueued: 0,
    });
    const res = await hub.admin('GET', `/api/admin/tills?shopId=${shop}`);
    const { tills } = (await res.json()) as { tills: import('../../hub/reports.ts').TillLive[] };
    const by = new Map(tills.map((t) => [t.name, t]));
    expect(by.get('S1')).toMatchObject({ online: true, queued: 0, printer: null, alarms: [] });
    expect(by.get('S4')).toMatchObject({ online: true, printer, alarms: ['printer_stopped', 'printer_unconfirmed'] });
    expect(by.get('S2')).toMatchObject({
      online: true,
      queued: 3,
      needsAttention: 1,
      gaps: [{ from: 1, to: 1 }],
      alarms: ['needs_attention', 'old_unfiscalized', 'gap'],
    });
    expect(by.get('S3')).toMatchObject({ online: false, lastSeen: null, alarms: ['silent'] });
    expect(c.tillId).toBeGreaterThan(0);
    // Ten minutes later S1 has gone silent too.
    const later = await hub.service.tillStatus(shop, Date.now() + 10 * 60_000);
    expect(later.find((t) => t.name === 'S1')?.alarms).toEqual(['silent']);
  });

  it('a manager PIN opens a session for its own shop only; wrong PINs pause the login', async () => {
    const { hashPin } = await import('../../shared/node/pin.ts');
    const mine = await hub.service.createShop('PIN shop');
    const other = await hub.service.createShop('Other shop');
    await hub.service.upsertStaff(mine, [{ name: 'Шеф', role: 'manager', pinHash: await hashPin('4321') }]);
    const login = (pin: string) =>
      fetch(`${hub.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pin, shopId: mine }),
      });
    const ok = (await (await login('4321')).json()) as { token: string; shopId: number; name: string };
    expect(ok).toMatchObject({ shopId: mine, name: 'Шеф' });
    const as = (method: string, path: string, body?: unknown) =>
      fetch(`${hub.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${ok.token}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    expect((await as('POST', '/api/admin/enrol-codes', {})).status).toBe(201);
    expect((await as('POST', '/api/admin/enrol-codes', { shopId: other })).status).toBe(403);
    expect(
      (
        await as('PUT', '/api/admin/products', {
          shopId: other,
          products: [{ code: 'X', name: 'X', pricePara: 1, label: 'A', unit: 'piece' }],
        })
      ).status,
    ).toBe(403);
    expect((await as('POST', '/api/admin/shops', { name: 'Mine now' })).status).toBe(403);
    const tills = (await (await as('GET', '/api/admin/tills')).json()) as { tills: { shopId: number }[] };
    expect(tills.tills.every((t) => t.shopId === mine)).toBe(true);
    const bad = await login('0001');
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ field: 'pin' });
    for (let i = 0; i < 4; i++) await login('0001');
    expect((await login('4321')).status).toBe(429);
  });
  it('parked carts: shop-only, a bad cart names its field, a retried push is one cart, 12 concurrent takes give one winner', async () => {
    const a = await enrolTill('Park A');
    const b = await enrolTill('Park B');
    const cart = {
      lines: [
        { name: 'Сок', unitPricePara: 12000, quantityMilli: 1500, discountPara: 0, label: 'A', unit: 'piece' as const },
      ],
    };
    const park = { localId: 7, name: 'Сто 1', createdAt: '2026-11-23T10:00:00.000Z', cart };
    expect((await refusal(new HubClient({ baseUrl: hub.url }).park(park))).status).toBe(401);
    const bad = await refusal(a.client.park({ ...park, cart: { lines: [{ ...cart.lines[0]!, quantityMilli: -1 }] } }));
    expect([bad.status, bad.field]).toEqual([400, 'cart.lines.0.quantityMilli']);
    const { id } = await a.client.park(park);
    // The answer was lost: the same cart again is the same row.
    expect(await a.client.park(park)).toEqual({ id });
    expect((await b.client.parkedList()).carts.filter((c) => c.tillId === a.tillId)).toEqual([
      {
        id,
        tillId: a.tillId,
        tillName: 'Park A',
        localId: 7,
        name: 'Сто 1',
        createdAt: park.createdAt,
        lines: 1,
        totalPara: 18000,
      },
    ]);
    // Another shop sees none of it and cannot take it; a till cannot take its own cart by the hub's id.
    const other = await enrolTill('Other shop till', await hub.service.createShop('Shop parked'));
    expect((await other.client.parkedList()).carts).toEqual([]);
    expect(await other.client.parkedTake({ id })).toBeNull();
    expect(await a.client.parkedTake({ id })).toBeNull();
    const both = await refusal(b.client.parkedTake({ id, localId: 7 } as never));
    expect([both.status, both.field]).toEqual([400, 'id']);
    const takers = await Promise.all(Array.from({ length: 12 }, () => b.client.parkedTake({ id })));
    const winners = takers.filter((t) => t !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ id, localId: 7, cart });
    expect((await hub.db.query('SELECT 1 FROM parked_carts WHERE id = $1', [id])).length).toBe(0);
    // The till that parked it learns it is gone: taking its own by local id finds nothing.
    expect(await a.client.parkedTake({ localId: 7 })).toBeNull();
  });
});
