/**
 * Prices at a lone till (issue 42, docs/prices.md), through the core with its real SQLite file and the sandbox
 * gateway over HTTP:
 * - bad input is refused at its field, in the till's language, and nothing is half-saved;
 * - a promotion and a happy hour price the counter's cart (`prices.quote`); a checkout at that price needs no
 *   manager (the rule's discount is not the cashier's) and its fiscal item names the rule and the old price, and
 *   multiplies out; the same discount without a rule in force needs a manager;
 * - a scheduled price change takes effect at its moment once, also when the till was off then: applied at the
 *   next start, with one price change record (нивелација) dated at its moment; a further restart changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductView } from '../../shared/contract/catalog.ts';
import type { SupplierView, ReceiptView } from '../../shared/contract/goods.ts';
import type {
  PricedLineView,
  PriceListView,
  PricesOverview,
  PromotionView,
  ScheduledPriceView,
} from '../../shared/contract/prices.ts';
import type { AppError, CheckoutResult } from '../../shared/contract/index.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { itemAmount, type ReceiptItem } from '../../shared/receipt-items.ts';
import { toMilli, toPara } from '../../shared/money.ts';
import { closeCore, closeCores, fails, MANAGER_PIN, newProduct, ok, startCore, tempDir } from '../support/session.ts';

const managerPin = MANAGER_PIN;
const fieldOf = (e: AppError): string | undefined => ('field' in e ? e.field : undefined);
// Saturday 2026-11-28 15:00 in Belgrade (14:00 UTC): the weekend promotion is on, the happy hour (16–18) not yet.
let clock = Date.parse('2026-11-28T14:00:00Z');
const now = (): number => clock;
type Core = Awaited<ReturnType<typeof startCore>>;
let c: Core;
const dataDir = tempDir('kasa-prices-');

async function product(core: Core, code: string, name: string, price: number, group: string | null) {
  return ok<ProductView>(core, 'catalog.put', newProduct(code, price, group, { name, label: 'A' }));
}

const count = (table: string): number =>
  c.db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;

beforeAll(async () => {
  c = await startCore({ now, dataDir, env: { KASA_LANG: 'sr-Cyrl' } });
  await product(c, 'HL', 'Хлеб', 120, 'Пекара');
  await product(c, 'MK', 'Млеко', 150, 'Пиће');
  await product(c, 'SK', 'Сок', 200, 'Пиће');
}, 60_000);
afterAll(closeCores);

describe('bad input at its field, nothing half-saved', () => {
  it('a promotion ending before it starts', async () => {
    const e = await fails(c, 'prices.promotionPut', {
      name: 'Викенд',
      priority: 1,
      code: 'HL',
      kind: 'percent',
      percent: 20,
      fromDay: '2026-11-29',
      toDay: '2026-11-28',
    });
    expect(fieldOf(e)).toBe('toDay');
    expect(e.message).toContain('До датума');
    expect(count('promotions')).toBe(0);
  });

  it('a promotion at a reduced price longer than 31 days (Закон о трговини, čl. 37); a multi-buy is not bounded', async () => {
    const long = { name: 'Дуга акција', priority: 7, code: 'SK', kind: 'percent', percent: 10 };
    const e = await fails(c, 'prices.promotionPut', { ...long, fromDay: '2026-12-01', toDay: '2027-01-01' });
    expect(fieldOf(e)).toBe('toDay');
    expect(e.message).toContain('31');
    expect(e.message).toContain('32');
    expect(e.message).toContain('До датума');
    const half = await fails(c, 'prices.promotionPut', {
      ...long,
      kind: 'nth',
      nth: 2,
      percent: 50,
      fromDay: '2026-12-01',
      toDay: '2027-03-01',
    });
    expect(fieldOf(half)).toBe('toDay');
    expect(count('promotions')).toBe(0);
    const month = await ok<PromotionView>(c, 'prices.promotionPut', {
      ...long,
      fromDay: '2026-12-01',
      toDay: '2026-12-31',
    });
    const multi = await ok<PromotionView>(c, 'prices.promotionPut', {
      ...long,
      kind: 'multibuy',
      buy: 3,
      pay: 2,
      priority: 8,
      percent: null,
      fromDay: '2026-12-01',
      toDay: '2027-06-30',
    });
    for (const p of [month, multi]) await ok(c, 'prices.promotionDelete', { id: p.id });
    expect(count('promotions')).toBe(0);
  });

  it('a price list for a PIB that is not one, and a list naming an unknown product', async () => {
    const bad = await fails(c, 'prices.listPut', {
      name: 'Фирма',
      priority: 1,
      scope: 'buyer',
      buyerPib: '101134703',
      items: [{ code: 'HL', price: 100 }],
    });
    expect(fieldOf(bad)).toBe('buyerPib');
    expect(bad.message).toContain('ПИБ');
    const unknown = await fails(c, 'prices.listPut', {
      name: 'Фирма',
      priority: 1,
      scope: 'buyer',
      buyerPib: '101134702',
      items: [
        { code: 'HL', price: 100 },
        { code: 'NEMA', price: 10 },
      ],
    });
    expect(fieldOf(unknown)).toBe('items.1.code');
    expect(unknown.message).toContain('NEMA');
    expect(count('price_lists')).toBe(0);
    expect(count('price_list_items')).toBe(0);
  });

  it('overlapping promotions on one product with one priority', async () => {
    await ok<PromotionView>(c, 'prices.promotionPut', {
      name: 'Викенд акција',
      priority: 1,
      code: 'HL',
      kind: 'price',
      price: 90,
      fromDay: '2026-11-28',
      toDay: '2026-11-29',
    });
    const e = await fails(c, 'prices.promotionPut', {
      name: 'Друга',
      priority: 1,
      code: 'HL',
      kind: 'percent',
      percent: 10,
      fromDay: '2026-11-29',
      toDay: '2026-12-05',
    });
    expect(fieldOf(e)).toBe('priority');
    expect(e.message).toContain('Викенд акција');
    expect(count('promotions')).toBe(1);
    const pay = await fails(c, 'prices.promotionPut', {
      name: '2 за 2',
      priority: 2,
      group: 'Пиће',
      kind: 'multibuy',
      buy: 2,
      pay: 2,
      fromDay: '2026-11-28',
      toDay: '2026-11-29',
    });
    expect(fieldOf(pay)).toBe('pay');
  });

  it('a scheduled change in the past', async () => {
    const past = await fails(c, 'prices.schedule', {
      managerPin,
      code: 'MK',
      price: 160,
      at: new Date(clock - 60_000).toISOString(),
    });
    expect(fieldOf(past)).toBe('at');
    expect(count('scheduled_prices')).toBe(0);
  });
});

describe('at the counter', () => {
  it('a promotion prices the line, the checkout needs no manager and the fiscal item names it', async () => {
    const [line] = await ok<PricedLineView[]>(c, 'prices.quote', { lines: [{ code: 'HL', quantity: 3 }] });
    expect(line).toMatchObject({ regularPara: 12_000, unitPara: 9_000, totalPara: 27_000, discountPara: 9_000 });
    expect(line?.rule?.name).toBe('Викенд акција');
    const hl = (await ok<ProductView[]>(c, 'catalog.search', { query: 'HL', limit: 1 }))[0] as ProductView;
    const sale = await ok<CheckoutResult>(c, 'sales.checkout', {
      lines: [{ name: 'Хлеб', quantity: 3, unitPrice: 120, discount: 90, labels: ['A'], productId: hl.id }],
      payments: [{ type: 'cash', amount: 270 }],
    });
    const row = c.db
      .prepare<[number], { request: string }>('SELECT request FROM orders WHERE id = ?')
      .get(sale.orderId);
    const items = (JSON.parse(row?.request ?? '{}') as { items: ReceiptItem[] }).items;
    expect(items.map((i) => i.name)).toEqual(['Хлеб, Викенд акција, стара цена 120,00, попуст 90,00']);
    for (const i of items)
      expect(itemAmount(toMilli(i.quantity) ?? 0, toPara(i.unitPrice) ?? 0)).toBe(toPara(i.totalAmount));
    expect(items[0]).toMatchObject({ quantity: 3, unitPrice: 90, totalAmount: 270 });
  });

  it('a happy hour applies in its hours only; outside them the same discount needs a manager', async () => {
    await ok<PriceListView>(c, 'prices.listPut', {
      name: 'Срећни сат',
      priority: 5,
      scope: 'shop',
      fromTime: '16:00',
      toTime: '18:00',
      items: [],
      ruleGroup: 'Пиће',
      rulePercent: 25,
    });
    const sok = (await ok<ProductView[]>(c, 'catalog.search', { query: 'SK', limit: 1 }))[0] as ProductView;
    const input = {
      lines: [{ name: 'Сок', quantity: 2, unitPrice: 200, discount: 100, labels: ['A'], productId: sok.id }],
      payments: [{ type: 'cash', amount: 300 }],
    };
    // 15:00: not yet.
    let [line] = await ok<PricedLineView[]>(c, 'prices.quote', { lines: [{ code: 'SK', quantity: 2 }] });
    expect(line?.rule).toBeNull();
    const refused = await fails(c, 'sales.checkout', input);
    expect(fieldOf(refused)).toBe('approval.managerPin');
    // 16:30 Belgrade.
    clock = Date.parse('2026-11-28T15:30:00Z');
    [line] = await ok<PricedLineView[]>(c, 'prices.quote', { lines: [{ code: 'SK', quantity: 2 }] });
    expect(line).toMatchObject({ unitPara: 15_000, totalPara: 30_000, rule: { kind: 'list', name: 'Срећни сат' } });
    const sale = await ok<CheckoutResult>(c, 'sales.checkout', input);
    const row = c.db
      .prepare<[number], { request: string }>('SELECT request FROM orders WHERE id = ?')
      .get(sale.orderId);
    expect(row?.request).toContain('Сок, Срећни сат, стара цена 200,00');
    const overview = await ok<PricesOverview>(c, 'prices.overview', {});
    expect(overview.lists.find((l) => l.name === 'Срећни сат')?.inForce).toBe(true);
  });
});

describe('a scheduled price change', () => {
  it('takes effect once at its moment, with one нивелација, also when the till was off then', async () => {
    // Goods on hand, so the change has a price change record to write.
    const supplier = await ok<SupplierView>(c, 'suppliers.put', { managerPin, name: 'Млекара', pib: '101134702' });
    const draft = await ok<ReceiptView>(c, 'goods.receiptSave', {
      managerPin,
      supplierId: supplier.id,
      invoiceNumber: 'M-1',
      invoiceDate: dayIn(new Date(clock)),
      lines: [{ code: 'MK', quantity: 10, purchasePrice: 100, retailPrice: 150 }],
    });
    await ok(c, 'goods.receiptPost', { managerPin, id: draft.id });
    const monday = '2026-11-29T23:00:00.000Z'; // Monday 00:00 in Belgrade
    const s = await ok<ScheduledPriceView>(c, 'prices.schedule', { managerPin, code: 'MK', price: 165, at: monday });
    expect(s).toMatchObject({ state: 'pending', pricePara: 16_500, oldPricePara: 15_000 });
    const changes = () =>
      c.db
        .prepare<[], { at: string; old_para: number; new_para: number }>(
          "SELECT at, old_para, new_para FROM price_changes WHERE product_code = 'MK'",
        )
        .all();
    expect(changes()).toEqual([]);
    // The till is off over the moment, and starts on Monday morning.
    await closeCore(c);
    clock = Date.parse('2026-11-30T07:00:00Z');
    c = await startCore({ now, dataDir, signedIn: false });
    await c.dispatch('staff.login', { pin: managerPin });
    expect(changes()).toEqual([{ at: monday, old_para: 15_000, new_para: 16_500 }]);
    const mk = c.db.prepare<[], { price_para: number }>("SELECT price_para FROM products WHERE code = 'MK'").get();
    expect(mk?.price_para).toBe(16_500);
    // Another restart: nothing more.
    await closeCore(c);
    clock += 3_600_000;
    c = await startCore({ now, dataDir, signedIn: false });
    await c.dispatch('staff.login', { pin: managerPin });
    expect(changes()).toHaveLength(1);
    const overview = await ok<PricesOverview>(c, 'prices.overview', {});
    expect(overview.scheduled[0]).toMatchObject({ state: 'applied', oldPricePara: 15_000, pricePara: 16_500 });
  }, 60_000);
});
