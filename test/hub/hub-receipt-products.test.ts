/**
 * The hub's goods receipts, last pieces (docs/goods.md "At the hub"), over real HTTP on both hub databases: a
 * receipt line that makes a new product (checked as the product form checks it, refused at the line's field, made
 * once in the posting's transaction however often the draft is posted, pulled by every till of the shop), lines read
 * from a supplier's CSV (a bad row named by row and column, nothing added), and the KEP's late days (a day before
 * yesterday with a draft receipt of its invoice date).
 */
import { describe, expect, it } from 'vitest';
import type { HubGoodsDoc, HubKepView, HubReceipt } from '../../shared/hub/goods-protocol.ts';
import type { AuthedTill } from '../../hub/services/shared.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { hashPin } from '../../shared/node/pin.ts';
import { BACKENDS } from './backends.ts';
import { serveHub } from './served-hub.ts';
import { seedGoodsShop, shopCalls } from './shop-calls.ts';

const ADMIN = 'kasa-test-admin-token-hub-receipt-products-0123';
const SUPPLIER_PIB = '101134702';

describe.each(BACKENDS)('hub receipts making products, from a CSV, and late drafts on $name', (backend) => {
  let shop = 0;
  let tills: readonly AuthedTill[] = [];
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    defaultShop: true,
    seed: async (service) => {
      ({ shop, tills } = await seedGoodsShop(
        service,
        'Продавница Запад',
        [
          {
            code: 'S1',
            name: 'Сок од јабуке',
            pricePara: 20_000,
            label: 'Ђ',
            unit: 'piece',
            barcodes: ['8600000000017'],
          },
          { code: 'B1', name: 'Хлеб', pricePara: 6_000, label: 'Е', unit: 'piece' },
        ],
        ['Каса 1', 'Каса 2'],
      ));
    },
  });
  const { call, count, stockOf, kep } = shopCalls(hub, () => shop);
  const draftBody = (lines: unknown[], extra: Record<string, unknown> = {}) => ({
    supplier: 'Воћни сокови д.о.о.',
    pib: SUPPLIER_PIB,
    invoiceNumber: 'N-1',
    invoiceDate: '2026-11-27',
    lines,
    ...extra,
  });
  const newLine = (code: string, product: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    code,
    qtyMilli: 12_000,
    purchasePara: 8_000,
    marginBp: 2_500,
    newProduct: { name: 'Сок од брескве', label: 'Ђ', unit: 'piece', group: 'Сокови', ...product },
    ...extra,
  });

  it('refuses a new product’s line at its field as the product form would, nothing saved', async () => {
    const refused = async (line: unknown, field: string, code: string) => {
      const r = await call('POST', '/api/admin/goods/receipts/drafts', draftBody([line]));
      expect(r, JSON.stringify(r.body)).toMatchObject({ status: 400, body: { code, field } });
    };
    // A code the catalog has already, a barcode another product owns, a label no till reports (Ж), a barcode that
    // is none, a name longer than the till's product form takes, no price at all.
    await refused(newLine('S1', {}), 'lines.0.code', 'product_code_taken');
    await refused(newLine('N1', { barcodes: ['8600000000017'] }), 'lines.0.newProduct.barcodes', 'barcode_taken');
    await refused(newLine('N1', { label: 'Ж' }), 'lines.0.newProduct.label', 'label_not_current');
    await refused(newLine('N1', { barcodes: ['12'] }), 'lines.0.newProduct.barcodes', 'barcode_invalid');
    await refused(newLine('N1', { name: 'Д'.repeat(101) }), 'lines.0.newProduct.name', 'too_long');
    await refused(newLine('N1', {}, { marginBp: undefined }), 'lines.0.pricePara', 'price_required');
    // Two new lines of one code: the second is refused.
    const twice = await call(
      'POST',
      '/api/admin/goods/receipts/drafts',
      draftBody([newLine('N1', {}), newLine('N1', { name: 'Друго' })]),
    );
    expect(twice).toMatchObject({ status: 400, body: { code: 'product_code_taken', field: 'lines.1.code' } });
    expect(await count('hub_receipts')).toBe(0);
    expect(await count(`products WHERE shop_id = ${shop}`)).toBe(2);
  });

  it('keeps the new product in a draft, makes it once when posted twice at once, and every till pulls it', async () => {
    const saved = await call(
      'POST',
      '/api/admin/goods/receipts/drafts',
      draftBody([newLine('N1', { barcodes: ['8600000000024'] }), { code: 'B1', qtyMilli: 5_000, purchasePara: 4_000 }]),
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const draft = saved.body as unknown as HubReceipt;
    expect(draft.draft?.lines[0]?.newProduct).toMatchObject({ name: 'Сок од брескве', label: 'Ђ' });
    // A draft makes nothing.
    expect(await count(`products WHERE shop_id = ${shop} AND code = 'N1'`)).toBe(0);
    const before = await Promise.all(tills.map((t) => hub.service.changes(t, 0)));
    const both = await Promise.all([
      call('POST', '/api/admin/goods/receipts/drafts/post', { id: draft.id }),
      call('POST', '/api/admin/goods/receipts/drafts/post', { id: draft.id }),
    ]);
    expect(both.map((a) => a.status).sort()).toEqual([201, 409]);
    const doc = both.find((a) => a.status === 201)?.body as unknown as HubGoodsDoc;
    expect(doc.detail.newProducts).toEqual(['N1']);
    const made = await hub.db.query<{
      name: string;
      price_para: number;
      label: string;
      grp: string;
      barcodes: string[];
    }>(
      `SELECT name, price_para::int8 AS price_para, label, grp, barcodes FROM products WHERE shop_id = ${shop} AND code = 'N1'`,
    );
    // 80,00 × 1,25 × 1,20 = 120,00.
    expect(made).toEqual([
      { name: 'Сок од брескве', price_para: 12_000, label: 'Ђ', grp: 'Сокови', barcodes: ['8600000000024'] },
    ]);
    expect(await stockOf('N1')).toMatchObject({ qtyMilli: 12_000, pricePara: 12_000, purchasePara: 8_000 });
    expect(await count(`hub_stock_movements WHERE source = 'receipt:${doc.id}'`)).toBe(2);
    const book = await kep();
    expect(book.closingPara).toBe(book.stockValuePara);
    // Every till of the shop gets it by the catalog's normal pull, after the cursor it had.
    for (const [i, till] of tills.entries()) {
      const pulled = await hub.service.changes(till, before[i]?.cursor ?? 0);
      expect(pulled.products.map((p) => [p.code, p.pricePara, p.barcodes])).toEqual([
        ['N1', 12_000, ['8600000000024']],
      ]);
    }
    const audit = await hub.db.query<{ detail: Record<string, unknown> }>(
      "SELECT detail FROM hub_audit WHERE action = 'goods_receipt' ORDER BY id",
    );
    expect(audit.map((a) => a.detail['newProducts'])).toEqual(['N1']);
    // Posted at once with a kept retail price, and a code the first receipt made is taken now.
    const atOnce = await call('POST', '/api/admin/goods/receipts', {
      ...draftBody([newLine('N2', { name: 'Сок од вишње' }, { marginBp: undefined, pricePara: 15_000 })]),
      invoiceNumber: 'N-2',
    });
    expect(atOnce.status, JSON.stringify(atOnce.body)).toBe(201);
    expect(await stockOf('N2')).toMatchObject({ qtyMilli: 12_000, pricePara: 15_000 });
    const again = await call('POST', '/api/admin/goods/receipts', {
      ...draftBody([newLine('N2', {}, { marginBp: undefined, pricePara: 15_000 })]),
      invoiceNumber: 'N-3',
    });
    expect(again).toMatchObject({ status: 400, body: { code: 'product_code_taken', field: 'lines.0.code' } });
    expect(await count(`hub_goods_docs WHERE shop_id = ${shop} AND kind = 'receipt'`)).toBe(2);
  });
  it('reads a supplier’s CSV as lines of the shop’s products, refusing a bad row by row and column', async () => {
    const lines = (csv: string) => call('POST', '/api/admin/goods/receipts/csv-lines', { csv });
    // A header, a code, a barcode with a discount, a decimal comma, a tab; the product's retail price kept.
    const read = await lines('\ufeffšifra;količina;cena;rabat\r\nS1;2;50,00\n8600000000017;1,5;40;10\n\nB1\t3\t20.5\n');
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body['lines']).toEqual([
      { code: 'S1', qtyMilli: 2_000, purchasePara: 5_000, pricePara: 20_000 },
      { code: 'S1', qtyMilli: 1_500, purchasePara: 4_000, discountBp: 1_000, pricePara: 20_000 },
      { code: 'B1', qtyMilli: 3_000, purchasePara: 2_050, pricePara: 6_000 },
    ]);
    const refused = async (csv: string, code: string, params: Record<string, unknown>) =>
      expect(await lines(csv)).toMatchObject({ status: 400, body: { code, field: 'csv', params } });
    await refused('S1;2;50\nNEMA;1;10\n', 'goods_csv_unknown', { row: 2, column: 1, value: 'NEMA' });
    await refused('S1;2;50\nB1;-1;10\n', 'goods_csv_quantity', { row: 2, column: 2, value: '-1' });
    await refused('S1;2;50\n\nB1;1;x\n', 'goods_csv_amount', { row: 3, column: 3, value: 'x' });
    await refused('S1;2;50;120\n', 'goods_csv_amount', { row: 1, column: 4, value: '120' });
    await refused(';2;50\n', 'goods_csv_cell', { row: 1, column: 1 });
    expect(await lines('šifra;količina\n')).toMatchObject({
      status: 400,
      body: { code: 'goods_csv_empty', field: 'csv' },
    });
    // Read only: nothing saved or moved.
    expect(await count(`hub_receipts WHERE state = 'draft'`)).toBe(0);
  });

  it('shows a day before yesterday with a draft receipt of its invoice date as late in the KEP, and no other', async () => {
    const dayAgo = (n: number) => dayIn(new Date(Date.now() - n * 86_400_000));
    const late = async () =>
      (
        (await call('GET', `/api/admin/goods/kep?shopId=${shop}&from=${dayAgo(0)}&to=${dayAgo(0)}`))
          .body as unknown as HubKepView
      ).late;
    expect(await late()).toEqual([]);
    const save = (invoiceNumber: string, days: number) =>
      call(
        'POST',
        '/api/admin/goods/receipts/drafts',
        draftBody([{ code: 'B1', qtyMilli: 1_000, purchasePara: 4_000 }], { invoiceNumber, invoiceDate: dayAgo(days) }),
      );
    // Yesterday's draft may still be entered today: not late.
    expect((await save('L-1', 1)).status).toBe(200);
    expect(await late()).toEqual([]);
    const old = (await save('L-2', 3)).body as unknown as HubReceipt;
    expect((await save('L-3', 3)).status).toBe(200);
    expect((await save('L-4', 5)).status).toBe(200);
    expect(await late()).toEqual([
      { day: dayAgo(3), draftReceipts: 2 },
      { day: dayAgo(5), draftReceipts: 1 },
    ]);
    // Posted, the day's draft is entered: one left that day.
    expect((await call('POST', '/api/admin/goods/receipts/drafts/post', { id: old.id })).status).toBe(201);
    expect(await late()).toEqual([
      { day: dayAgo(3), draftReceipts: 1 },
      { day: dayAgo(5), draftReceipts: 1 },
    ]);
  });
  it('takes a till’s own book as a new shop’s opening stock once, approved at the hub, and never over movements', async () => {
    const opened = await hub.service.createShop('Продавница Север');
    await hub.service.upsertProducts(opened, [
      { code: 'S1', name: 'Сок од јабуке', pricePara: 20_000, label: 'Ђ', unit: 'piece' },
      { code: 'B1', name: 'Хлеб', pricePara: 6_000, label: 'Е', unit: 'piece' },
    ]);
    await hub.service.upsertStaff(opened, [{ name: 'Милица', role: 'manager', pinHash: await hashPin('424242') }]);
    const enrolled = await hub.enrol(await hub.service.newEnrolCode(opened), 'Каса Север');
    const credential = String(enrolled.body['credential']);
    const open = (body: Record<string, unknown>) => hub.call(credential, 'POST', '/api/till/goods/opening', body);
    const lines = [
      { code: 'S1', qtyMilli: 7_000, purchasePara: 12_000 },
      { code: 'B1', qtyMilli: -2_000, purchasePara: null },
    ];
    const docs = () => count(`hub_goods_docs WHERE shop_id = ${opened}`);
    // Without a hub manager's PIN, with a wrong one, or naming a product the shop does not have: nothing moves.
    expect((await open({ key: 'opening-key-1', lines })).body).toMatchObject({ field: 'approverPin' });
    expect((await open({ key: 'opening-key-1', lines, approverPin: '999999' })).body).toMatchObject({
      field: 'approverPin',
    });
    const unknown = await open({
      key: 'opening-key-1',
      lines: [{ code: 'X9', qtyMilli: 1_000, purchasePara: null }],
      approverPin: '424242',
    });
    expect(unknown).toMatchObject({ status: 400, body: { code: 'product_unknown', field: 'lines.0.code' } });
    expect(await docs()).toBe(0);

    // Sent twice at once (a retry after a lost answer): one document, its lines moved once.
    const both = await Promise.all([
      open({ key: 'opening-key-1', lines, approverPin: '424242' }),
      open({ key: 'opening-key-1', lines, approverPin: '424242' }),
    ]);
    expect(both.map((a) => a.status)).toEqual([200, 200]);
    const answers = both.map((a) => a.body as unknown as { doc: HubGoodsDoc; repeated: boolean });
    expect(answers.map((a) => a.repeated).sort()).toEqual([false, true]);
    expect(answers[0]?.doc.id).toBe(answers[1]?.doc.id);
    const doc = answers[0]?.doc;
    // The KEP's debit at the catalog's retail value: 7 × 200,00 − 2 × 60,00.
    expect(doc).toMatchObject({ kind: 'opening', valuePara: 140_000 - 12_000, detail: { till: 'Каса Север' } });
    expect(await docs()).toBe(1);
    expect(await count(`hub_stock_movements WHERE shop_id = ${opened} AND kind = 'opening'`)).toBe(2);
    expect(await stockOf('B1', opened)).toMatchObject({ qtyMilli: -2_000, pricePara: 6_000, purchasePara: null });
    expect(await stockOf('S1', opened)).toMatchObject({ qtyMilli: 7_000, pricePara: 20_000, purchasePara: 12_000 });
    const book = await kep(opened);
    expect(book.entries).toMatchObject([
      { debitPara: 128_000, description: `Почетно стање робе бр. ${doc?.number ?? ''}: из књиге касе Каса Север` },
    ]);
    expect(book.closingPara).toBe(book.stockValuePara);
    // Never twice, whatever the key: the shop's book has movements now, and says so at the choice.
    const second = await open({ key: 'opening-key-2', lines, approverPin: '424242' });
    expect(second).toMatchObject({ status: 409, body: { code: 'goods_shop_has_stock', field: 'lines' } });
    expect(await docs()).toBe(1);
    const audit = await hub.db.query<{ actor: string; detail: Record<string, unknown> }>(
      `SELECT actor, detail FROM hub_audit WHERE action = 'goods_opening' AND shop_id = ${opened}`,
    );
    expect(audit).toMatchObject([{ actor: 'Милица', detail: { number: doc?.number, till: 'Каса Север' } }]);
  });
});
