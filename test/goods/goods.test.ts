/**
 * Goods and the KEP book through a whole core (real SQLite file, the embedded sandbox gateway over HTTP): a supplier
 * with a checked PIB, a goods receipt calculated, posted once and reversed, sales and refunds moving stock when they
 * are fiscalized, a price change record for goods on hand, a write-off, and the KEP whose balance is the stock's
 * retail value. Bad input is refused at its field, in the user's language, with nothing saved.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type {
  KepView,
  PriceChangeView,
  ReceiptView,
  StockView,
  SupplierView,
  WriteOffView,
} from '../../shared/contract/goods.ts';
import type { ProductView } from '../../shared/contract/catalog.ts';
import type { OrderView, TaxRatesView } from '../../shared/domain.ts';
import { OrderStore } from '../../electron/orders/store.ts';
import { recordFiscalized } from '../../electron/goods/ledger.ts';
import { retailFromMargin } from '../../shared/goods/calc.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { closeCores, fails, MANAGER_PIN, newProduct, ok, startCore, saveReceipt } from '../support/session.ts';

afterEach(closeCores);

type Core = Awaited<ReturnType<typeof startCore>>;
const managerPin = MANAGER_PIN;
const today = (): string => dayIn(new Date());

const count = (c: Core, table: string): number =>
  c.db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;

async function product(c: Core, code: string, price: number, label: string): Promise<ProductView> {
  return ok<ProductView>(c, 'catalog.put', newProduct(code, price, 'Пиће', { name: `Артикал ${code}`, label }));
}

async function shop(c: Core): Promise<{ label: string; rate: number; supplier: SupplierView }> {
  const rates = await ok<TaxRatesView>(c, 'taxRates.get', {});
  // The demo account signs items under the label `A` (the sandbox's demo group).
  const general = rates.labels.find((l) => l.label === 'A');
  if (!general) throw new Error('no tax rates');
  const supplier = await ok<SupplierView>(c, 'suppliers.put', {
    managerPin,
    name: 'Добављач д.о.о.',
    pib: '113460262',
    address: 'Београд',
    account: '160-0000000012345-67',
  });
  return { label: general.label, rate: general.rate, supplier };
}

/** The KEP from the first day anything happened to today, and the invariant it must keep. */
async function kepNow(c: Core): Promise<KepView> {
  const kep = await ok<KepView>(c, 'goods.kep', { from: '2000-01-01', to: today() });
  expect(kep.closingPara).toBe(kep.stockValuePara);
  const drift = c.db
    .prepare<[], { code: string }>(
      `SELECT s.product_code AS code FROM stock s
        WHERE s.qty_milli != (SELECT coalesce(sum(m.qty_milli), 0) FROM stock_movements m
                               WHERE m.product_code = s.product_code)`,
    )
    .all();
  expect(drift).toEqual([]);
  return kep;
}

const onHand = async (c: Core, code: string): Promise<number | undefined> =>
  (await ok<StockView>(c, 'goods.stock', {})).items.find((i) => i.code === code)?.quantityMilli;

describe('suppliers', () => {
  it('refuses a PIB with a wrong check digit at its field, in Serbian, and saves nothing', async () => {
    const c = await startCore();
    const bad = await fails(c, 'suppliers.put', { managerPin, name: 'Лош', pib: '113460263' });
    expect(bad).toMatchObject({ code: 'invalid_input', field: 'pib' });
    expect(bad.message).toContain('контролна цифра');
    expect(await fails(c, 'suppliers.put', { managerPin, name: 'Кратак', pib: '12345' })).toMatchObject({
      field: 'pib',
    });
    expect(count(c, 'suppliers')).toBe(0);
    await shop(c);
    const twice = await fails(c, 'suppliers.put', { managerPin, name: 'Други', pib: '113460262' });
    expect(twice).toMatchObject({ code: 'invalid_input', field: 'pib' });
    expect(await ok<SupplierView[]>(c, 'suppliers.list')).toHaveLength(1);
  });
});

