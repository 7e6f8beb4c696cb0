/**
 * The pricing engine (shared/prices/engine.ts) over random catalogs, rules, moments and carts (fast-check):
 * - the rule that prices each line is the one a plain reading of the rules gives (every rule looked at, no index):
 *   the applicable rule of highest priority, a promotion before a list, the product before its group, the lower id;
 * - a line never costs more than at its regular price, and its discount is exactly what it saves;
 * - the price does not depend on the till: the rules built in another order, the cart's lines in another order,
 *   give the same prices (the cart's total, and every line not in a multi-buy);
 * - every line, priced so, goes out as fiscal items that multiply out (shared/receipt-items.ts), sum to its total
 *   and name the rule and the regular price they replace.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildPriceIndex,
  priceCart,
  shopMoment,
  windowHolds,
  type PriceLineInput,
  type PriceList,
  type Promotion,
  type TimeWindow,
} from '../../shared/prices/engine.ts';
import { itemAmount, lineItems } from '../../shared/receipt-items.ts';
import { lineTotal, toMilli, toPara } from '../../shared/money.ts';
import type { OrderLine } from '../../shared/domain.ts';

const CODES = ['A', 'B', 'C', 'D', 'E'];
const GROUPS = ['Пиће', 'Хлеб'];
const PIBS = ['101134702', '100002288'];
// Five days around a change of daylight-saving time (Europe/Belgrade: 2026-10-25).
const FROM = Date.parse('2026-10-23T00:00:00Z');
const TO = Date.parse('2026-10-28T00:00:00Z');
const DAYS = ['2026-10-22', '2026-10-23', '2026-10-24', '2026-10-25', '2026-10-26', '2026-10-27', '2026-10-28'];

const window: fc.Arbitrary<TimeWindow> = fc
  .record({
    a: fc.option(fc.constantFrom(...DAYS), { nil: null }),
    b: fc.option(fc.constantFrom(...DAYS), { nil: null }),
    weekdays: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 4 }), { nil: null }),
    hours: fc.option(fc.tuple(fc.integer({ min: 0, max: 47 }), fc.integer({ min: 0, max: 47 })), { nil: null }),
  })
  .map(({ a, b, weekdays, hours }) => {
    const [fromDay, toDay] = a && b && b < a ? [b, a] : [a, b];
    const [f, t] = hours ?? [null, null];
    return {
      fromDay,
      toDay,
      weekdays,
      fromMinute: f === null ? null : f * 30,
      toMinute: t === null || t === f ? null : t * 30,
    };
  });

const percent = fc.integer({ min: 1, max: 10_000 });
const price = fc.integer({ min: 0, max: 500_000 });
const priority = fc.integer({ min: 0, max: 3 });

/** Up to `n` rules of one kind (lists or promotions), numbered from 1: the id that breaks a tie of priorities. */
function numbered<T>(rule: fc.Arbitrary<T>, n: number): fc.Arbitrary<(T & { id: number })[]> {
  return fc.array(rule, { maxLength: n }).map((rs) => rs.map((r, i) => ({ ...r, id: i + 1 })));
}

function lists(n: number): fc.Arbitrary<PriceList[]> {
  return numbered(
    fc.record({
      name: fc.constantFrom('Велепродаја', 'Срећни сат', 'Ланац'),
      priority,
      scope: fc.oneof(
        fc.constant({ kind: 'shop' as const }),
        fc.constant({ kind: 'chain' as const }),
        fc.constantFrom(...PIBS).map((pib) => ({ kind: 'buyer' as const, pib })),
      ),
      window,
      items: fc.uniqueArray(fc.record({ code: fc.constantFrom(...CODES), pricePara: price }), {
        selector: (i) => i.code,
        maxLength: 3,
      }),
      rule: fc.option(
        fc.record({ group: fc.option(fc.constantFrom(...GROUPS), { nil: null }), percentOffBp: percent }),
        { nil: null },
      ),
    }),
    n,
  );
}

