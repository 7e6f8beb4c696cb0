/**
 * The hub's price lists by product, the chain's business-buyer lists and the chain's scheduled changes (issue 42,
 * part 5; docs/prices.md "At the hub"), over real HTTP to a hub on each backend with a real till in each of two
 * shops of the chain (whole cores on SQLite files, the sandbox gateway): a list's own prices refused at the row's
 * field with nothing stored, then priced by the till; a buyer's list for the whole chain priced for that buyer in
 * both shops and for no other; a chain's scheduled change applied in both shops at its moment, except where the
 * shop's own change of the product at the same moment wins, at the hub and at the tills, the hub away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PricedLineView } from '../../shared/contract/prices.ts';
import { BACKENDS } from './backends.ts';
import { enrol, pricesApi, refused, seedChain, storedPrices, until } from './prices-support.ts';
import { serveHub } from './served-hub.ts';
import { closeCores, ok, startCore } from '../support/session.ts';

const TOKEN = 'kasa-test-admin-token-prices-chain-0123456789';
const PIB = '101134702';
type Core = Awaited<ReturnType<typeof startCore>>;

for (const backend of BACKENDS) {
  describe(`a list's prices, the chain's buyer lists and scheduled changes on ${backend.name}`, () => {
    let centre = 0;
    let other = 0;
    let a: Core;
    let b: Core;
    const hub = serveHub(backend, {
      adminToken: TOKEN,
      seed: async (service) => {
        ({ centre, other } = await seedChain(service, { barcodes: ['8600000000019'] }));
      },
    });
    const api = () => pricesApi(hub);
    const stored = () => storedPrices(hub);
    /** Each line's code, price in force and the rule's name, for the buyer when given. */
    const quote = async (c: Core, codes: string[], buyerPib?: string) =>
      (
        await ok<PricedLineView[]>(c, 'prices.quote', {
          lines: codes.map((code) => ({ code, quantity: 1 })),
          ...(buyerPib ? { buyerId: `10:${buyerPib}` } : {}),
        })
      ).map((l) => [l.code, l.unitPara, l.rule?.name ?? null]);
    const priced = async (c: Core, codes: string[], expected: unknown, buyerPib?: string) =>
      until(async () => JSON.stringify(await quote(c, codes, buyerPib).catch(() => null)) === JSON.stringify(expected));

    beforeAll(async () => {
      a = await startCore({ env: { KASA_LANG: 'sr-Cyrl', KASA_TERMINAL_ID: 'PCH-A' } });
      b = await startCore({ env: { KASA_LANG: 'sr-Cyrl', KASA_TERMINAL_ID: 'PCH-B' } });
      await enrol(a, hub.service, hub.url, centre);
      await enrol(b, hub.service, hub.url, other);
    }, 120_000);
    afterAll(closeCores);

    it("a list's own prices by product: a bad row refused at its field, nothing stored; the till prices by it", async () => {
      const list = {
        shopId: centre,
        where: 'shop' as const,
        name: 'Недељне цене',
        priority: 1,
        scope: 'shop' as const,
      };
      const cases: [unknown, string, string][] = [
        [
          [
            { code: 'HL', price: 99 },
            { code: 'NEMA', price: 10 },
          ],
          'items.1.code',
          'goods_unknown_product',
        ],
        [
          [
            { code: 'HL', price: 99 },
            { code: 'HL', price: 98 },
          ],
          'items.1.code',
          'prices_item_twice',
        ],
      ];
      for (const [items, field, code] of cases) {
        const r = await refused(api().call('pricesListPut', { ...list, items } as never));
        expect([r.status, r.field, r.code]).toEqual([400, field, code]);
      }
      const negative = await refused(
        api().call('pricesListPut', { ...list, items: [{ code: 'HL', price: -1 }] } as never),
      );
      expect([negative.status, negative.field]).toEqual([400, 'items.0.price']);
      expect(await stored()).toBe(0);

      const { id } = await api().call('pricesListPut', {
        ...list,
        items: [
          { code: 'HL', price: 99 },
          // By its barcode (as a CSV import may name it): stored by the product's code.
          { code: '8600000000019', price: 45.5 },
        ],
      });
      await priced(
        a,
        ['HL', 'VO', 'SK'],
        [
          ['HL', 99_00, 'Недељне цене'],
          ['VO', 45_50, 'Недељне цене'],
          ['SK', 200_00, null],
        ],
      );
      // The shop's list, not the other shop's.
      await priced(b, ['HL'], [['HL', 120_00, null]]);
      const seen = await api().call('prices', { shopId: centre });
      expect(seen.lists[0]?.items.map((i) => i.code)).toEqual(['HL', 'VO']);
      // Changed at the hub (a row removed, a price changed): the till follows.
      await api().call('pricesListPut', { ...list, id, items: [{ code: 'VO', price: 40 }] });
      await priced(
        a,
        ['HL', 'VO'],
        [
          ['HL', 120_00, null],
          ['VO', 40_00, 'Недељне цене'],
        ],
      );
      await api().call('pricesDelete', { shopId: centre, id });
    }, 120_000);

    it("a business buyer's list for the whole chain: both shops' tills price that buyer by it, nobody else", async () => {
      await api().call('pricesListPut', {
        shopId: centre,
        where: 'chain',
        name: 'Фирма доо',
        priority: 1,
        scope: 'buyer',
        buyerPib: PIB,
        items: [{ code: 'SK', price: 170 }],
        rulePercent: 5,
      });
      for (const c of [a, b]) {
        await priced(
          c,
          ['SK', 'HL'],
          [
            ['SK', 170_00, 'Фирма доо'],
            ['HL', 114_00, 'Фирма доо'],
          ],
          PIB,
        );
        expect(await quote(c, ['SK'])).toEqual([['SK', 200_00, null]]);
        expect(await quote(c, ['SK'], '100000008')).toEqual([['SK', 200_00, null]]);
      }
    }, 120_000);

    it("a chain's scheduled change in every shop at its moment; a shop's own at the same moment wins there", async () => {
      const at = new Date(Date.now() + 10_000).toISOString();
      // The chain's first, then the centre's own: the centre's tills get the chain's again, as skipped there.
      await api().call('pricesSchedule', { shopId: centre, where: 'chain', code: 'VO', price: 55, at });
      await api().call('pricesSchedule', { shopId: centre, code: 'VO', price: 48, at });
      const states = (c: Core) =>
        c.db
          .prepare<[], { price_para: number; state: string }>(
            'SELECT price_para, state FROM scheduled_prices WHERE hub_id IS NOT NULL ORDER BY price_para',
          )
          .all();
      await until(
        () =>
          JSON.stringify(states(a)) ===
          JSON.stringify([
            { price_para: 48_00, state: 'pending' },
            { price_para: 55_00, state: 'skipped' },
          ]),
      );
      await until(() => JSON.stringify(states(b)) === JSON.stringify([{ price_para: 55_00, state: 'pending' }]));
      // Seen at the hub as the shop sees it.
      const seen = await api().call('prices', { shopId: centre });
      expect(seen.scheduled.map((s) => [s.where, s.pricePara, s.state])).toEqual([
        ['chain', 55_00, 'skipped'],
        ['shop', 48_00, 'pending'],
      ]);
      await hub.closeServer();
      expect(Date.now()).toBeLessThan(Date.parse(at));
      // The hub away: at the moment each till applies what wins in its shop.
      await priced(a, ['VO'], [['VO', 48_00, null]]);
      await priced(b, ['VO'], [['VO', 55_00, null]]);
      expect(states(b)).toEqual([{ price_para: 55_00, state: 'applied' }]);
      // The hub, asked after the moment, sets the same prices in its catalog.
      await hub.service.applyDuePrices();
      const prices = await hub.db.query<{ shop_id: number; price_para: number }>(
        "SELECT shop_id, price_para FROM products WHERE code = 'VO' ORDER BY shop_id",
      );
      expect(prices.map((p) => [Number(p.shop_id), Number(p.price_para)])).toEqual([
        [centre, 48_00],
        [other, 55_00],
      ]);
    }, 120_000);
  });
}
