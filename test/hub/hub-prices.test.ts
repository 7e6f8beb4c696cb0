/**
 * Price lists, promotions and scheduled price changes from the store hub (issue 42, docs/prices.md "At the hub"),
 * over real HTTP to a hub on each backend, with two real tills (whole cores on SQLite files, the sandbox gateway):
 * bad input refused at its field with nothing stored; a promotion and a chain's list made at the hub price the same
 * sale the same on both tills, and so with the hub away; a till's own edit of the hub's prices refused in words;
 * a scheduled change applied by both tills at its moment while they cannot reach the hub; the report by promotion
 * adds up to the turnover, in JSON and CSV.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ProductView } from '../../shared/contract/catalog.ts';
import type { HubStatusView } from '../../shared/contract/hub.ts';
import type { PricedLineView, PricesOverview } from '../../shared/contract/prices.ts';
import type { CheckoutResult } from '../../shared/contract/index.ts';
import { isHubFile } from '../../shared/hub/client.ts';
import type { HubReport } from '../../shared/hub/contract/results.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { BACKENDS } from './backends.ts';
import { enrol, pricesApi, refused, seedChain, storedPrices, until } from './prices-support.ts';
import { serveHub } from './served-hub.ts';
import { closeCores, fails, MANAGER_PIN, ok, startCore } from '../support/session.ts';

const TOKEN = 'kasa-test-admin-token-prices-0123456789';
type Core = Awaited<ReturnType<typeof startCore>>;

const day = (offsetDays: number): string => dayIn(new Date(Date.now() + offsetDays * 86_400_000), 'Europe/Belgrade');

for (const backend of BACKENDS) {
  describe(`prices from the hub on ${backend.name}`, () => {
    let shopId = 0;
    let a: Core;
    let b: Core;
    const hub = serveHub(backend, {
      adminToken: TOKEN,
      seed: async (service) => {
        shopId = (await seedChain(service)).centre;
      },
    });
    afterAll(closeCores);
    const api = () => pricesApi(hub);
    const stored = () => storedPrices(hub);
    const quote = async (c: Core, lines: { code: string; quantity: number }[]) =>
      (await ok<PricedLineView[]>(c, 'prices.quote', { lines })).map((l) => [
        l.code,
        l.regularPara,
        l.unitPara,
        l.totalPara,
        l.rule?.name ?? null,
      ]);
    const CART = [
      { code: 'HL', quantity: 3 },
      { code: 'SK', quantity: 1 },
      { code: 'VO', quantity: 2 },
    ];

    it('bad input is refused at its field, nothing stored', async () => {
      const promo = {
        shopId,
        where: 'shop' as const,
        name: 'Викенд акција',
        priority: 1,
        code: 'HL',
        kind: 'price' as const,
        price: 90,
        fromDay: day(-1),
        toDay: day(1),
      };
      const cases: [unknown, string][] = [
        [{ ...promo, fromDay: day(1), toDay: day(-1) }, 'toDay'],
        [{ ...promo, code: 'NEMA' }, 'code'],
        [{ ...promo, price: 150 }, 'price'],
        [{ ...promo, kind: 'multibuy', price: null, buy: 2, pay: 2 }, 'pay'],
        [{ ...promo, where: 'svuda' }, 'where'],
      ];
      for (const [input, field] of cases) {
        const r = await refused(api().call('pricesPromotionPut', input as never));
        expect([r.status, r.field]).toEqual([400, field]);
      }
      const list = { shopId, where: 'shop' as const, name: 'Фирма', priority: 1, scope: 'buyer' as const, items: [] };
      expect((await refused(api().call('pricesListPut', { ...list, buyerPib: '123', rulePercent: 5 }))).field).toBe(
        'buyerPib',
      );
      expect((await refused(api().call('pricesListPut', { ...list, scope: 'shop' }))).field).toBe('items');
      const past = await refused(
        api().call('pricesSchedule', {
          shopId,
          code: 'HL',
          price: 110,
          at: new Date(Date.now() - 60_000).toISOString(),
        }),
      );
      expect([past.status, past.field]).toEqual([400, 'at']);
      expect(await stored()).toBe(0);
      // A promotion beside another on the same product with the same priority, in an overlapping period.
      await api().call('pricesPromotionPut', promo);
      const clash = await refused(api().call('pricesPromotionPut', { ...promo, name: 'Друга', price: 80 }));
      expect([clash.status, clash.code, clash.field]).toEqual([400, 'prices_promotion_overlap', 'priority']);
      // The refusal names the other promotion, so the hub UI can say which one (it showed „…“).
      expect(clash.params).toEqual({ other: promo.name });
      expect(await stored()).toBe(1);
    });

    it('a promotion and a chain list set at the hub price the same sale the same on both tills, offline too', async () => {
      await api().call('pricesListPut', {
        shopId,
        where: 'chain',
        name: 'Пиће −10 %',
        priority: 1,
        scope: 'shop',
        items: [],
        ruleGroup: 'Пиће',
        rulePercent: 10,
      });
      a = await startCore({ env: { KASA_LANG: 'sr-Cyrl', KASA_TERMINAL_ID: 'PRC-A' } });
      b = await startCore({ env: { KASA_LANG: 'sr-Cyrl', KASA_TERMINAL_ID: 'PRC-B' } });
      await enrol(a, hub.service, hub.url, shopId);
      await enrol(b, hub.service, hub.url, shopId);
      const expected = [
        ['HL', 120_00, 90_00, 270_00, 'Викенд акција'],
        ['SK', 200_00, 180_00, 180_00, 'Пиће −10 %'],
        ['VO', 50_00, 50_00, 100_00, null],
      ];
      // Until the pull brought the products and the rules (a product not there yet is refused by the quote).
      for (const c of [a, b])
        await until(async () => JSON.stringify(await quote(c, CART).catch(() => null)) === JSON.stringify(expected));

      // The hub owns the prices now: a till's own edit is refused in words, nothing changes.
      const own = await fails(a, 'prices.promotionPut', {
        managerPin: MANAGER_PIN,
        name: 'Касина',
        priority: 9,
        code: 'VO',
        kind: 'percent',
        percent: 5,
        fromDay: day(0),
        toDay: day(0),
      });
      expect(own.code).toBe('forbidden');
      expect(own.message).toContain('хаб');
      expect(await quote(a, CART)).toEqual(expected);
      // The till's Цене tab marks them as the hub's (its source column, read-only there).
      const seen = await ok<PricesOverview>(a, 'prices.overview', {});
      expect([...seen.lists, ...seen.promotions].map((r) => [r.name, r.fromHub])).toEqual(
        expect.arrayContaining([
          ['Пиће −10 %', true],
          ['Викенд акција', true],
        ]),
      );
      expect([...seen.lists, ...seen.promotions].every((r) => r.fromHub)).toBe(true);

      // The same sale on both tills, priced by the rules (no manager for their discounts).
      for (const c of [a, b]) {
        const id = async (code: string) =>
          ((await ok<ProductView[]>(c, 'catalog.search', { query: code, limit: 1 }))[0] as ProductView).id;
        await ok<CheckoutResult>(c, 'sales.checkout', {
          lines: [
            { name: 'Хлеб', quantity: 3, unitPrice: 120, discount: 90, labels: ['A'], productId: await id('HL') },
            { name: 'Сок', quantity: 1, unitPrice: 200, discount: 20, labels: ['A'], productId: await id('SK') },
            { name: 'Вода', quantity: 2, unitPrice: 50, labels: ['A'], productId: await id('VO') },
          ],
          payments: [{ type: 'cash', amount: 550 }],
        });
      }
      for (const c of [a, b]) await until(async () => (await ok<HubStatusView>(c, 'hub.status')).pending === 0);

      // The report by promotion adds up to the turnover.
      const report = (await api().call('report', { shopId })) as HubReport;
      expect(report.byPromotion).toEqual([
        {
          kind: 'promotion',
          name: 'Викенд акција',
          lines: 2,
          quantityMilli: 6000,
          turnoverPara: 540_00,
          discountPara: 180_00,
        },
        { kind: 'list', name: 'Пиће −10 %', lines: 2, quantityMilli: 2000, turnoverPara: 360_00, discountPara: 40_00 },
        { kind: null, name: null, lines: 2, quantityMilli: 4000, turnoverPara: 200_00, discountPara: 0 },
      ]);
      const sum = report.byPromotion.reduce((s, p) => s + p.turnoverPara, 0);
      expect(sum).toBe(report.total.sales.totalPara - report.total.refunds.totalPara);
      const csv = await api().call('report', { shopId, format: 'csv', lang: 'sr-Cyrl' });
      if (!isHubFile(csv)) throw new Error('no CSV');
      const text = new TextDecoder().decode(csv.bytes);
      expect(text).toContain('"укупно";"Акција";"Викенд акција";2;540,00;');
      expect(text).toContain('"без акције";2;200,00;');
      expect(text).toContain(';6,000;180,00');

      // A scheduled change reaches both tills; then the hub goes away before its moment.
      const at = new Date(Date.now() + 8_000).toISOString();
      await api().call('pricesSchedule', { shopId, code: 'VO', price: 45, at });
      const pending = "SELECT 1 FROM scheduled_prices WHERE hub_id IS NOT NULL AND state = 'pending'";
      for (const c of [a, b]) await until(() => c.db.prepare(pending).get() !== undefined);
      await hub.closeServer();
      expect(Date.now()).toBeLessThan(Date.parse(at));
      // The hub away: both tills still price the cart the same, from what they received.
      for (const c of [a, b]) expect(await quote(c, CART)).toEqual(expected);
      // At its moment each till applies the new price itself, offline.
      for (const c of [a, b])
        await until(async () => (await quote(c, [{ code: 'VO', quantity: 1 }]))[0]?.[1] === 45_00, 400);
      for (const c of [a, b])
        expect(c.db.prepare('SELECT state FROM scheduled_prices WHERE hub_id IS NOT NULL').all()).toEqual([
          { state: 'applied' },
        ]);
    }, 120_000);
  });
}