function promotions(n: number): fc.Arbitrary<Promotion[]> {
  return numbered(
    fc.record({
      name: fc.constantFrom('Викенд акција', 'Три за два', 'Други упола'),
      priority,
      target: fc.oneof(
        fc.constantFrom(...CODES).map((code) => ({ code })),
        fc.constantFrom(...GROUPS).map((group) => ({ group })),
      ),
      window,
      deal: fc.oneof(
        price.map((pricePara) => ({ kind: 'price' as const, pricePara })),
        percent.map((percentOffBp) => ({ kind: 'percent' as const, percentOffBp })),
        fc
          .tuple(fc.integer({ min: 2, max: 4 }), fc.integer({ min: 1, max: 3 }))
          .filter(([buy, pay]) => pay < buy)
          .map(([buy, pay]) => ({ kind: 'multibuy' as const, buy, pay })),
        fc.tuple(fc.integer({ min: 2, max: 3 }), percent).map(([nth, p]) => ({
          kind: 'nth' as const,
          nth,
          percentOffBp: p,
        })),
      ),
      minQtyMilli: fc.option(
        fc.integer({ min: 1, max: 4 }).map((q) => q * 1000),
        { nil: null },
      ),
    }),
    n,
  );
}

const catalog = fc.record(
  Object.fromEntries(
    CODES.map((c) => [
      c,
      fc.record({
        regularPara: fc.integer({ min: 1, max: 500_000 }),
        group: fc.option(fc.constantFrom(...GROUPS), { nil: null }),
      }),
    ]),
  ) as Record<string, fc.Arbitrary<{ regularPara: number; group: string | null }>>,
);

const cartOf = fc.array(
  fc.record({
    code: fc.constantFrom(...CODES),
    quantityMilli: fc.oneof(
      fc.integer({ min: 1, max: 6 }).map((q) => q * 1000),
      fc.integer({ min: 1, max: 5_000 }),
    ),
  }),
  { minLength: 1, maxLength: 8 },
);

