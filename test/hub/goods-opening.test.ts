/**
 * A till enrolled later brings its own goods book (docs/goods.md "A till enrolled later brings its book"), with the
 * till's whole core on its SQLite file and a hub over real HTTP on both databases: a lone till posts a receipt, is
 * enrolled into a shop with no goods (its catalog adopted), and its manager brings the book over as the shop's
 * opening stock (`hub.goodsOpening`): numbered at the hub, a KEP debit at retail value, the till's purchase price
 * kept; a second time is refused at the till, and a till whose shop's book has movements already is refused by the
 * hub with the reason said at the choice. Nothing moves twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HubStatusView } from '../../shared/contract/hub.ts';
import type { ReceiptView, SupplierView } from '../../shared/contract/goods.ts';
import { BACKENDS } from './backends.ts';
import { serveHub } from './served-hub.ts';
import { shopCalls } from './shop-calls.ts';
import { closeCores, fails, MANAGER_PIN, ok, startCore } from '../support/session.ts';

afterEach(closeCores);
type Core = Awaited<ReturnType<typeof startCore>>;
const ADMIN = 'kasa-test-admin-token-goods-opening-0123456789';

/** A lone till's book with two products received: 5 of S1 at 100,00 (+20 %), 3 of S2 at 50,00 kept at 90,00. */
async function tillWithGoods(c: Core, invoice: string): Promise<void> {
  const supplier = await ok<SupplierView>(c, 'suppliers.put', {
    managerPin: MANAGER_PIN,
    name: 'Добављач д.о.о.',
    pib: '113460262',
  });
  const draft = await ok<ReceiptView>(c, 'goods.receiptSave', {
    managerPin: MANAGER_PIN,
    supplierId: supplier.id,
    invoiceNumber: invoice,
    invoiceDate: '2026-11-20',
    lines: [
      { code: 'S1', name: 'Сок', label: 'A', unit: 'piece', quantity: 5, purchasePrice: 100, marginPercent: 20 },
      { code: 'S2', name: 'Чај', label: 'A', unit: 'piece', quantity: 3, purchasePrice: 50, retailPrice: 90 },
    ],
  });
  await ok(c, 'goods.receiptPost', { managerPin: MANAGER_PIN, id: draft.id });
}

describe.each(BACKENDS)('a till enrolled later bringing its goods on $name', (backend) => {
  const hub = serveHub(backend, { adminToken: ADMIN, defaultShop: 'A' });
  const { count, stockOf, kep } = shopCalls(hub, () => 0);
  const movements = (shop: number) => count(`hub_stock_movements WHERE shop_id = ${shop}`);

  it('brings the book over once as the shop’s opening stock; never into a shop whose book has movements', async () => {
    const shop = await hub.service.createShop('Нова продавница');
    const c = await startCore();
    await tillWithGoods(c, 'F-1');
    await ok(c, 'hub.enrol', { managerPin: MANAGER_PIN, url: hub.url, code: await hub.service.newEnrolCode(shop) });
    // The catalog came with the till (the shop had none); the book is offered.
    const before = await ok<HubStatusView>(c, 'hub.status');
    expect(before.catalogChoice).toBeNull();
    expect(before.goodsOpening).toEqual({ tillLines: 2, brought: null });

    const r = await ok<{ number: string }>(c, 'hub.goodsOpening', { managerPin: MANAGER_PIN });
    expect(r.number).toMatch(/^1\/\d{4}$/);
    // 100,00 + 20 % + VAT under A at the till, its catalog adopted at the hub: the shop's retail price is the till's.
    expect(await stockOf('S1', shop)).toMatchObject({ qtyMilli: 5_000, pricePara: 13_200, purchasePara: 10_000 });
    expect(await stockOf('S2', shop)).toMatchObject({ qtyMilli: 3_000, pricePara: 9_000, purchasePara: 5_000 });
    const book = await kep(shop);
    expect(book.entries.map((e) => e.debitPara)).toEqual([5 * 13_200 + 3 * 9_000]);
    expect(book.closingPara).toBe(book.stockValuePara);
    const after = await ok<HubStatusView>(c, 'hub.status');
    expect(after.goodsOpening?.brought?.number).toBe(r.number);
    // Never twice: the till says so, and the hub's book moved once.
    expect(await fails(c, 'hub.goodsOpening', { managerPin: MANAGER_PIN })).toMatchObject({ code: 'conflict' });
    expect(await movements(shop)).toBe(2);

    // A second till of that shop, with goods of its own: the shop's book has movements, said at the choice.
    const other = await startCore();
    await tillWithGoods(other, 'F-2');
    await ok(other, 'hub.enrol', { managerPin: MANAGER_PIN, url: hub.url, code: await hub.service.newEnrolCode(shop) });
    const refused = await fails(other, 'hub.goodsOpening', { managerPin: MANAGER_PIN });
    expect(refused).toMatchObject({ code: 'conflict' });
    expect(refused.message).toContain('Продавница на хабу већ води робу');
    expect(await movements(shop)).toBe(2);
    expect((await ok<HubStatusView>(other, 'hub.status')).goodsOpening?.brought).toBeNull();
  });
});
