/**
 * The price a till charges is the rules in force at that moment (issue 42, docs/prices.md), through the till's own
 * prices service on a real SQLite file (fast-check): random price lists (this shop, the chain, two business
 * buyers by PIB; windows of days, weekdays and hours) and promotions are saved through the manager's commands'
 * service (what it refuses is not saved and not expected), then a random cart at a random moment for a random
 * buyer (none, or a `10:PIB`):
 * - the counter's quote (`quote`) and the checkout's rule discounts (`checkoutRules`) both equal the engine over
 *   the rules as they were saved, read at that moment for that buyer (a buyer's list only for that buyer);
 * - each line so charged goes out as fiscal items that multiply out and add up to its total.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../electron/db/open.ts';
import { createCatalogService } from '../../electron/catalog/service.ts';
import { createPricesService } from '../../electron/prices/service.ts';
import type { PriceListInput, PromotionInput } from '../../shared/contract/prices.ts';
import {
  buildPriceIndex,
  priceCart,
  type PriceList,
  type Promotion,
  type PromotionDeal,
  type TimeWindow,
} from '../../shared/prices/engine.ts';
import { itemAmount, lineItems } from '../../shared/receipt-items.ts';
import { toMilli, toPara } from '../../shared/money.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const PRODUCTS = [
  { code: 'A', group: 'Пиће', pricePara: 12_000 },
  { code: 'B', group: 'Пиће', pricePara: 9_999 },
  { code: 'C', group: 'Хлеб', pricePara: 6_500 },
  { code: 'D', group: null, pricePara: 100 },
];
const PIBS = ['101134702', '100002288'];
const DAYS = ['2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29', '2026-11-30'];
// 2026-11-26 00:00 in Belgrade (UTC+1) and four days on.
const FROM = Date.parse('2026-11-25T23:00:00Z');
const SPAN = 4 * 86_400_000;

const time = fc
  .integer({ min: 0, max: 47 })
  .map((h) => `${String(Math.floor(h / 2)).padStart(2, '0')}:${h % 2 ? '30' : '00'}`);
const windowFields = fc
  .record({
    a: fc.constantFrom(...DAYS),
    b: fc.constantFrom(...DAYS),
    weekdays: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 3 }),
    hours: fc.option(fc.tuple(time, time), { nil: null }),
  })
  .map(({ a, b, weekdays, hours }) => ({
    fromDay: a < b ? a : b,
    toDay: a < b ? b : a,
    weekdays,
    fromTime: hours && hours[0] !== hours[1] ? hours[0] : null,
    toTime: hours && hours[0] !== hours[1] ? hours[1] : null,
  }));

const listInput: fc.Arbitrary<PriceListInput> = fc
  .record({
    name: fc.constantFrom('Велепродаја', 'Срећни сат', 'Ланац'),
    priority: fc.integer({ min: 0, max: 3 }),
    scope: fc.constantFrom('shop', 'chain', 'buyer0', 'buyer1'),
    window: fc.option(windowFields, { nil: null }),
    items: fc.uniqueArray(
      fc.record({ code: fc.constantFrom('A', 'B', 'C', 'D'), price: fc.integer({ min: 0, max: 15_000 }) }),
      { selector: (i) => i.code, maxLength: 3 },
    ),
    rule: fc.option(
      fc.record({ group: fc.constantFrom('Пиће', 'Хлеб', null), percent: fc.integer({ min: 1, max: 10_000 }) }),
      { nil: null },
    ),
  })
  .map((l) => ({
    name: l.name,
    priority: l.priority,
    scope: l.scope.startsWith('buyer') ? 'buyer' : (l.scope as 'shop' | 'chain'),
    buyerPib: l.scope.startsWith('buyer') ? (PIBS[Number(l.scope.slice(5))] ?? null) : null,
    ...(l.window ?? {}),
    items: l.items.map((i) => ({ code: i.code, price: i.price / 100 })),
    ruleGroup: l.rule?.group ?? null,
    rulePercent: l.rule ? l.rule.percent / 100 : null,
  }));

const promotionInput: fc.Arbitrary<PromotionInput> = fc
  .record({
    name: fc.constantFrom('Викенд', 'Акција', '3 за 2', 'Друго упола'),
    priority: fc.integer({ min: 0, max: 3 }),
    target: fc.constantFrom('A', 'B', 'C', 'Пиће', 'Хлеб'),
    deal: fc.oneof(
      fc.record({ kind: fc.constant('price' as const), price: fc.integer({ min: 0, max: 6_000 }) }),
      fc.record({ kind: fc.constant('percent' as const), percent: fc.integer({ min: 1, max: 10_000 }) }),
      fc
        .tuple(fc.integer({ min: 2, max: 4 }), fc.integer({ min: 1, max: 3 }))
        .map(([buy, pay]) => ({ kind: 'multibuy' as const, buy, pay })),
      fc.record({ kind: fc.constant('nth' as const), nth: fc.integer({ min: 2, max: 3 }), percent: fc.constant(50) }),
    ),
    minQuantity: fc.option(fc.constantFrom(1, 2, 3), { nil: null }),
    window: windowFields,
  })
  .map((p) => ({
    name: p.name,
    priority: p.priority,
    ...(p.target.length === 1 ? { code: p.target } : { group: p.target }),
    kind: p.deal.kind,
    ...('price' in p.deal ? { price: p.deal.price / 100 } : {}),
    ...('percent' in p.deal ? { percent: p.deal.percent / 100 } : {}),
    ...('buy' in p.deal ? { buy: p.deal.buy, pay: p.deal.pay } : {}),
    ...('nth' in p.deal ? { nth: p.deal.nth } : {}),
    minQuantity: p.minQuantity,
    ...p.window,
  }));

const minutes = (t: string | null | undefined): number | null => {
  if (!t) return null;
  const [h, m] = t.split(':').map(Number) as [number, number];
  return h * 60 + m;
};
const windowOf = (w: {
  fromDay?: string | null | undefined;
  toDay?: string | null | undefined;
  weekdays?: number[] | undefined;
  fromTime?: string | null | undefined;
  toTime?: string | null | undefined;
}): TimeWindow => ({
  fromDay: w.fromDay ?? null,
  toDay: w.toDay ?? null,
  weekdays: w.weekdays ?? [],
  fromMinute: minutes(w.fromTime),
  toMinute: minutes(w.toTime),
});
const bp = (percent: number | null | undefined): number => Math.round((percent ?? 0) * 100);

/** The engine's promotion deal, read from what the manager typed. */
function dealOf(p: PromotionInput): PromotionDeal {
  if (p.kind === 'price') return { kind: 'price', pricePara: toPara(p.price ?? 0) ?? 0 };
  if (p.kind === 'percent') return { kind: 'percent', percentOffBp: bp(p.percent) };
  if (p.kind === 'multibuy') return { kind: 'multibuy', buy: p.buy ?? 0, pay: p.pay ?? 0 };
  return { kind: 'nth', nth: p.nth ?? 0, percentOffBp: bp(p.percent) };
}

