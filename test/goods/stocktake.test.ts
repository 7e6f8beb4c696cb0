/**
 * Stock-taking (попис), the setting against selling counted goods below zero, and the reorder list, through a whole
 * core (real SQLite file, the embedded sandbox gateway over HTTP): a count of one group started, a sale during it,
 * counts typed and from a handheld's CSV (bad rows refused naming row and column, nothing saved), posted once into
 * the KEP; a failure inside the post leaves nothing.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CountView, KepView, ReceiptView, ReorderView, SupplierView } from '../../shared/contract/goods.ts';
import type { ProductView } from '../../shared/contract/catalog.ts';
import type { OrderView } from '../../shared/domain.ts';
import { openDatabase } from '../../electron/db/open.ts';
import { createCatalogService } from '../../electron/catalog/service.ts';
import { createStocktake } from '../../electron/goods/stocktake.ts';
import { move } from '../../electron/goods/ledger.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { closeCores, fails, MANAGER_PIN, ok, startCore, tempDir, saveReceipt } from '../support/session.ts';

afterEach(closeCores);

type Core = Awaited<ReturnType<typeof startCore>>;
const managerPin = MANAGER_PIN;
const today = (): string => dayIn(new Date());
const year = (): string => today().slice(0, 4);

const count = (c: Core, table: string): number =>
  c.db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;

async function product(c: Core, code: string, group: string): Promise<ProductView> {
  return ok<ProductView>(c, 'catalog.put', {
    code,
    create: true,
    name: `Артикал ${code}`,
    price: 100,
    label: 'A',
    unit: 'piece',
    group,
    favourite: false,
    barcodes: code === 'P2' ? ['8600000000011'] : [],
    approval: { managerPin },
  });
}

/** Three products (P1, P2 drinks; P3 bread), received: 10, 5 and 4 pieces at 100 RSD; each by its code. */
async function shop(c: Core): Promise<{ supplier: SupplierView; products: Record<'P1' | 'P2' | 'P3', ProductView> }> {
  const supplier = await ok<SupplierView>(c, 'suppliers.put', { managerPin, name: 'Велепродаја', pib: '101134702' });
  const products = {
    P1: await product(c, 'P1', 'Пиће'),
    P2: await product(c, 'P2', 'Пиће'),
    P3: await product(c, 'P3', 'Хлеб'),
  };
  const draft = await saveReceipt(c, {
    supplierId: supplier.id,
    invoiceNumber: 'F-1',
    invoiceDate: today(),
    lines: [
      { code: 'P1', quantity: 10, purchasePrice: 50, retailPrice: 100 },
      { code: 'P2', quantity: 5, purchasePrice: 50, retailPrice: 100 },
      { code: 'P3', quantity: 4, purchasePrice: 50, retailPrice: 100 },
    ],
  });
  await ok(c, 'goods.receiptPost', { managerPin, id: draft.id });
  return { supplier, products };
}

async function sell(c: Core, p: ProductView, quantity: number): Promise<OrderView> {
  return ok<OrderView>(c, 'sales.checkout', {
    lines: [{ name: p.name, productId: p.id, quantity, unitPrice: 100, labels: ['A'] }],
    payments: [{ type: 'cash', amount: 100 * quantity }],
  });
}

async function kepNow(c: Core): Promise<KepView> {
  const kep = await ok<KepView>(c, 'goods.kep', { from: '2000-01-01', to: today() });
  expect(kep.closingPara).toBe(kep.stockValuePara);
  return kep;
}

/** A till with the shop's goods and a count of the drinks (Пиће) just started. */
async function countingDrinks() {
  const c = await startCore();
  const { products } = await shop(c);
  const started = await ok<CountView>(c, 'goods.countStart', { managerPin, groups: ['Пиће'] });
  return { c, products, started };
}

const onHand = (c: Core, code: string): number | undefined =>
  c.db.prepare<[string], { q: number }>('SELECT qty_milli AS q FROM stock WHERE product_code = ?').get(code)?.q;