const scenario = fc.record({
  lists: lists(6),
  promotions: promotions(8),
  catalog,
  cart: cartOf,
  at: fc.integer({ min: FROM, max: TO }),
  buyerPib: fc.option(fc.constantFrom(...PIBS), { nil: null }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

function linesOf(s: Scenario): PriceLineInput[] {
  return s.cart.map((l) => {
    const p = s.catalog[l.code] as { regularPara: number; group: string | null };
    return { code: l.code, group: p.group, regularPara: p.regularPara, quantityMilli: l.quantityMilli };
  });
}

/** The plain reading: every rule looked at, the applicable one that comes first by precedence. */
function plainWinner(s: Scenario, line: PriceLineInput): { kind: 'list' | 'promotion'; id: number } | null {
  const m = shopMoment(s.at);
  const qty = (pred: (l: PriceLineInput) => boolean) =>
    linesOf(s)
      .filter(pred)
      .reduce((a, l) => a + l.quantityMilli, 0);
  type C = { kind: 'list' | 'promotion'; id: number; priority: number; reach: number };
  const found: C[] = [];
  for (const l of s.lists) {
    if (!windowHolds(l.window, m)) continue;
    if (l.scope.kind === 'buyer' && l.scope.pib !== s.buyerPib) continue;
    const reaches: number[] = [];
    if (l.items.some((i) => i.code === line.code)) reaches.push(0);
    if (l.rule && l.rule.group !== null && l.rule.group === line.group) reaches.push(1);
    if (l.rule && l.rule.group === null) reaches.push(2);
    for (const reach of reaches) found.push({ kind: 'list', id: l.id, priority: l.priority, reach });
  }
  for (const p of s.promotions) {
    const onCode = 'code' in p.target && p.target.code === line.code;
    const onGroup = 'group' in p.target && p.target.group === line.group;
    if (!onCode && !onGroup) continue;
    if (!windowHolds(p.window, m)) continue;
    if (p.minQtyMilli !== null) {
      const have = onCode ? qty((l) => l.code === line.code) : qty((l) => l.group === line.group);
      if (have < p.minQtyMilli) continue;
    }
    if ((p.deal.kind === 'multibuy' || p.deal.kind === 'nth') && line.quantityMilli % 1000 !== 0) continue;
    found.push({ kind: 'promotion', id: p.id, priority: p.priority, reach: onCode ? 0 : 1 });
  }
  found.sort(
    (a, b) =>
      b.priority - a.priority ||
      (a.kind === b.kind ? 0 : a.kind === 'promotion' ? -1 : 1) ||
      a.reach - b.reach ||
      a.id - b.id,
  );
  return found[0] ? { kind: found[0].kind, id: found[0].id } : null;
}

const isMultiBuy = (s: Scenario, rule: { kind: string; id: number } | null): boolean => {
  if (rule?.kind !== 'promotion') return false;
  const deal = s.promotions.find((p) => p.id === rule.id)?.deal.kind;
  return deal === 'multibuy' || deal === 'nth';
};

describe('the pricing engine', () => {
  it('charges what the rules in force say, never above the regular price, the same on every till', () => {
    fc.assert(
      fc.property(scenario, fc.infiniteStream(fc.nat()), (s, seeds) => {
        const lines = linesOf(s);
        const ctx = { at: s.at, buyerPib: s.buyerPib };
        const priced = priceCart(buildPriceIndex(s.lists, s.promotions), lines, ctx);
        priced.forEach((p, i) => {
          const line = lines[i] as PriceLineInput;
          const gross = lineTotal(line.regularPara, line.quantityMilli);
          expect(p.regularPara).toBe(line.regularPara);
          expect(p.totalPara).toBeGreaterThanOrEqual(0);
          expect(p.totalPara).toBeLessThanOrEqual(gross);
          expect(p.discountPara).toBe(gross - p.totalPara);
          const plain = plainWinner(s, line);
          // A multi-buy that found no full set gives nothing and names no rule; any other winner is named.
          if (p.rule) expect({ kind: p.rule.kind, id: p.rule.id }).toEqual(plain);
          else if (plain && !isMultiBuy(s, plain)) expect(p.unitPara).toBe(line.regularPara);
        });
        // Another till: the rules received in another order, the lines rung up in another order.
        const it = seeds[Symbol.iterator]();
        const shuffle = <T>(xs: readonly T[]): T[] =>
          xs
            .map((x) => ({ x, k: it.next().value as number }))
            .sort((a, b) => a.k - b.k)
            .map((e) => e.x);
        const order = shuffle(lines.map((_, i) => i));
        const other = priceCart(
          buildPriceIndex(shuffle(s.lists), shuffle(s.promotions)),
          order.map((i) => lines[i] as PriceLineInput),
          ctx,
        );
        const total = (ps: { totalPara: number }[]) => ps.reduce((a, p) => a + p.totalPara, 0);
        expect(total(other)).toBe(total(priced));
        order.forEach((i, k) => {
          const mine = priced[i];
          // Units of a multi-buy at the same price: which line's unit is the free one follows the order rung up.
          if (!mine || isMultiBuy(s, plainWinner(s, lines[i] as PriceLineInput))) return;
          expect(other[k]).toEqual(mine);
        });
      }),
      { numRuns: 600 },
    );
  });

  it('every line it prices goes out as fiscal items that multiply out and name the rule and the old price', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const lines = linesOf(s);
        const priced = priceCart(buildPriceIndex(s.lists, s.promotions), lines, { at: s.at, buyerPib: s.buyerPib });
        priced.forEach((p, i) => {
          const line = lines[i] as PriceLineInput;
          const order: OrderLine = {
            name: `Артикал ${line.code}`,
            quantityMilli: line.quantityMilli,
            unitPricePara: p.regularPara,
            discountPara: p.discountPara,
            totalPara: p.totalPara,
            labels: ['Ђ'],
            ...(p.rule ? { priceRule: p.rule.name } : {}),
          };
          const items = lineItems(order);
          let sum = 0;
          for (const item of items) {
            const q = toMilli(item.quantity) as number;
            const u = toPara(item.unitPrice) as number;
            const t = toPara(item.totalAmount) as number;
            expect(itemAmount(q, u)).toBe(t);
            sum += t;
            if (p.rule && p.discountPara > 0) {
              expect(item.name).toContain(p.rule.name);
              expect(item.name).toContain('стара цена');
            }
          }
          expect(sum).toBe(p.totalPara);
          expect(items.reduce((a, it) => a + (toMilli(it.quantity) as number), 0)).toBe(line.quantityMilli);
        });
      }),
      { numRuns: 600 },
    );
  });
});
