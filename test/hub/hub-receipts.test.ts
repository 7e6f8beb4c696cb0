/**
 * Goods receipts as drafts and reversals, their A4 PDFs, minimums and the reorder list at the hub, over real HTTP
 * on both hub databases (docs/goods.md "At the hub"): a draft moves nothing until a manager posts it; two posts of
 * one draft at once post it once; a posted receipt is changed only by a numbered reversal (a KEP credit, its stock
 * back out, allowed below zero as on the till); refusals at their fields with nothing half-saved; the receipt's and
 * the reversal's calculation and the reorder list read back from their PDFs by poppler's `pdftotext` (pages
 * rendered by `pdftoppm` with KASA_SHOTS); the reorder list's CSV.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HubGoodsDoc, HubReceipt } from '../../shared/hub/goods-protocol.ts';
import type { ReorderView } from '../../shared/contract/goods.ts';
import { BACKENDS } from './backends.ts';
import { serveHub } from './served-hub.ts';
import { keepPicture } from '../support/shots.ts';
import { seedGoodsShop, shopCalls } from './shop-calls.ts';

const ADMIN = 'kasa-test-admin-token-hub-receipts-0123456789';
const SUPPLIER_PIB = '101134702';
const SHOP_PIB = '100002055';

describe.each(BACKENDS)('goods receipt drafts, reversals and minimums at the hub on $name', (backend) => {
  let shop = 0;
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    defaultShop: true,
    seed: async (service) => {
      ({ shop } = await seedGoodsShop(
        service,
        'Продавница Исток',
        [
          { code: 'S1', name: 'Сок од јабуке', pricePara: 20_000, label: 'Ђ', unit: 'piece' },
          { code: 'B1', name: 'Хлеб', pricePara: 6_000, label: 'Е', unit: 'piece' },
          { code: 'M1', name: 'Млеко', pricePara: 15_000, label: 'Е', unit: 'piece' },
        ],
        ['Каса 1'],
      ));
    },
  });
  const { call, count, stockOf, kep } = shopCalls(hub, () => shop);
  const receipts = async (): Promise<HubReceipt[]> =>
    ((await call('GET', `/api/admin/goods/receipts?shopId=${shop}`)).body as unknown as { receipts: HubReceipt[] })
      .receipts;
  /** A PDF of the hub read back as text; its first page kept as a picture when KASA_SHOTS asks. */
  const pdfText = async (p: string, picture: string): Promise<string> => {
    const r = await hub.admin('GET', p);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/pdf');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-receipt-'));
    const file = path.join(dir, 'doc.pdf');
    fs.writeFileSync(file, Buffer.from(await r.arrayBuffer()));
    try {
      execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', file, path.join(dir, 'page')]);
      const png = fs.readdirSync(dir).find((f) => f.endsWith('.png'));
      expect(png).toBeDefined();
      keepPicture(`hub-receipts-${picture}-${backend.name}`, fs.readFileSync(path.join(dir, png ?? '')));
      return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const draftBody = (lines: unknown[], extra: Record<string, unknown> = {}) => ({
    supplier: 'Воћни сокови д.о.о.',
    pib: SUPPLIER_PIB,
    invoiceNumber: 'F-100',
    invoiceDate: '2026-11-27',
    lines,
    ...extra,
  });

  beforeAll(async () => {
    const id = await call('PUT', '/api/admin/goods/shop-identity', { pib: SHOP_PIB, address: 'Главна 7, Ниш' });
    expect(id.status, JSON.stringify(id.body)).toBe(200);
  });

  it('saves a draft that moves nothing, refuses an unknown product and an empty post at the field', async () => {
    const unknown = await call(
      'POST',
      '/api/admin/goods/receipts/drafts',
      draftBody([{ code: 'NOPE', qtyMilli: 1000, purchasePara: 100 }]),
    );
    expect(unknown).toMatchObject({ status: 400, body: { code: 'product_unknown', field: 'lines.0.code' } });
    expect(await count('hub_receipts')).toBe(0);
    // An empty draft is kept (a form half done), but posting it is refused at `lines` and numbers nothing.
    const empty = await call('POST', '/api/admin/goods/receipts/drafts', draftBody([]));
    expect(empty.status).toBe(200);
    const emptyId = (empty.body as unknown as HubReceipt).id;
    const post = await call('POST', '/api/admin/goods/receipts/drafts/post', { id: emptyId });
    expect(post).toMatchObject({ status: 400, body: { code: 'receipt_empty', field: 'lines' } });
    expect(await count('hub_goods_docs')).toBe(0);
    expect(await count('hub_goods_numbers')).toBe(0);
    expect((await call('POST', '/api/admin/goods/receipts/drafts/delete', { id: emptyId })).status).toBe(200);
    expect(await count('hub_receipts')).toBe(0);

    const saved = await call(
      'POST',
      '/api/admin/goods/receipts/drafts',
      draftBody([{ code: 'S1', qtyMilli: 10_000, purchasePara: 10_000 }]),
    );
    expect(saved.status).toBe(200);
    const draft = saved.body as unknown as HubReceipt;
    expect(draft).toMatchObject({ state: 'draft', number: null, lineCount: 1, supplier: 'Воћни сокови д.о.о.' });
    // Edited over itself: two lines now, a new retail price for S1 and a margin for B1.
    const edited = await call(
      'POST',
      '/api/admin/goods/receipts/drafts',
      draftBody(
        [
          { code: 'S1', qtyMilli: 10_000, purchasePara: 10_000, pricePara: 18_000 },
          { code: 'B1', qtyMilli: 20_000, purchasePara: 4_000, marginBp: 2_500 },
        ],
        { id: draft.id },
      ),
    );
    expect(edited.body).toMatchObject({ id: draft.id, lineCount: 2 });
    expect(await count('hub_stock_movements')).toBe(0);
    expect(await count('hub_goods_docs')).toBe(0);
    expect((await receipts()).map((r) => r.state)).toEqual(['draft']);
  });

  it('posts a draft once though posted twice at once: stock, KEP debit, a price change for goods on hand', async () => {
    // S1 on hand first (a receipt posted at once), so the draft's new price revalues it.
    const first = await call('POST', '/api/admin/goods/receipts', {
      ...draftBody([{ code: 'S1', qtyMilli: 2_000, purchasePara: 10_000 }]),
      invoiceNumber: 'F-099',
    });
    expect(first.status).toBe(201);
    const [draft] = await receipts().then((rs) => rs.filter((r) => r.state === 'draft'));
    if (!draft) throw new Error('no draft');
    const both = await Promise.all([
      call('POST', '/api/admin/goods/receipts/drafts/post', { id: draft.id }),
      call('POST', '/api/admin/goods/receipts/drafts/post', { id: draft.id }),
    ]);
    expect(both.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(both.find((a) => a.status === 409)?.body).toMatchObject({ code: 'receipt_posted', field: 'id' });
    const doc = both.find((a) => a.status === 201)?.body as unknown as HubGoodsDoc;
    expect(doc.number).toMatch(/^2\/\d{4}$/);
    expect(await count(`hub_stock_movements WHERE source = 'receipt:${doc.id}'`)).toBe(2);
    expect(await count(`hub_goods_docs WHERE kind = 'receipt'`)).toBe(2);
    expect(await stockOf('S1')).toMatchObject({ qtyMilli: 12_000, pricePara: 18_000 });
    // 4000 × 1,25 × 1,10 = 5500.
    expect(await stockOf('B1')).toMatchObject({ qtyMilli: 20_000, pricePara: 5_500 });
    const changes = await hub.db.query<{ detail: { code: string; oldPara: number; newPara: number } }>(
      "SELECT detail FROM hub_goods_docs WHERE kind = 'price_change' ORDER BY id",
    );
    expect(changes.map((c) => c.detail)).toMatchObject([{ code: 'S1', oldPara: 20_000, newPara: 18_000 }]);
    const book = await kep();
    expect(book.entries.some((e) => e.debitPara === 10 * 18_000 + 20 * 5_500)).toBe(true);
    expect(book.closingPara).toBe(book.stockValuePara);
    expect((await receipts()).find((r) => r.id === draft.id)).toMatchObject({ state: 'posted', number: doc.number });
    // A posted receipt is no longer a draft: neither saved over nor deleted.
    const over = await call('POST', '/api/admin/goods/receipts/drafts', draftBody([], { id: draft.id }));
    expect(over).toMatchObject({ status: 409, body: { code: 'receipt_posted', field: 'id' } });
    const del = await call('POST', '/api/admin/goods/receipts/drafts/delete', { id: draft.id });
    expect(del).toMatchObject({ status: 409, body: { code: 'receipt_posted', field: 'id' } });
  });

  it('reverses a posted receipt once: numbered, referencing it, a KEP credit, stock out even below zero', async () => {
    const posted = (await receipts()).find((r) => r.invoiceNumber === 'F-100');
    if (!posted) throw new Error('no posted receipt');
    // Some bread went meanwhile (written off here): the reversal still takes all 20 out, as the till's does.
    const wo = await call('POST', '/api/admin/goods/write-offs', { code: 'B1', qtyMilli: 5_000, reason: 'буђ' });
    expect(wo.status).toBe(201);
    const before = await kep();
    const reversed = await call('POST', '/api/admin/goods/receipts/reverse', { id: posted.id });
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(201);
    const rev = reversed.body as unknown as HubGoodsDoc;
    expect(rev).toMatchObject({ kind: 'reversal', detail: { reverses: posted.id, reversesNumber: posted.number } });
    expect(rev.valuePara).toBe(-(10 * 18_000 + 20 * 5_500));
    expect(await stockOf('S1')).toMatchObject({ qtyMilli: 2_000 });
    expect(await stockOf('B1')).toMatchObject({ qtyMilli: -5_000 });
    const after = await kep();
    expect(after.closingPara - before.closingPara).toBe(rev.valuePara);
    expect(after.entries.some((e) => e.creditPara === -rev.valuePara && e.description.includes('Сторно'))).toBe(true);
    expect(after.closingPara).toBe(after.stockValuePara);
    const list = await receipts();
    const reversal = list.find((r) => r.kind === 'reversal');
    expect(list.find((r) => r.id === posted.id)).toMatchObject({ state: 'reversed', reversedBy: rev.number });
    expect(reversal).toMatchObject({ reverses: posted.id, reversesNumber: posted.number, number: rev.number });

    const movements = await count('hub_stock_movements');
    const docs = await count('hub_goods_docs');
    const again = await call('POST', '/api/admin/goods/receipts/reverse', { id: posted.id });
    expect(again).toMatchObject({ status: 409, body: { code: 'receipt_reversed', field: 'id' } });
    const ofReversal = await call('POST', '/api/admin/goods/receipts/reverse', { id: reversal?.id });
    expect(ofReversal).toMatchObject({ status: 409, body: { code: 'receipt_not_reversible', field: 'id' } });
    const draft = await call(
      'POST',
      '/api/admin/goods/receipts/drafts',
      draftBody([{ code: 'M1', qtyMilli: 1_000, purchasePara: 9_000 }], { invoiceNumber: 'F-101' }),
    );
    const ofDraft = await call('POST', '/api/admin/goods/receipts/reverse', { id: (draft.body as { id: number }).id });
    expect(ofDraft).toMatchObject({ status: 409, body: { code: 'receipt_draft', field: 'id' } });
    expect(await count('hub_stock_movements')).toBe(movements);
    expect(await count('hub_goods_docs')).toBe(docs);
    // The reversed invoice may be received again, corrected.
    const corrected = await call('POST', '/api/admin/goods/receipts', {
      ...draftBody([{ code: 'S1', qtyMilli: 9_000, purchasePara: 10_000 }]),
    });
    expect(corrected.status).toBe(201);
  });

  it('prints the receipt’s and the reversal’s calculation on A4 with the shop’s PIB and address', async () => {
    const list = await receipts();
    const receipt = list.find((r) => r.state === 'reversed');
    const reversal = list.find((r) => r.kind === 'reversal');
    if (!receipt || !reversal) throw new Error('no receipt');
    const text = await pdfText(`/api/admin/goods/receipts/pdf?shopId=${shop}&id=${receipt.id}`, 'receipt');
    expect(text).toContain(`Пријемница са калкулацијом бр. ${receipt.number ?? ''}`);
    expect(text).toContain('Воћни сокови д.о.о.');
    expect(text).toContain(SUPPLIER_PIB);
    expect(text).toContain('F-100');
    expect(text).toContain('27.11.2026.');
    expect(text).toContain(SHOP_PIB);
    expect(text).toContain('Главна 7, Ниш');
    expect(text).toContain('Хлеб');
    // The totals: purchase 10 × 100,00 + 20 × 40,00; retail 10 × 180,00 + 20 × 55,00.
    expect(text).toContain('1.800,00');
    expect(text).toContain('2.900,00');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    const rev = await pdfText(`/api/admin/goods/receipts/pdf?shopId=${shop}&id=${reversal.id}`, 'reversal');
    expect(rev).toContain(`Сторно пријемнице бр. ${reversal.number ?? ''}`);
    expect(rev).toContain(`Сторнира пријемницу бр. ${receipt.number ?? ''}`);
    expect(rev).toContain('-2.900,00');
    const en = await pdfText(`/api/admin/goods/receipts/pdf?shopId=${shop}&id=${receipt.id}&lang=en`, 'receipt-en');
    expect(en).toContain('Goods receipt');
    const draft = list.find((r) => r.state === 'draft');
    expect((await hub.admin('GET', `/api/admin/goods/receipts/pdf?shopId=${shop}&id=${draft?.id}`)).status).toBe(404);
  });

  it('keeps minimums (below zero, an unknown product refused) and lists what to reorder per supplier', async () => {
    const set = (code: string, minMilli: number) => call('POST', '/api/admin/goods/minimums', { code, minMilli });
    expect(await set('S1', -1)).toMatchObject({ status: 400, body: { field: 'minMilli' } });
    expect(await set('NOPE', 1_000)).toMatchObject({ status: 400, body: { code: 'product_unknown', field: 'code' } });
    expect(await count('hub_stock_minimums')).toBe(0);
    // S1 holds 11 (2 + 9), its minimum 20: order 9 from the supplier of its newest receipt; M1 never received.
    expect((await set('S1', 20_000)).status).toBe(200);
    expect((await set('M1', 3_000)).status).toBe(200);
    expect((await set('B1', 1_000)).status).toBe(200);
    expect((await set('B1', 0)).body).toEqual({ minimum: null });
    const minimums = (await call('GET', `/api/admin/goods/minimums?shopId=${shop}`)).body as {
      minimums: unknown[];
    };
    expect(minimums.minimums).toEqual([
      { code: 'M1', name: 'Млеко', minMilli: 3_000 },
      { code: 'S1', name: 'Сок од јабуке', minMilli: 20_000 },
    ]);
    const view = (await call('GET', `/api/admin/goods/reorder?shopId=${shop}`)).body as unknown as ReorderView;
    expect(view.suppliers).toMatchObject([
      {
        supplier: { name: 'Воћни сокови д.о.о.', pib: SUPPLIER_PIB },
        items: [{ code: 'S1', onHandMilli: 11_000, minimumMilli: 20_000, orderMilli: 9_000, purchasePara: 10_000 }],
      },
      { supplier: null, items: [{ code: 'M1', onHandMilli: 0, orderMilli: 3_000 }] },
    ]);
    const csv = await hub.admin('GET', `/api/admin/goods/reorder?shopId=${shop}&format=csv`);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = (await csv.text()).trim().split('\r\n');
    expect(rows[0]).toBe('Добављач;ПИБ;Шифра;Назив;На стању;Минимум;Наручити;Набавна цена');
    expect(rows[1]).toBe(`Воћни сокови д.о.о.;${SUPPLIER_PIB};S1;Сок од јабуке;11;20;9;100,00`);
    const pdf = await pdfText(`/api/admin/goods/reorder?shopId=${shop}&format=pdf`, 'reorder');
    expect(pdf).toContain('Списак за наручивање');
    expect(pdf).toContain(`Воћни сокови д.о.о. (${SUPPLIER_PIB})`);
    expect(pdf).toContain('Млеко');
    expect(pdf).toContain(SHOP_PIB);
    const audit = await hub.db.query<{ action: string }>(
      "SELECT action FROM hub_audit WHERE action LIKE 'goods_%' ORDER BY id",
    );
    expect(new Set(audit.map((a) => a.action))).toEqual(
      new Set([
        'goods_shop_identity',
        'goods_receipt_draft',
        'goods_receipt_draft_delete',
        'goods_receipt',
        'goods_writeoff',
        'goods_receipt_reverse',
        'goods_minimum',
      ]),
    );
  });
});
