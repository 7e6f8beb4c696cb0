/**
 * The goods ledger's invariant over random sequences (fast-check) on one core with its real SQLite file and the
 * sandbox gateway over HTTP: sales, refunds, goods receipts, price changes (one product or a group), write-offs,
 * fiscal results recorded twice, and stock-takings (started, counted while selling goes on, posted). After every step:
 * - each product's quantity on hand = Σ its movements;
 * - the KEP balance = Σ round(quantity × retail price) over the stock;
 * - each fiscalized sale or refund moved its lines exactly once;
 * - a posted count moved each counted line once, by counted − the book at its entry.
 * And posting is all or nothing: a failure inside the post (its last step, the audit) leaves no number, no movement
 * and the draft as it was; the post then goes through once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import path from 'node:path';
import type { KepView, SupplierView } from '../../shared/contract/goods.ts';
import type { ProductView } from '../../shared/contract/catalog.ts';
import type { OrderView } from '../../shared/domain.ts';
import { OrderStore } from '../../electron/orders/store.ts';
import { recordFiscalized } from '../../electron/goods/ledger.ts';
import { openDatabase } from '../../electron/db/open.ts';
import { createCatalogService } from '../../electron/catalog/service.ts';
import { createGoodsService } from '../../electron/goods/service.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { valueAt } from '../../shared/goods/calc.ts';
import { closeCores, MANAGER_PIN, ok, startCore, tempDir } from '../support/session.ts';
import { postOneLineReceipt } from '../support/model-receipt.ts';

const managerPin = MANAGER_PIN;
const CODES = ['G1', 'G2', 'G3'] as const;
type Core = Awaited<ReturnType<typeof startCore>>;

let c: Core;
let supplier: SupplierView;
const products = new Map<string, ProductView>();
const sales: { orderId: number; line: number; quantity: number }[] = [];
let invoice = 0;
/** Counts posted over the runs: the sequences did exercise stock-taking. */
let countsPosted = 0;

beforeAll(async () => {
  c = await startCore();
  supplier = await ok<SupplierView>(c, 'suppliers.put', { managerPin, name: 'Велепродаја', pib: '101134702' });
  for (const [i, code] of CODES.entries()) {
    const p = await ok<ProductView>(c, 'catalog.put', {
      code,
      create: true,
      name: `Роба ${code}`,
      price: 100 + i * 33.33,
      label: 'A',
      unit: i === 2 ? 'kg' : 'piece',
      group: i < 2 ? 'Група' : null,
      favourite: false,
      barcodes: [],
      approval: { managerPin },
    });
    products.set(code, p);
  }
}, 60_000);
afterAll(closeCores);

