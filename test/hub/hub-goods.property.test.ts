/**
 * The hub's stock book over random sequences (docs/goods.md "At the hub"), on PGlite and a real PostgreSQL: pushed
 * sales and refunds of two tills (each pushed twice, the second time as a later event: a re-push), goods receipts,
 * price changes, write-offs, transfers between two shops and stock-takings (of the whole shop or of a group: a
 * product counted, posted, then posted again). After every step, per shop: quantity = Σ movements,
 * and the KEP balance at the end of the book = Σ round(stock × retail price).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthedTill } from '../../hub/service.ts';
import type { OrderSnapshot } from '../../shared/hub/protocol.ts';
import { BACKENDS } from './backends.ts';
import { enrolTills, openHubService } from './served-hub.ts';
import { orderEvent, saleSnapshot } from './snapshots.ts';

const NOW = Date.UTC(2026, 10, 23, 9, 0, 0);
const CODES = ['P1', 'P2', 'P3'] as const;

type Step =
  | { kind: 'sale' | 'refund'; till: 0 | 1; code: number; qty: number; discount: number }
  | { kind: 'receipt'; shop: 0 | 1; code: number; qty: number; price: number }
  | { kind: 'price'; shop: 0 | 1; code: number; price: number }
  | { kind: 'writeoff'; shop: 0 | 1; code: number; qty: number }
  | { kind: 'transfer'; code: number; qty: number; received: number }
  | { kind: 'count'; shop: 0 | 1; code: number; qty: number; groups: boolean };

const code = fc.integer({ min: 0, max: CODES.length - 1 });
const qty = fc.integer({ min: 1, max: 5000 });
const price = fc.integer({ min: 1, max: 99_999 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('sale' as const, 'refund' as const),
    till: fc.constantFrom(0 as const, 1 as const),
    code,
    qty,
    discount: fc.integer({ min: 0, max: 50 }),
  }),
  fc.record({ kind: fc.constant('receipt' as const), shop: fc.constantFrom(0 as const, 1 as const), code, qty, price }),
  fc.record({ kind: fc.constant('price' as const), shop: fc.constantFrom(0 as const, 1 as const), code, price }),
  fc.record({ kind: fc.constant('writeoff' as const), shop: fc.constantFrom(0 as const, 1 as const), code, qty }),
  fc.record({ kind: fc.constant('transfer' as const), code, qty, received: fc.integer({ min: 0, max: 5000 }) }),
  fc.record({
    kind: fc.constant('count' as const),
    shop: fc.constantFrom(0 as const, 1 as const),
    code,
    qty: fc.integer({ min: 0, max: 9000 }),
    groups: fc.boolean(),
  }),
);

describe.each(BACKENDS)('the hub stock book on $name', (backend) => {
  let shops: number[] = [];
  let tills: AuthedTill[] = [];
  const seqs = new Map<number, number>();
  const hub = openHubService(backend, {
    service: { now: () => new Date(NOW) },
    seed: async (service) => {
      const a = await service.ensureDefaultShop();
      const b = await service.createShop('Друга продавница');
      shops = [a, b];
      tills = [...(await enrolTills(service, a, ['T1', 'T2']))];
    },
  });

  const putProducts = async (shopId: number, prices: number[]): Promise<void> => {
    await hub.service.upsertProducts(
      shopId,
      CODES.map((c, i) => ({
        code: c,
        name: `Артикал ${c}`,
        pricePara: prices[i] ?? 100,
        label: 'A',
        unit: 'piece',
        group: i === 0 ? 'Пекара' : 'Пиће',
      })),
    );
  };

  async function check(): Promise<void> {
    for (const shopId of shops) {
      const drift = await hub.db.query<{ code: string }>(
        `SELECT s.code FROM hub_stock s LEFT JOIN (SELECT code, sum(qty_milli)::int8 AS q FROM hub_stock_movements
           WHERE shop_id = $1 GROUP BY code) m ON m.code = s.code WHERE s.shop_id = $1 AND s.qty_milli <> coalesce(m.q, 0)`,
        [shopId],
      );
      expect(drift).toEqual([]);
      const kep = await hub.service.kep(shopId, '2000-01-01', '2100-12-31', 'en');
      expect(kep.closingPara).toBe(kep.stockValuePara);
      // From the next day on the book opens with the sum of the days kept (hub_kep_days): the same value.
      const next = await hub.service.kep(shopId, '2026-11-24', '2100-12-31', 'en');
      expect(next.openingPara).toBe(kep.stockValuePara);
      const stock = await hub.service.stock(shopId);
      expect(stock.byShop[0]?.retailValuePara).toBe(kep.stockValuePara);
    }
  }

  it('stock = Σ movements and the KEP balance = Σ stock × retail price after every step', async () => {
    for (const s of shops) await putProducts(s, [10_000, 25_050, 999]);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        for (const st of steps) {
          n++;
          if (st.kind === 'sale' || st.kind === 'refund') {
            const till = tills[st.till] as AuthedTill;
            const c = CODES[st.code] as string;
            const p =
              (
                await hub.db.query<{ price_para: number }>(
                  'SELECT price_para FROM products WHERE shop_id = $1 AND code = $2',
                  [till.shopId, c],
                )
              )[0]?.price_para ?? 0;
            const gross = Math.round((p * st.qty) / 1000);
            const total = Math.max(0, gross - st.discount);
            const base = saleSnapshot(`O-${n}`, `INV-${till.id}-${n}`, {
              at: NOW,
              quantityMilli: st.qty,
              totalPara: total,
              label: 'A',
            });
            const line = base.data.lines[0] as OrderSnapshot['data']['lines'][number];
            const o: OrderSnapshot = {
              ...base,
              kind: st.kind === 'refund' ? 'refund' : 'sale',
              transaction_type: st.kind,
              data: {
                ...base.data,
                // A line of the catalog (its code), and a hand-typed bag outside the book.
                lines: [
                  { ...line, unitPricePara: p, discountPara: gross - total, code: c },
                  { ...line, name: 'Кеса', totalPara: 0, unitPricePara: 0 },
                ],
              },
            };
            const seq = (seqs.get(till.id) ?? 0) + 1;
            seqs.set(till.id, seq + 1);
            // Pushed, then pushed again as a later event (the till's snapshot of the same order): moved once.
            await hub.service.push(till, { tillId: till.id, events: [orderEvent(seq, o)] });
            await hub.service.push(till, { tillId: till.id, events: [orderEvent(seq, o), orderEvent(seq + 1, o)] });
          } else if (st.kind === 'receipt') {
            await hub.service.postReceipt(
              shops[st.shop] as number,
              {
                supplier: 'Добављач',
                pib: '101134702',
                invoiceNumber: `R-${n}`,
                invoiceDate: '2026-11-23',
                lines: [{ code: CODES[st.code] as string, qtyMilli: st.qty, purchasePara: 1, pricePara: st.price }],
              },
              'Менаџер',
            );
          } else if (st.kind === 'price') {
            await hub.service.changePrice(shops[st.shop] as number, CODES[st.code] as string, st.price, 'Менаџер');
          } else if (st.kind === 'writeoff') {
            await hub.service.writeOff(
              shops[st.shop] as number,
              { code: CODES[st.code] as string, qtyMilli: st.qty, reason: 'Лом' },
              'Менаџер',
            );
          } else if (st.kind === 'count') {
            const shopId = shops[st.shop] as number;
            const c = CODES[st.code] as string;
            const count = await hub.service.countStart(
              shopId,
              st.groups ? [st.code === 0 ? 'Пекара' : 'Пиће'] : [],
              'М',
            );
            await hub.service.countEnter(shopId, { countId: count.id, lines: [{ code: c, qtyMilli: st.qty }] }, 'М');
            await hub.service.countPost(shopId, count.id, 'М');
            await hub.service.countPost(shopId, count.id, 'М');
          } else if (st.kind === 'transfer') {
            const t = await hub.service.sendTransfer(
              shops[0] as number,
              { toShopId: shops[1] as number, lines: [{ code: CODES[st.code] as string, qtyMilli: st.qty }] },
              'Менаџер',
            );
            await hub.service.receiveTransfer(
              shops[1] as number,
              { transferId: t.id, received: [{ code: CODES[st.code] as string, qtyMilli: st.received }] },
              'Менаџер',
            );
          }
          await check();
        }
        // Every fiscalized order moved once: one sales row per order, however often it was pushed.
        const sales = await hub.db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM hub_stock_sales');
        const orders = await hub.db.query<{ n: number }>(
          "SELECT count(*)::int8 AS n FROM orders WHERE state = 'fiscalized'",
        );
        expect(sales[0]?.n).toBe(orders[0]?.n);
      }),
      { numRuns: 8 },
    );
    // The stock-takings were among the steps, each posted once although posted twice.
    const counts = await hub.db.query<{ n: number; docs: number }>(
      `SELECT count(*)::int4 AS n, (SELECT count(*)::int4 FROM hub_goods_docs WHERE kind = 'count') AS docs
         FROM hub_stock_counts WHERE state = 'posted'`,
    );
    expect(counts[0]?.n).toBeGreaterThan(0);
    expect(counts[0]?.docs).toBe(counts[0]?.n);
  }, 300_000);
});