/** The rules `put` saved (one it refuses at a field is not in force), each as the engine reads it. */
function saved<I, R>(inputs: I[], put: (input: I) => { id: number }, rule: (input: I, id: number) => R): R[] {
  return inputs.flatMap((input) => {
    try {
      return [rule(input, put(input).id)];
    } catch {
      return [];
    }
  });
}

describe('the price a till charges', () => {
  it('is the rules in force at that moment for that buyer, and its fiscal items multiply out', () => {
    // One till's database for every run: each run's rules are deleted through the service after it.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-charges-'));
    dirs.push(dir);
    let at = FROM;
    const db = openDatabase(path.join(dir, 'kasa.sqlite'));
    const catalog = createCatalogService(db, () => new Date(at));
    for (const p of PRODUCTS)
      catalog.put(
        {
          code: p.code,
          name: `Артикал ${p.code}`,
          pricePara: p.pricePara,
          label: 'A',
          unit: 'piece',
          group: p.group,
          favourite: false,
          barcodes: [],
        },
        'catalog',
      );
    const prices = createPricesService(db, catalog, { audit: () => {}, now: () => at });
    fc.assert(
      fc.property(
        fc.array(listInput, { maxLength: 4 }),
        fc.array(promotionInput, { maxLength: 5 }),
        fc.integer({ min: 0, max: SPAN }),
        fc.array(
          fc.record({ code: fc.constantFrom('A', 'B', 'C', 'D'), quantity: fc.integer({ min: 1, max: 5_000 }) }),
          { minLength: 1, maxLength: 5 },
        ),
        fc.constantFrom(null, ...PIBS),
        (listsIn, promotionsIn, offset, cart, pib) => {
          at = FROM + offset;
          try {
            // What the service refuses is not saved; what it saves is what the till must charge by.
            const lists = saved(listsIn, prices.putList, (l, id): PriceList => ({
              id,
              name: l.name,
              priority: l.priority,
              scope: l.scope === 'buyer' ? { kind: 'buyer', pib: l.buyerPib ?? '' } : { kind: l.scope },
              window: windowOf(l),
              items: l.items.map((i) => ({ code: i.code, pricePara: toPara(i.price) ?? 0 })),
              rule: l.rulePercent ? { group: l.ruleGroup ?? null, percentOffBp: bp(l.rulePercent) } : null,
            }));
            const promotions = saved(promotionsIn, prices.putPromotion, (p, id): Promotion => ({
              id,
              name: p.name,
              priority: p.priority,
              target: p.code ? { code: p.code } : { group: p.group ?? '' },
              window: windowOf(p),
              deal: dealOf(p),
              minQtyMilli: p.minQuantity ? (toMilli(p.minQuantity) ?? null) : null,
            }));
            const expected = priceCart(
              buildPriceIndex(lists, promotions),
              cart.map((l) => {
                const p = PRODUCTS.find((x) => x.code === l.code) as (typeof PRODUCTS)[number];
                return { code: p.code, group: p.group, regularPara: p.pricePara, quantityMilli: l.quantity };
              }),
              { at, buyerPib: pib },
            );
            const buyer = pib ? { buyerId: `10:${pib}` } : {};
            const quoted = prices.quote({
              lines: cart.map((l) => ({ code: l.code, quantity: l.quantity / 1000 })),
              ...buyer,
            });
            expect(quoted.map((q) => [q.totalPara, q.discountPara, q.rule?.name ?? null])).toEqual(
              expected.map((e) => [e.totalPara, e.discountPara, e.rule?.name ?? null]),
            );
            const rules = prices.checkoutRules(
              {
                lines: cart.map((l) => ({
                  productId: quoted.find((q) => q.code === l.code)?.productId,
                  unitPrice: (PRODUCTS.find((x) => x.code === l.code)?.pricePara ?? 0) / 100,
                  quantity: l.quantity / 1000,
                })),
                ...buyer,
              },
              at,
            );
            expect(rules).toEqual(
              expected.map((e) =>
                e.rule && e.discountPara > 0
                  ? { name: e.rule.name, kind: e.rule.kind, discountPara: e.discountPara }
                  : null,
              ),
            );
            expected.forEach((e, i) => {
              const items = lineItems({
                name: `Артикал ${cart[i]?.code}`,
                quantityMilli: cart[i]?.quantity ?? 0,
                unitPricePara: e.regularPara,
                discountPara: e.discountPara,
                totalPara: e.totalPara,
                labels: ['А'],
                ...(e.rule ? { priceRule: e.rule.name } : {}),
              });
              let sum = 0;
              for (const item of items) {
                const total = toPara(item.totalAmount) as number;
                expect(itemAmount(toMilli(item.quantity) as number, toPara(item.unitPrice) as number)).toBe(total);
                sum += total;
              }
              expect(sum).toBe(e.totalPara);
            });
          } finally {
            for (const l of prices.overview().lists) prices.deleteList(l.id);
            for (const p of prices.overview().promotions) prices.deletePromotion(p.id);
          }
        },
      ),
      { numRuns: 200 },
    );
    db.close();
  }, 120_000);
});