const code = fc.constantFrom(...CODES);
const qty = fc.integer({ min: 1, max: 5_000 }).map((m) => m / 1000 + (m % 2 === 0 ? 1 : 0));
const action = fc.oneof(
  fc.record({
    t: fc.constant('sale' as const),
    code,
    quantity: fc.integer({ min: 1, max: 4 }),
    discount: fc.boolean(),
  }),
  fc.record({ t: fc.constant('refund' as const), pick: fc.nat() }),
  fc.record({ t: fc.constant('replay' as const), pick: fc.nat() }),
  fc.record({ t: fc.constant('receipt' as const), code, quantity: qty, price: fc.integer({ min: 50, max: 400 }) }),
  fc.record({ t: fc.constant('price' as const), code, price: fc.integer({ min: 1_000, max: 50_000 }) }),
  fc.record({ t: fc.constant('bulk' as const), percent: fc.constantFrom(-10, 5, 12.5) }),
  fc.record({ t: fc.constant('writeOff' as const), code, quantity: qty }),
  // Stock-taking: a count started (the whole shop or the group), counts entered while selling goes on, posted.
  fc.record({ t: fc.constant('countStart' as const), group: fc.boolean() }),
  fc.record({ t: fc.constant('countEnter' as const), code, quantity: fc.integer({ min: 0, max: 12_000 }) }),
  fc.record({ t: fc.constant('countPost' as const) }),
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

async function apply(a: Action): Promise<void> {
  switch (a.t) {
    case 'sale': {
      const p = products.get(a.code);
      if (!p) return;
      const current = (await ok<ProductView[]>(c, 'catalog.byIds', { ids: [p.id] }))[0];
      if (!current) return;
      const unitPrice = current.pricePara / 100;
      const total = Math.round(current.pricePara * a.quantity) / 100;
      // A discounted line sells below the book's price: the KEP's difference entry keeps it in step.
      const discount = a.discount ? Math.min(1, total) : 0;
      const order = await ok<OrderView>(c, 'sales.checkout', {
        lines: [
          { name: current.name, productId: p.id, quantity: a.quantity, unitPrice, labels: ['A'], discount },
          { name: 'Кеса', quantity: 1, unitPrice: 5, labels: ['A'] },
        ],
        payments: [{ type: 'cash', amount: Math.round((total - discount + 5) * 100) / 100 }],
      });
      expect(order.state).toBe('fiscalized');
      sales.push({ orderId: order.orderId, line: 0, quantity: a.quantity });
      return;
    }
    case 'refund': {
      const s = sales.length ? sales.splice(a.pick % sales.length, 1)[0] : undefined;
      if (!s) return;
      const r = await ok<OrderView>(c, 'refunds.create', {
        managerPin,
        orderId: s.orderId,
        lines: [{ index: s.line, quantity: 1 }],
        buyerId: '20:008123456',
        paymentType: 'cash',
      });
      expect(r.state).toBe('fiscalized');
      return;
    }
    case 'replay': {
      // The fiscal result of a fiscalized sale recorded once more, as a replayed or a second processor's reply.
      const s = sales.length ? sales[a.pick % sales.length] : undefined;
      if (!s) return;
      const store = new OrderStore(c.db, { onFiscalized: recordFiscalized });
      const row = store.get(s.orderId);
      if (!row?.receipt) throw new Error('no receipt');
      c.db.prepare("UPDATE orders SET state = 'queued' WHERE id = ?").run(s.orderId);
      store.markFiscalized(s.orderId, JSON.parse(row.receipt), Date.now());
      return;
    }
    case 'receipt': {
      await postOneLineReceipt(c, supplier.id, `R-${++invoice}`, a);
      return;
    }
    case 'price': {
      const p = products.get(a.code);
      if (!p) return;
      await ok(c, 'catalog.put', {
        code: p.code,
        name: p.name,
        price: a.price / 100,
        label: 'A',
        unit: p.unit,
        group: p.group,
        favourite: false,
        barcodes: [],
        approval: { managerPin },
      });
      return;
    }
    case 'bulk':
      await ok(c, 'catalog.bulkPrice', { group: 'Група', percentBp: a.percent * 100, approval: { managerPin } });
      return;
    case 'writeOff':
      await ok(c, 'goods.writeOff', { managerPin, code: a.code, quantity: a.quantity, reason: 'Оштећено' });
      return;
    case 'countStart': {
      if (openCount()) return;
      await ok(c, 'goods.countStart', { managerPin, ...(a.group ? { groups: ['Група'] } : {}) });
      return;
    }
    case 'countEnter': {
      const id = openCount();
      if (!id) return;
      const inScope = c.db
        .prepare<[number, string], { n: number }>(
          'SELECT count(*) AS n FROM stock_count_lines WHERE count_id = ? AND product_code = ?',
        )
        .get(id, a.code)?.n;
      const r = await c.dispatch('goods.countEnter', { id, lines: [{ code: a.code, quantity: a.quantity / 1000 }] });
      expect(r.ok).toBe(inScope === 1);
      return;
    }
    case 'countPost': {
      const id = openCount();
      if (!id) return;
      await ok(c, 'goods.countPost', { managerPin, id });
      countsPosted++;
      expect((await c.dispatch('goods.countPost', { managerPin, id })).ok).toBe(false);
      return;
    }
  }
}

const openCount = (): number | undefined =>
  c.db.prepare<[], { id: number }>("SELECT id FROM stock_counts WHERE state = 'open'").get()?.id;

function checkInvariant(kep: KepView): void {
  const stock = c.db
    .prepare<[], { code: string; qty: number; price: number; moved: number }>(
      `SELECT s.product_code AS code, s.qty_milli AS qty, s.price_para AS price,
              (SELECT coalesce(sum(m.qty_milli), 0) FROM stock_movements m WHERE m.product_code = s.product_code) AS moved
         FROM stock s`,
    )
    .all();
  for (const s of stock) expect(s.qty, `stock of ${s.code}`).toBe(s.moved);
  const value = stock.reduce((sum, s) => sum + valueAt(s.qty, s.price), 0);
  expect(kep.closingPara).toBe(value);
  // Each fiscalized normal sale or refund moved each of its catalog lines once (the bag is outside the book).
  const twice = c.db
    .prepare<[], { source: string }>(
      "SELECT source FROM stock_movements WHERE kind IN ('sale', 'refund') GROUP BY source, line HAVING count(*) > 1",
    )
    .all();
  expect(twice).toEqual([]);
  // Each posted count moved each counted line once, by what was counted less the book at the line's entry.
  const counted = c.db
    .prepare<[], { diff: number; moved: number | null; n: number }>(
      `SELECT l.counted_milli - l.book_at_entry_milli AS diff,
              (SELECT sum(m.qty_milli) FROM stock_movements m WHERE m.source = 'count:' || l.count_id AND m.line = l.line) AS moved,
              (SELECT count(*) FROM stock_movements m WHERE m.source = 'count:' || l.count_id AND m.line = l.line) AS n
         FROM stock_count_lines l JOIN stock_counts k ON k.id = l.count_id
        WHERE k.state = 'posted' AND l.counted_milli IS NOT NULL`,
    )
    .all();
  for (const l of counted) {
    expect(l.n).toBe(l.diff === 0 ? 0 : 1);
    expect(l.moved ?? 0).toBe(l.diff);
  }
  const fiscalized = c.db
    .prepare<[], { n: number }>(
      `SELECT count(*) AS n FROM orders WHERE state = 'fiscalized' AND invoice_type = 'normal'
         AND transaction_type IN ('sale', 'refund')`,
    )
    .get()?.n;
  expect(c.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM stock_sales').get()?.n).toBe(fiscalized);
  // The catalog's price is the book's price.
  for (const p of products.values()) {
    const catalogPrice = c.db
      .prepare<[string], { price_para: number }>('SELECT price_para FROM products WHERE code = ?')
      .get(p.code)?.price_para;
    const book = stock.find((s) => s.code === p.code);
    if (book) expect(book.price).toBe(catalogPrice);
  }
}

describe('the goods ledger over random sequences', () => {
  it('keeps stock = Σ movements and the KEP balance = Σ stock × retail price at every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 8 }), async (actions) => {
        for (const a of actions) {
          await apply(a);
          checkInvariant(await ok<KepView>(c, 'goods.kep', { from: '2000-01-01', to: dayIn(new Date()) }));
        }
      }),
      { numRuns: 15, seed: 40 },
    );
    expect(countsPosted).toBeGreaterThan(0);
  }, 600_000);
});