describe('a stock-taking of one group', () => {
  it('freezes the book, accounts for a sale during it, takes typed and CSV counts, posts once into the KEP', async () => {
    const { c, products, started } = await countingDrinks();
    const { P1: p1, P2: p2 } = products;
    expect(started.number).toBe(`1/${year()}`);
    expect(started.lines.map((l) => [l.code, l.bookMilli])).toEqual([
      ['P1', 10_000],
      ['P2', 5_000],
    ]);
    expect(await fails(c, 'goods.countStart', { managerPin })).toMatchObject({ code: 'conflict' });

    // Selling goes on: 3 of P1 leave after the start; the shelf then holds 7 and 6 are found.
    await sell(c, p1, 3);
    let view = await ok<CountView>(c, 'goods.countEnter', { id: started.id, lines: [{ code: 'P1', quantity: 6 }] });
    const l1 = view.lines.find((l) => l.code === 'P1');
    expect(l1).toMatchObject({
      bookMilli: 10_000,
      bookAtEntryMilli: 7_000,
      countedMilli: 6_000,
      differenceMilli: -1_000,
    });
    expect(l1?.retailDiffPara).toBe(-10_000);
    expect(l1?.purchaseDiffPara).toBe(-5_000);

    // Bad input at its field, nothing saved: an unknown code, a product outside the count, a negative count, a CSV
    // with a bad row (the row and the column named), a CSV naming a product of another group.
    expect(
      await fails(c, 'goods.countEnter', {
        id: started.id,
        lines: [
          { code: 'P2', quantity: 1 },
          { code: 'NEMA', quantity: 1 },
        ],
      }),
    ).toMatchObject({ code: 'invalid_input', field: 'lines.1.code' });
    expect(await fails(c, 'goods.countEnter', { id: started.id, lines: [{ code: 'P3', quantity: 1 }] })).toMatchObject({
      field: 'lines.0.code',
    });
    expect(await fails(c, 'goods.countEnter', { id: started.id, lines: [{ code: 'P2', quantity: -1 }] })).toMatchObject(
      {
        field: 'lines.0.quantity',
      },
    );
    const badRow = await fails(c, 'goods.countImport', { id: started.id, csv: 'šifra;količina\r\nP2;4\r\nP1;abc\r\n' });
    expect(badRow).toMatchObject({ code: 'invalid_input', field: 'csv' });
    expect(badRow.message).toContain('ред 3, колона 2');
    const outside = await fails(c, 'goods.countImport', { id: started.id, csv: 'P2;4\nP3;1\n' });
    expect(outside.message).toContain('P3');
    expect(outside.message).toContain('ред 2');
    view = await ok<CountView>(c, 'goods.count', { id: started.id });
    expect(view.lines.find((l) => l.code === 'P2')?.countedMilli).toBeNull();
    expect(view.lines.find((l) => l.code === 'P1')?.countedMilli).toBe(6_000);

    // The handheld's CSV: P2 by its barcode, twice (added up): 4 + 2 = 6 found of 5 in the book.
    view = await ok<CountView>(c, 'goods.countImport', {
      id: started.id,
      csv: 'šifra;količina\n8600000000011;4\nP2;2\n',
    });
    expect(view.lines.find((l) => l.code === 'P2')).toMatchObject({ countedMilli: 6_000, differenceMilli: 1_000 });
    expect(view.totals).toMatchObject({ surplusRetailPara: 10_000, shortageRetailPara: 10_000 });

    // A sale after the entry stays on top of the count.
    await sell(c, p2, 1);
    const movementsBefore = count(c, 'stock_movements');
    const posted = await ok<CountView>(c, 'goods.countPost', { managerPin, id: started.id });
    expect(posted.state).toBe('posted');
    expect(onHand(c, 'P1')).toBe(6_000);
    expect(onHand(c, 'P2')).toBe(5_000);
    expect(onHand(c, 'P3')).toBe(4_000);
    expect(count(c, 'stock_movements')).toBe(movementsBefore + 2);

    // Exactly once: a second post and a late entry are refused and move nothing.
    expect(await fails(c, 'goods.countPost', { managerPin, id: started.id })).toMatchObject({ code: 'conflict' });
    expect(await fails(c, 'goods.countEnter', { id: started.id, lines: [{ code: 'P1', quantity: 1 }] })).toMatchObject({
      code: 'conflict',
    });
    expect(count(c, 'stock_movements')).toBe(movementsBefore + 2);

    const kep = await kepNow(c);
    const rows = kep.entries.filter((e) => e.description.startsWith('Попис'));
    expect(rows.map((e) => [e.description, e.debitPara, e.creditPara])).toEqual([
      [`Попис бр. 1/${year()}: вишак`, 10_000, 0],
      [`Попис бр. 1/${year()}: мањак`, 0, 10_000],
    ]);
    const audit = c.db
      .prepare<[], { action: string }>("SELECT action FROM audit_log WHERE action LIKE 'goods.count%' ORDER BY id")
      .all()
      .map((a) => a.action);
    expect(audit).toEqual(['goods.countStart', 'goods.countPost']);
  });

  it('a cashier cannot start or post a count: the manager PIN is checked in the core', async () => {
    const c = await startCore();
    await shop(c);
    expect(await c.dispatch('goods.countStart', { managerPin: '000000' })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(count(c, 'stock_counts')).toBe(0);
  });
});

describe('selling counted goods below zero', () => {
  it('is flagged by default and refused at the line when the shop forbids it; goods never counted still sell', async () => {
    const { c, products, started } = await countingDrinks();
    const { P1: p1, P3: p3 } = products;
    await ok(c, 'goods.countEnter', { id: started.id, lines: [{ code: 'P1', quantity: 2 }] });
    await ok(c, 'goods.countPost', { managerPin, id: started.id });
    expect(onHand(c, 'P1')).toBe(2_000);

    await ok(c, 'settings.update', { managerPin, noNegativeCounted: true });
    const ordersBefore = count(c, 'orders');
    const refused = await fails(c, 'sales.checkout', {
      lines: [{ name: p1.name, productId: p1.id, quantity: 3, unitPrice: 100, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 300 }],
    });
    expect(refused).toMatchObject({ code: 'invalid_input', field: 'lines.0.quantity' });
    expect(refused.message).toContain('пописан');
    expect(count(c, 'orders')).toBe(ordersBefore);
    // P3 was never counted: selling it below zero is allowed (and flagged on the stock list).
    expect((await sell(c, p3, 5)).state).toBe('fiscalized');
    expect(onHand(c, 'P3')).toBe(-1_000);
    // Within what is on hand, counted goods sell.
    expect((await sell(c, p1, 2)).state).toBe('fiscalized');

    await ok(c, 'settings.update', { managerPin, noNegativeCounted: false });
    expect((await sell(c, p1, 1)).state).toBe('fiscalized');
    expect(onHand(c, 'P1')).toBe(-1_000);
  });
});

describe('the reorder list', () => {
  it('lists what is below its minimum under its last supplier, as CSV too', async () => {
    const c = await startCore();
    const { supplier } = await shop(c);
    await ok(c, 'goods.minimumSet', { managerPin, code: 'P3', minimum: 10 });
    await ok(c, 'goods.minimumSet', { managerPin, code: 'P1', minimum: 2 });
    expect(await fails(c, 'goods.minimumSet', { managerPin, code: 'NEMA', minimum: 2 })).toMatchObject({
      field: 'code',
    });
    const view = await ok<ReorderView>(c, 'goods.reorder', { csv: true });
    expect(view.suppliers).toHaveLength(1);
    expect(view.suppliers[0]?.supplier?.id).toBe(supplier.id);
    expect(view.suppliers[0]?.items.map((i) => [i.code, i.onHandMilli, i.orderMilli])).toEqual([['P3', 4_000, 6_000]]);
    expect(view.csv?.split('\r\n')[1]).toBe('Велепродаја;101134702;P3;Артикал P3;4;10;6;50,00');
  });
});

describe('posting a count is all or nothing', () => {
  it('a failure inside the post (its audit, the last step) moves nothing and leaves the count open', () => {
    const db = openDatabase(path.join(tempDir('kasa-count-'), 'kasa.sqlite'));
    try {
      createCatalogService(db);
      let failAudit = false;
      const counts = createStocktake(db, {
        language: () => 'sr-Cyrl',
        audit: () => {
          if (failAudit) throw new Error('power cut');
        },
      });
      const at = new Date().toISOString();
      for (let i = 0; i < 20; i++)
        move(db, {
          code: `C${i}`,
          name: `Роба ${i}`,
          at,
          kind: 'receipt',
          source: 'receipt:1',
          line: i,
          qtyMilli: 5_000,
          pricePara: 1_000,
        });
      const started = counts.start(undefined, undefined, true);
      counts.enter(
        started.id,
        Array.from({ length: 20 }, (_, i) => ({ code: `C${i}`, quantity: i % 2 ? 4 : 6 })),
        undefined,
        true,
      );
      const snapshot = (): unknown =>
        ['stock_movements', 'goods_numbers'].map(
          (t) => db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${t}`).get()?.n,
        );
      const stock = (): unknown => db.prepare('SELECT product_code, qty_milli FROM stock ORDER BY product_code').all();
      const before = [snapshot(), stock()];
      failAudit = true;
      expect(() => counts.post(started.id, undefined, true)).toThrow('power cut');
      expect([snapshot(), stock()]).toEqual(before);
      expect(counts.view(started.id, true).state).toBe('open');
      failAudit = false;
      expect(counts.post(started.id, undefined, true).state).toBe('posted');
      expect(() => counts.post(started.id, undefined, true)).toThrow();
      expect(
        db.prepare<[], { n: number }>("SELECT count(*) AS n FROM stock_movements WHERE kind = 'count'").get()?.n,
      ).toBe(20);
    } finally {
      db.close();
    }
  });
});

describe("a supplier's CSV and a scanned line on a goods receipt", () => {
  it('reads lines by code or barcode at the retail price, names a bad row and column, and a draft reopens', async () => {
    const c = await startCore();
    const { supplier } = await shop(c);
    const bad = await fails(c, 'goods.receiptLinesCsv', { csv: 'šifra;količina;cena\nP1;2;50\nP2;3;-1\n' });
    expect(bad).toMatchObject({ code: 'invalid_input', field: 'csv' });
    expect(bad.message).toContain('ред 3, колона 3');
    const unknown = await fails(c, 'goods.receiptLinesCsv', { csv: 'NEMA;1;10\n' });
    expect(unknown.message).toContain('ред 1, колона 1');
    const lines = await ok<ReceiptLineInputs>(c, 'goods.receiptLinesCsv', {
      csv: 'šifra;količina;cena;rabat\n8600000000011;12;45,50;5\nP1;2;50\n',
    });
    expect(lines).toEqual([
      { code: 'P2', quantity: 12, purchasePrice: 45.5, discountPercent: 5, retailPrice: 100 },
      { code: 'P1', quantity: 2, purchasePrice: 50, retailPrice: 100 },
    ]);
    // A line typed by scanning names the product by its barcode: the draft holds the product's code.
    const draft = await saveReceipt(c, {
      supplierId: supplier.id,
      invoiceNumber: 'F-2',
      invoiceDate: today(),
      lines: [
        ...lines,
        {
          code: 'N9',
          name: 'Нов',
          label: 'A',
          unit: 'kg',
          group: 'Пиће',
          quantity: 1,
          purchasePrice: 10,
          marginPercent: 20,
        },
      ],
    });
    expect(draft.lines.map((l) => l.code)).toEqual(['P2', 'P1', 'N9']);
    const reopened = await ok<ReceiptView>(c, 'goods.receipt', { id: draft.id });
    expect(reopened.lines[2]).toMatchObject({ newProduct: true, unit: 'kg', group: 'Пиће', barcode: null });
    expect(reopened.lines[0]).toMatchObject({ newProduct: false, unit: null });
    expect(count(c, 'stock_movements')).toBe(3); // only the first receipt's lines moved
  });
});

type ReceiptLineInputs = import('../../shared/contract/goods.ts').ReceiptLineInput[];
