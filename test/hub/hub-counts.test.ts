/**
 * Stock-taking at the hub over real HTTP, on both hub databases (docs/goods.md "Stock-taking at the hub"): a count
 * of two groups started while a till goes on selling (its sales pushed after the start are accounted for at the
 * entry, a sale after the entry stays on top), counts typed (by code and by barcode, added up or replaced) and from
 * a handheld's CSV; a product outside the count or unknown, a negative quantity, a bad CSV row, a count overlapping
 * an open one, a closed count: refused at the field, nothing half-saved. Posted twice at once it books once (one
 * movement per difference, one document, one audit); the KEP shows the surplus as a debit and the shortage as a
 * credit and still closes at Σ stock × retail price; the A4 list carries the shop's PIB and address (pdftotext).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuthedTill } from '../../hub/service.ts';
import type { HubCountList, HubCountView } from '../../shared/hub/count-protocol.ts';
import type { HubKepView, HubStockView } from '../../shared/hub/goods-protocol.ts';
import type { OrderSnapshot } from '../../shared/hub/protocol.ts';
import { BACKENDS } from './backends.ts';
import { enrolTills, serveHub } from './served-hub.ts';
import { orderEvent, saleSnapshot } from './snapshots.ts';

const ADMIN = 'kasa-test-admin-token-goods-counts-0123456789';
const PIB = '101134702';

describe.each(BACKENDS)('stock-taking at the hub on $name', (backend) => {
  let shop = 0;
  let till: AuthedTill;
  let seq = 0;
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    seed: async (service) => {
      shop = await service.ensureDefaultShop();
      await service.upsertProducts(shop, [
        {
          code: 'H1',
          name: 'Хлеб',
          pricePara: 8_000,
          label: 'Ђ',
          unit: 'piece',
          group: 'Пекара',
          barcodes: ['860001'],
        },
        { code: 'M1', name: 'Млеко', pricePara: 15_000, label: 'Ђ', unit: 'piece', group: 'Млечно' },
        { code: 'S1', name: 'Сок', pricePara: 20_000, label: 'Ђ', unit: 'piece', group: 'Пиће' },
      ]);
      [till] = await enrolTills(service, shop, ['Каса 1']);
    },
  });
  const call = (method: string, p: string, body?: unknown) =>
    hub.call(hub.adminToken, method, p, body === undefined ? undefined : { shopId: shop, ...(body as object) });
  const view = async (id: number): Promise<HubCountView> =>
    (await call('GET', `/api/admin/goods/counts/view?shopId=${shop}&countId=${id}`)).body as unknown as HubCountView;
  const stock = async (): Promise<Record<string, number>> => {
    const s = (await call('GET', `/api/admin/goods/stock?shopId=${shop}`)).body as unknown as HubStockView;
    return Object.fromEntries(s.rows.map((r) => [r.code, r.qtyMilli]));
  };
  /** A till's fiscalized sale of `qty` thousandths of `code`, pushed to the hub. */
  const sell = async (code: string, qty: number, price: number) => {
    seq++;
    const base = saleSnapshot(`C-${seq}`, `INV-C-${seq}`, { quantityMilli: qty, totalPara: (price * qty) / 1000 });
    const line = base.data.lines[0] as OrderSnapshot['data']['lines'][number];
    const o: OrderSnapshot = { ...base, data: { ...base.data, lines: [{ ...line, code }] } };
    await hub.service.push(till, { tillId: till.id, events: [orderEvent(seq, o)] });
  };
  const rows = async (table: string, where = 'true'): Promise<number> =>
    Number((await hub.db.query<{ n: number }>(`SELECT count(*)::int4 AS n FROM ${table} WHERE ${where}`))[0]?.n);

  it('counts two groups while the till sells, refuses bad input at its field, posts once into the KEP', async () => {
    await call('PUT', '/api/admin/goods/shop-identity', { pib: PIB, address: 'Главна 5, Суботица' });
    const receipt = await call('POST', '/api/admin/goods/receipts', {
      supplier: 'Млекара',
      pib: PIB,
      invoiceNumber: 'F-1',
      invoiceDate: '2026-11-20',
      lines: [
        { code: 'H1', qtyMilli: 20_000, purchasePara: 5_000 },
        { code: 'M1', qtyMilli: 10_000, purchasePara: 10_000 },
      ],
    });
    expect(receipt.status).toBe(201);

    // Unknown group, then the count of two groups; an overlapping one is refused, another group may be counted.
    expect(await call('POST', '/api/admin/goods/counts', { groups: ['Нема'] })).toMatchObject({
      status: 400,
      body: { code: 'goods_count_group', field: 'groups.0' },
    });
    const started = await call('POST', '/api/admin/goods/counts', { groups: ['Пекара', 'Млечно'] });
    expect(started.status).toBe(201);
    const count = started.body as unknown as HubCountView;
    expect(count.number).toMatch(/^1\/\d{4}$/);
    expect(count.lines.map((l) => [l.code, l.bookMilli])).toEqual([
      ['M1', 10_000],
      ['H1', 20_000],
    ]);
    for (const groups of [['Млечно'], []])
      expect(await call('POST', '/api/admin/goods/counts', { groups })).toMatchObject({
        status: 409,
        body: { code: 'goods_count_overlap', field: 'groups', params: { number: count.number } },
      });
    const drinks = (await call('POST', '/api/admin/goods/counts', { groups: ['Пиће'] }))
      .body as unknown as HubCountView;
    expect(drinks.number).toMatch(/^2\//);

    // The till sells 3 breads after the start.
    await sell('H1', 3_000, 8_000);
    const countId = count.id;
    const enter = (lines: unknown[]) => call('POST', '/api/admin/goods/counts/enter', { countId, lines });
    for (const [lines, status, code, field] of [
      [[{ code: 'S1', qtyMilli: 1_000 }], 400, 'goods_count_outside', 'lines.0.code'],
      [
        [
          { code: 'M1', qtyMilli: 1_000 },
          { code: 'NOPE', qtyMilli: 1_000 },
        ],
        400,
        'goods_unknown_product',
        'lines.1.code',
      ],
      [[{ code: 'M1', qtyMilli: -1_000 }], 400, 'invalid_input', 'lines.0.qtyMilli'],
    ] as const)
      expect(await enter([...lines])).toMatchObject({ status, body: { code, field } });
    expect(await rows('hub_stock_count_lines', 'counted_milli IS NOT NULL')).toBe(0);

    // By barcode 16 breads (the book at the entry: 20 − 3 = 17), milk 4 and then 7 more on another shelf.
    expect(
      (
        await enter([
          { code: '860001', qtyMilli: 16_000 },
          { code: 'M1', qtyMilli: 4_000 },
        ])
      ).status,
    ).toBe(200);
    const added = (await enter([{ code: 'M1', qtyMilli: 7_000, add: true }])).body as unknown as HubCountView;
    expect(added.lines.map((l) => [l.code, l.countedMilli, l.bookAtEntryMilli, l.differenceMilli])).toEqual([
      ['M1', 11_000, 10_000, 1_000],
      ['H1', 16_000, 17_000, -1_000],
    ]);

    // A handheld's CSV: a bad row refuses it whole (nothing changed); a good one replaces what was counted.
    const csv = (text: string) => call('POST', '/api/admin/goods/counts/import', { countId, csv: text });
    expect(await csv('шифра;количина\nM1;2\nH1;-1\n')).toMatchObject({
      status: 400,
      body: { code: 'goods_csv_quantity', field: 'csv', params: { row: 3 } },
    });
    expect(await csv('M1;2\nS1;1\n')).toMatchObject({
      status: 400,
      body: { code: 'goods_csv_outside', field: 'csv', params: { row: 2, value: 'S1' } },
    });
    expect((await view(countId)).lines[0]?.countedMilli).toBe(11_000);
    const imported = (await csv('шифра;количина\nM1;5\nM1;6\n')).body as unknown as HubCountView;
    expect(imported.lines[0]?.countedMilli).toBe(11_000);

    // A bread sold after the entry stays on top of the count.
    await sell('H1', 1_000, 8_000);
    const [a, b] = await Promise.all([
      call('POST', '/api/admin/goods/counts/post', { countId }),
      call('POST', '/api/admin/goods/counts/post', { countId }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const posted = a.body as unknown as HubCountView;
    expect(posted.state).toBe('posted');
    expect(posted.totals).toEqual({
      surplusRetailPara: 15_000,
      shortageRetailPara: 8_000,
      surplusPurchasePara: 10_000,
      shortagePurchasePara: 5_000,
    });
    // A retry after a lost answer: the same posted count, nothing moved again.
    expect((await call('POST', '/api/admin/goods/counts/post', { countId })).body).toEqual(posted);
    expect(await rows('hub_stock_movements', `source = 'count:${countId}'`)).toBe(2);
    expect(await rows('hub_goods_docs', "kind = 'count'")).toBe(1);
    expect(await rows('hub_audit', "action = 'goods_count_post'")).toBe(1);
    expect(await stock()).toEqual({ H1: 15_000, M1: 11_000 });

    // A closed count takes nothing more; the other count is cancelled and cannot be posted.
    expect(await enter([{ code: 'M1', qtyMilli: 1_000 }])).toMatchObject({
      status: 409,
      body: { code: 'goods_count_closed', field: 'countId' },
    });
    expect((await call('POST', '/api/admin/goods/counts/cancel', { countId: drinks.id })).body).toMatchObject({
      state: 'cancelled',
    });
    expect(await call('POST', '/api/admin/goods/counts/post', { countId: drinks.id })).toMatchObject({
      status: 409,
      body: { code: 'goods_count_closed' },
    });
    const list = (await call('GET', `/api/admin/goods/counts?shopId=${shop}`)).body as unknown as HubCountList;
    expect(list.counts.map((c) => [c.number, c.state, c.countedCount])).toEqual([
      [drinks.number, 'cancelled', 0],
      [count.number, 'posted', 2],
    ]);
    expect(list.groups).toEqual(['Млечно', 'Пекара', 'Пиће']);

    // The KEP: the surplus a debit, the shortage a credit, the balance Σ stock × retail price.
    const year = count.number.split('/')[1] as string;
    const kep = (
      await call('GET', `/api/admin/goods/kep?shopId=${shop}&from=${year}-01-01&to=${year}-12-31&lang=sr-Cyrl`)
    ).body as unknown as HubKepView;
    expect(kep.entries.filter((e) => e.description.startsWith('Попис'))).toMatchObject([
      { description: `Попис бр. ${count.number}: вишак`, debitPara: 15_000, creditPara: 0 },
      { description: `Попис бр. ${count.number}: мањак`, debitPara: 0, creditPara: 8_000 },
    ]);
    expect(kep.closingPara).toBe(kep.stockValuePara);
    expect(kep.stockValuePara).toBe(15 * 8_000 + 11 * 15_000);

    // The A4 list with the shop's PIB and address, read back.
    const r = await hub.admin('GET', `/api/admin/goods/counts/pdf?shopId=${shop}&countId=${countId}&lang=sr-Cyrl`);
    expect(r.status).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-count-'));
    try {
      const file = path.join(dir, 'count.pdf');
      fs.writeFileSync(file, Buffer.from(await r.arrayBuffer()));
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      for (const words of [`Пописна листа бр. ${count.number}`, PIB, 'Главна 5, Суботица', 'Хлеб', 'Млеко'])
        expect(text).toContain(words);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