describe('posting is all or nothing', () => {
  it('a failure inside the post leaves the draft, no number and no movement; the post then happens once', () => {
    const db = openDatabase(path.join(tempDir('kasa-goods-'), 'kasa.sqlite'));
    try {
      const catalog = createCatalogService(db);
      let failAudit = false;
      const goods = createGoodsService(db, catalog, {
        rateOf: (label) => (label === 'A' ? 10 : undefined),
        labels: () => ['A'],
        language: () => 'sr-Cyrl',
        audit: () => {
          if (failAudit) throw new Error('power cut');
        },
      });
      const sup = goods.putSupplier({ managerPin, name: 'Д', pib: '101134702' }, {
        actor: null,
        approver: null,
      } as never);
      failAudit = true;
      const lines = Array.from({ length: 20 }, (_, i) => ({
        code: `C${i}`,
        name: `Нов ${i}`,
        label: 'A',
        unit: 'piece' as const,
        quantity: 3,
        purchasePrice: 10,
        marginPercent: 20,
      }));
      const draft = goods.saveDraft({
        managerPin,
        supplierId: sup.id,
        invoiceNumber: 'X',
        invoiceDate: '2026-11-28',
        lines,
      });
      const snapshot = (): unknown =>
        ['stock', 'stock_movements', 'goods_numbers', 'products', 'price_changes'].map(
          (t) => db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${t}`).get()?.n,
        );
      const before = snapshot();
      expect(() => goods.post(draft.id, false, undefined)).toThrow('power cut');
      expect(snapshot()).toEqual(before);
      expect(goods.receipt(draft.id).state).toBe('draft');
      failAudit = false;
      const posted = goods.post(draft.id, false, undefined);
      expect(posted.number).toMatch(/^1\//);
      expect(() => goods.post(draft.id, false, undefined)).toThrow();
      expect(db.prepare<[], { n: number }>('SELECT count(*) AS n FROM stock_movements').get()?.n).toBe(20);
    } finally {
      db.close();
    }
  });
});
