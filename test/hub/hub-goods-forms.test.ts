/**
 * The hub's goods register and receipt calculation over real HTTP, on both hub databases (docs/goods.md "At the
 * hub"): suppliers (a wrong PIB check digit, a bad bank account, a PIB twice refused at their fields, nothing
 * saved), the shop's PIB and address (validated; printed on the KEP's and a transfer's A4 title block, read back by
 * poppler's `pdftotext`), and a receipt naming a registered supplier with the supplier's discount and a margin, the
 * retail price calculated from the VAT rate the shop's till reported; an invoice already received from that
 * supplier, an unknown supplier, a margin on a label whose rate no till reported: refused at the field, nothing
 * posted half-way.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthedTill } from '../../hub/service.ts';
import { netPurchase, retailFromMargin } from '../../shared/goods/calc.ts';
import type { HubGoodsDoc, HubGoodsFormData, HubStockView, HubSupplier } from '../../shared/hub/goods-protocol.ts';
import { BACKENDS } from './backends.ts';
import { enrolTills, serveHub } from './served-hub.ts';
import { pushTaxRates } from './till-status.ts';

const ADMIN = 'kasa-test-admin-token-goods-forms-0123456789';
const GOOD_PIB = '101134702';
const WRONG_PIB = '101134703';
const RATES = [
  { label: 'Ђ', rate: 20 },
  { label: 'Е', rate: 10 },
];

describe.each(BACKENDS)('the goods register and receipt calculation at the hub on $name', (backend) => {
  let shop = 0;
  let other = 0;
  let till: AuthedTill;
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    defaultShop: true,
    seed: async (service) => {
      shop = await service.createShop('Продавница Север');
      other = await service.createShop('Продавница Југ');
      const products = [
        { code: 'S1', name: 'Сок', pricePara: 20_000, label: 'Ђ', unit: 'piece' as const },
        { code: 'B1', name: 'Хлеб', pricePara: 6_000, label: 'Е', unit: 'piece' as const },
      ];
      await service.upsertProducts(shop, products);
      await service.upsertProducts(other, products);
      [till] = await enrolTills(service, shop, ['Каса 1']);
    },
  });
  const call = async (method: string, p: string, body?: unknown) => hub.call(hub.adminToken, method, p, body);
  const suppliers = async (): Promise<HubSupplier[]> =>
    ((await call('GET', `/api/admin/goods/form-data?shopId=${shop}`)).body as unknown as HubGoodsFormData).suppliers;
  /** The till's push with its status: its labels and, as every till now reports them, their rates (or none). */
  const report = (taxRates: { label: string; rate: number }[] | undefined) =>
    pushTaxRates(hub.service, till, ['Ђ', 'Е'], taxRates);
  const count = async (table: string): Promise<number> =>
    Number((await hub.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n);

  beforeAll(async () => {
    // The till reports its labels and their rates (the gateway's) with a push, as every till does.
    await report(RATES);
  });

  it('keeps suppliers: a wrong PIB, a bad account, a PIB twice refused at the field; saved, changed, audited', async () => {
    const put = (s: Record<string, unknown>) =>
      call('POST', '/api/admin/goods/suppliers', { shopId: shop, name: 'Воћни сокови д.о.о.', pib: GOOD_PIB, ...s });
    expect(await put({ pib: WRONG_PIB })).toMatchObject({ status: 400, body: { code: 'pib_check', field: 'pib' } });
    expect(await put({ pib: '12345' })).toMatchObject({ status: 400, body: { code: 'pib_format', field: 'pib' } });
    expect(await put({ bankAccount: '160-12' })).toMatchObject({
      status: 400,
      body: { code: 'bank_account', field: 'bankAccount' },
    });
    expect(await count('hub_suppliers')).toBe(0);
    const full = { address: 'Булевар 1, Нови Сад', bankAccount: '160-0000000012345-67' };
    const made = await put({ ...full, contact: 'Ана' });
    expect(made.status).toBe(200);
    expect(await put({ name: 'Други' })).toMatchObject({
      status: 409,
      body: { code: 'supplier_pib_taken', field: 'pib' },
    });
    const id = (made.body as unknown as HubSupplier).id;
    // A save is the whole form: what it leaves out is emptied.
    expect((await put({ id, ...full, contact: 'Марко 021 123' })).status).toBe(200);
    expect(await suppliers()).toEqual([
      {
        id,
        name: 'Воћни сокови д.о.о.',
        pib: GOOD_PIB,
        address: 'Булевар 1, Нови Сад',
        bankAccount: '160-0000000012345-67',
        contact: 'Марко 021 123',
      },
    ]);
    // Another shop's supplier list is its own.
    const theirs = await call('GET', `/api/admin/goods/form-data?shopId=${other}`);
    expect((theirs.body as unknown as HubGoodsFormData).suppliers).toEqual([]);
    const audit = await hub.db.query<{ action: string }>(
      "SELECT action FROM hub_audit WHERE action = 'goods_supplier' ORDER BY id",
    );
    expect(audit.length).toBe(2);
  });

  it('posts a receipt of a registered supplier with discount and margin: the retail price from the till’s rate', async () => {
    const [supplier] = await suppliers();
    const form = (await call('GET', `/api/admin/goods/form-data?shopId=${shop}`)).body as unknown as HubGoodsFormData;
    expect(form.taxRates).toEqual([
      { label: 'Ђ', rate: 20 },
      { label: 'Е', rate: 10 },
    ]);
    const receipt = (lines: unknown[], invoiceNumber = 'R-1', extra: Record<string, unknown> = {}) =>
      call('POST', '/api/admin/goods/receipts', {
        shopId: shop,
        supplierId: supplier?.id,
        invoiceNumber,
        invoiceDate: '2026-11-27',
        lines,
        ...extra,
      });
    const docsBefore = await count('hub_goods_docs');
    expect(
      await receipt([{ code: 'S1', qtyMilli: 1000, purchasePara: 10_000 }], 'R-0', { supplierId: 999 }),
    ).toMatchObject({
      status: 400,
      body: { code: 'supplier_unknown', field: 'supplierId' },
    });
    // A margin on a label whose rate no till reported, on the second line: nothing of the first line is posted.
    await report(undefined);
    expect(
      await receipt([
        { code: 'S1', qtyMilli: 1000, purchasePara: 10_000 },
        { code: 'B1', qtyMilli: 1000, purchasePara: 3_000, marginBp: 2_500 },
      ]),
    ).toMatchObject({ status: 400, body: { code: 'rate_unknown', field: 'lines.1.marginBp' } });
    expect(await count('hub_goods_docs')).toBe(docsBefore);
    await report(RATES);
    const posted = await receipt([
      // 100,00 less 10 % = 90,00 net; a margin of 25 % and 20 % VAT: 135,00.
      { code: 'S1', qtyMilli: 12_000, purchasePara: 10_000, discountBp: 1_000, marginBp: 2_500 },
      // The retail price kept (60,00 with 10 % VAT): the margin it leaves over 40,00 is shown.
      { code: 'B1', qtyMilli: 30_000, purchasePara: 4_000 },
    ]);
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    const doc = posted.body as unknown as HubGoodsDoc;
    const expected = retailFromMargin(netPurchase(10_000, 1_000), 2_500, 20);
    expect(expected).toBe(13_500);
    expect(doc.detail).toMatchObject({
      supplier: 'Воћни сокови д.о.о.',
      pib: GOOD_PIB,
      invoiceNumber: 'R-1',
      lines: [
        { code: 'S1', netPara: 9_000, pricePara: 13_500, marginBp: 2_500, oldPara: 20_000 },
        // 6000 / 1,1 = 5454,55 over 4000: 36,36 %.
        { code: 'B1', netPara: 4_000, pricePara: 6_000, marginBp: 3_636, oldPara: null },
      ],
    });
    // 12 × 135,00 + 30 × 60,00
    expect(doc.valuePara).toBe(162_000 + 180_000);
    const stock = (await call('GET', `/api/admin/goods/stock?shopId=${shop}`)).body as unknown as HubStockView;
    expect(stock.rows.find((r) => r.code === 'S1')).toMatchObject({
      qtyMilli: 12_000,
      pricePara: 13_500,
      purchasePara: 9_000,
    });
    const catalog = await hub.db.query<{ price_para: number }>(
      "SELECT price_para FROM products WHERE shop_id = $1 AND code = 'S1'",
      [shop],
    );
    expect(Number(catalog[0]?.price_para)).toBe(13_500);
    // The same invoice of the same supplier again, by the register or typed with its PIB: refused at its field.
    const again = await receipt([{ code: 'B1', qtyMilli: 1000, purchasePara: 4_000 }]);
    expect(again).toMatchObject({ status: 409, body: { code: 'invoice_known', field: 'invoiceNumber' } });
    const typed = await receipt([{ code: 'B1', qtyMilli: 1000, purchasePara: 4_000 }], 'R-1', {
      supplierId: undefined,
      supplier: 'Воћни сокови',
      pib: GOOD_PIB,
    });
    expect(typed).toMatchObject({ status: 409, body: { field: 'invoiceNumber' } });
  });

  it('keeps the shop’s PIB and address (validated) and prints them on the KEP and a transfer', async () => {
    const put = (b: Record<string, unknown>) =>
      call('PUT', '/api/admin/goods/shop-identity', { shopId: shop, address: 'Главна 5, Суботица', ...b });
    expect(await put({ pib: WRONG_PIB })).toMatchObject({ status: 400, body: { code: 'pib_check', field: 'pib' } });
    expect(await put({ pib: GOOD_PIB, address: '' })).toMatchObject({ status: 400, body: { field: 'address' } });
    expect(await count('hub_shop_identity')).toBe(0);
    expect((await put({ pib: GOOD_PIB })).body).toEqual({
      name: 'Продавница Север',
      pib: GOOD_PIB,
      address: 'Главна 5, Суботица',
    });
    const text = async (p: string): Promise<string> => {
      const r = await hub.admin('GET', p);
      expect(r.status).toBe(200);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-pdf-'));
      const file = path.join(dir, 'doc.pdf');
      fs.writeFileSync(file, Buffer.from(await r.arrayBuffer()));
      try {
        return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    };
    const kep = await text(`/api/admin/goods/kep?shopId=${shop}&from=2026-01-01&to=2026-12-31&format=pdf`);
    expect(kep).toContain('Продавница Север');
    expect(kep).toContain(GOOD_PIB);
    expect(kep).toContain('Главна 5, Суботица');
    const sent = await call('POST', '/api/admin/goods/transfers', {
      shopId: shop,
      toShopId: other,
      lines: [{ code: 'B1', qtyMilli: 2_000 }],
    });
    expect(sent.status).toBe(201);
    const transfer = await text(`/api/admin/goods/transfers/pdf?shopId=${shop}&transferId=${String(sent.body.id)}`);
    expect(transfer).toContain(GOOD_PIB);
    expect(transfer).toContain('Главна 5, Суботица');
  });
});