describe('a goods receipt', () => {
  it('is calculated, posted once, moves stock in, and a second post or the same invoice again is refused', async () => {
    const c = await startCore();
    const { label, rate, supplier } = await shop(c);
    await product(c, 'P1', 100, label);
    const draft = await saveReceipt(c, {
      supplierId: supplier.id,
      invoiceNumber: 'F-1001',
      invoiceDate: today(),
      lines: [
        { code: 'P1', quantity: 10, purchasePrice: 50, discountPercent: 10, marginPercent: 30 },
        { code: 'N1', name: 'Нов артикал', label, unit: 'kg', quantity: 2.5, purchasePrice: 80, retailPrice: 150 },
      ],
    });
    expect(draft.state).toBe('draft');
    expect(draft.number).toBeNull();
    const [p1, n1] = draft.lines;
    expect(p1?.netPara).toBe(4500);
    expect(p1?.retailPara).toBe(retailFromMargin(4500, 3000, rate));
    expect(n1?.newProduct).toBe(true);
    expect(n1?.retailPara).toBe(15000);
    expect(count(c, 'stock_movements')).toBe(0);

    const posted = await ok<ReceiptView>(c, 'goods.receiptPost', { managerPin, id: draft.id });
    expect(posted.state).toBe('posted');
    expect(posted.number).toBe(`1/${today().slice(0, 4)}`);
    expect(await onHand(c, 'P1')).toBe(10_000);
    expect(await onHand(c, 'N1')).toBe(2_500);
    const made = await ok<ProductView[]>(c, 'catalog.search', { query: 'N1' });
    expect(made[0]?.pricePara).toBe(15000);

    expect(await fails(c, 'goods.receiptPost', { managerPin, id: draft.id })).toMatchObject({ code: 'conflict' });
    expect(await onHand(c, 'P1')).toBe(10_000);
    const again = await fails(c, 'goods.receiptSave', {
      managerPin,
      supplierId: supplier.id,
      invoiceNumber: 'F-1001',
      invoiceDate: today(),
      lines: [{ code: 'P1', quantity: 1, purchasePrice: 50, marginPercent: 30 }],
    });
    expect(again).toMatchObject({ code: 'invalid_input', field: 'invoiceNumber' });
    const audit = c.db
      .prepare<[], { approver: string }>("SELECT approver FROM audit_log WHERE action = 'goods.receiptPost'")
      .all();
    expect(audit).toHaveLength(1);
    await kepNow(c);
  });

  it('refuses bad lines at their field and saves nothing: zero quantity, unknown label, a new product without a name', async () => {
    const c = await startCore();
    const { label, supplier } = await shop(c);
    await product(c, 'P1', 100, label);
    const base = { managerPin, supplierId: supplier.id, invoiceNumber: 'F-1', invoiceDate: today() };
    const zero = await fails(c, 'goods.receiptSave', {
      ...base,
      lines: [{ code: 'P1', quantity: 0, purchasePrice: 50, marginPercent: 30 }],
    });
    expect(zero).toMatchObject({ code: 'invalid_input', field: 'lines.0.quantity' });
    expect(zero.message).toContain('Количина');
    const negative = await fails(c, 'goods.receiptSave', {
      ...base,
      lines: [{ code: 'P1', quantity: -2, purchasePrice: 50, marginPercent: 30 }],
    });
    expect(negative).toMatchObject({ field: 'lines.0.quantity' });
    const noLabel = await fails(c, 'goods.receiptSave', {
      ...base,
      lines: [
        { code: 'P1', quantity: 1, purchasePrice: 50, marginPercent: 30 },
        { code: 'N9', name: 'Без ознаке', label: 'Q', unit: 'piece', quantity: 1, purchasePrice: 5, marginPercent: 1 },
      ],
    });
    expect(noLabel).toMatchObject({ code: 'invalid_input', field: 'lines.1.label' });
    const noName = await fails(c, 'goods.receiptSave', {
      ...base,
      lines: [{ code: 'N8', quantity: 1, purchasePrice: 5, marginPercent: 1 }],
    });
    expect(noName).toMatchObject({ code: 'invalid_input', field: 'lines.0.name' });
    expect(count(c, 'goods_receipts')).toBe(0);
    expect(count(c, 'goods_receipt_lines')).toBe(0);
  });

  it('a retail price below the purchase price is a warning the manager confirms; a reversal takes the goods out', async () => {
    const c = await startCore();
    const { label, supplier } = await shop(c);
    await product(c, 'P1', 100, label);
    const draft = await saveReceipt(c, {
      supplierId: supplier.id,
      invoiceNumber: 'F-7',
      invoiceDate: today(),
      lines: [{ code: 'P1', quantity: 4, purchasePrice: 95, retailPrice: 100 }],
    });
    const warned = await fails(c, 'goods.receiptPost', { managerPin, id: draft.id });
    expect(warned).toMatchObject({ code: 'invalid_input', field: 'lines.0.retailPrice' });
    expect(count(c, 'stock_movements')).toBe(0);
    expect(count(c, 'goods_numbers')).toBe(0);
    await ok(c, 'goods.receiptPost', { managerPin, id: draft.id, confirmBelowPurchase: true });
    expect(await onHand(c, 'P1')).toBe(4000);
    const reversal = await ok<ReceiptView>(c, 'goods.receiptReverse', { managerPin, id: draft.id });
    expect(reversal.kind).toBe('reversal');
    expect(await onHand(c, 'P1')).toBeUndefined();
    expect((await ok<ReceiptView>(c, 'goods.receipt', { id: draft.id })).state).toBe('reversed');
    expect(await fails(c, 'goods.receiptReverse', { managerPin, id: draft.id })).toMatchObject({ code: 'conflict' });
    const kep = await kepNow(c);
    expect(kep.closingPara).toBe(0);
  });

  it('a cashier cannot post: the manager PIN is checked in the core', async () => {
    const c = await startCore();
    const { supplier } = await shop(c);
    const refused = await c.dispatch('goods.receiptSave', {
      managerPin: '000000',
      supplierId: supplier.id,
      invoiceNumber: 'F-2',
      invoiceDate: today(),
      lines: [{ code: 'X', name: 'X', label: 'X', unit: 'piece', quantity: 1, purchasePrice: 1, marginPercent: 1 }],
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(count(c, 'goods_receipts')).toBe(0);
  });
});

describe('sales, refunds, price changes, write-offs and the KEP', () => {
  it('moves stock once per fiscalized document and keeps the KEP balance equal to the stock at retail', async () => {
    const c = await startCore();
    const { label, supplier } = await shop(c);
    const p = await product(c, 'P1', 120, label);
    const draft = await saveReceipt(c, {
      supplierId: supplier.id,
      invoiceNumber: 'F-9',
      invoiceDate: today(),
      lines: [{ code: 'P1', quantity: 10, purchasePrice: 60, retailPrice: 120 }],
    });
    await ok(c, 'goods.receiptPost', { managerPin, id: draft.id });
    const sale = await ok<OrderView>(c, 'sales.checkout', {
      lines: [{ name: p.name, productId: p.id, quantity: 3, unitPrice: 120, labels: [label] }],
      payments: [
        { type: 'cash', amount: 200 },
        { type: 'card', amount: 160 },
      ],
    });
    expect(sale.state).toBe('fiscalized');
    expect(await onHand(c, 'P1')).toBe(7000);

    // The fiscal result recorded again (a replayed reply, a second processor's answer): nothing moves twice.
    const store = new OrderStore(c.db, { onFiscalized: recordFiscalized });
    const row = store.get(sale.orderId);
    if (!row?.receipt) throw new Error('no receipt');
    expect(store.markFiscalized(sale.orderId, JSON.parse(row.receipt), Date.now())).toBeNull();
    c.db.prepare("UPDATE orders SET state = 'queued' WHERE id = ?").run(sale.orderId);
    expect(store.markFiscalized(sale.orderId, JSON.parse(row.receipt), Date.now())).toBe('fiscalized');
    expect(await onHand(c, 'P1')).toBe(7000);
    expect(count(c, 'stock_sales')).toBe(1);

    const refund = await ok<OrderView>(c, 'refunds.create', {
      managerPin,
      orderId: sale.orderId,
      lines: [{ index: 0, quantity: 1 }],
      buyerId: '20:008123456',
      paymentType: 'cash',
    });
    expect(refund.state).toBe('fiscalized');
    expect(await onHand(c, 'P1')).toBe(8000);

    await ok(c, 'catalog.put', newProduct('P1', 150, 'Пиће', { create: false, name: p.name, label }));
    const changes = await ok<PriceChangeView[]>(c, 'goods.priceChanges', { from: today(), to: today() });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ oldPara: 12000, newPara: 15000, quantityMilli: 8000, diffPara: 24000 });

    const wo = await ok<WriteOffView>(c, 'goods.writeOff', {
      managerPin,
      code: 'P1',
      quantity: 1,
      reason: 'Разбијено',
    });
    expect(wo).toMatchObject({ quantityMilli: 1000, valuePara: 15000 });
    expect(await onHand(c, 'P1')).toBe(7000);

    const kep = await kepNow(c);
    expect(kep.closingPara).toBe(7 * 15000);
    const descriptions = kep.entries.map((e) => e.description);
    expect(descriptions).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Пријемница бр. 1/'),
        expect.stringContaining('Нивелација бр. 1/'),
        expect.stringContaining('Отпис бр. 1/'),
        'Промет по фискалним рачунима: Готовина',
        'Промет по фискалним рачунима: Платна картица',
      ]),
    );
    const cash = kep.entries.find((e) => e.description.endsWith('Готовина'));
    expect(cash?.creditPara).toBe(20000 - 12000); // the sale's cash less the refund's
    const csv = (await ok<KepView>(c, 'goods.kep', { from: today(), to: today(), csv: true })).csv ?? '';
    expect(csv.split('\r\n')[0]).toBe('Ред. бр.;Датум;Опис;Задужење;Раздужење;Салдо');
    expect(csv).toContain(';1200,00;');
    expect(csv).toMatch(/\d{2}\.\d{2}\.\d{4}\./);
    expect(csv).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });
});
