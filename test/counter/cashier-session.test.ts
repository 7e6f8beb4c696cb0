/**
 * The cashier on a fiscal document is the person logged in (issue 37, section 2): a `cashier` sent by the caller
 * is refused at its field and nothing is saved; a sale reaches the sandbox gateway (real HTTP) with the name of
 * the person logged in, on the frozen request, the receipt's journal, the order and the report; documents made
 * from the manager's screens name the manager logged in, and a cashier's refund approved by a manager names the
 * cashier (the manager is the approver); a line naming a catalog product by its id at another price needs a
 * manager, barcode or not, while a hand-typed item does not and is marked as such. Real core, real SQLite file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import type { OrderLine, OrderView } from '../../shared/domain.ts';
import type { ReportView } from '../../shared/contract/reports.ts';
import { makeRefund, makeCopy, closeCores, fails, MANAGER_PIN, ok, settled, startCore } from '../support/session.ts';

afterEach(closeCores);

const CASHIER_PIN = '731905';
const BREAD = { name: 'Хлеб', quantity: 2, unitPrice: 80, labels: ['A'] };
const sale = (extra: Record<string, unknown> = {}) => ({
  lines: [BREAD],
  payments: [{ type: 'cash', amount: 160 }],
  ...extra,
});

const count = (core: Core, table: string): number =>
  core.db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;

/** The frozen request's cashier fields and the order's own record of who sold it. */
function named(core: Core, orderId: number): { top?: string; meta?: string; data?: string } {
  const row = core.db
    .prepare<[number], { request: string | null; data: string }>('SELECT request, data FROM orders WHERE id = ?')
    .get(orderId);
  const request = JSON.parse(row?.request ?? '{}') as { cashier?: string; metaFields?: { cashier?: string } };
  const data = JSON.parse(row?.data ?? '{}') as { cashier?: string };
  return {
    ...(request.cashier !== undefined ? { top: request.cashier } : {}),
    ...(request.metaFields?.cashier !== undefined ? { meta: request.metaFields.cashier } : {}),
    ...(data.cashier !== undefined ? { data: data.cashier } : {}),
  };
}

const linesOf = (core: Core, orderId: number): OrderLine[] =>
  (
    JSON.parse(
      core.db.prepare<[number], { data: string }>('SELECT data FROM orders WHERE id = ?').get(orderId)?.data ?? '{}',
    ) as { lines: OrderLine[] }
  ).lines;

async function loginCashier(core: Core, name = 'Ана Анић'): Promise<void> {
  await ok(core, 'staff.create', { managerPin: MANAGER_PIN, name, role: 'cashier', pin: CASHIER_PIN });
  await ok(core, 'staff.login', { pin: CASHIER_PIN });
}

describe('a cashier sent by the caller', () => {
  it('is refused at the field `cashier` in each language, and nothing is saved', async () => {
    const core = await startCore({ env: { KASA_LANG: 'sr-Cyrl' } });
    await loginCashier(core);
    const orders = count(core, 'orders');
    const outbox = count(core, 'outbox');
    const refused = await fails(core, 'sales.checkout', sale({ cashier: 'Someone else' }));
    expect(refused).toMatchObject({ code: 'invalid_input', field: 'cashier' });
    expect(refused.message).toBe(
      'Поље „Касир“ се не шаље: на сваком рачуну је касир особа пријављена на каси, коју одређује каса.',
    );
    // An empty name or a name in a sale that is otherwise wrong too: never used, always named.
    expect(await fails(core, 'sales.checkout', sale({ cashier: '' }))).toMatchObject({ field: 'cashier' });
    expect(count(core, 'orders')).toBe(orders);
    expect(count(core, 'outbox')).toBe(outbox);

    for (const [lang, text] of [
      [
        'sr-Latn',
        'Polje „Kasir“ se ne šalje: na svakom računu je kasir osoba prijavljena na kasi, koju određuje kasa.',
      ],
      [
        'en',
        'The field "Cashier" is not sent: the cashier on every receipt is the person logged in at the till, set by ' +
          'the till.',
      ],
    ] as const) {
      const other = await startCore({ env: { KASA_LANG: lang } });
      expect((await fails(other, 'sales.checkout', sale({ cashier: 'Someone else' }))).message).toBe(text);
    }
    expect(count(core, 'orders')).toBe(orders);
  });

  it('is refused on refunds, advances, the final sale and copies too', async () => {
    const core = await startCore();
    const sold = await ok<{ orderId: number }>(core, 'sales.checkout', sale());
    const adv = await ok<{ orderId: number }>(core, 'sales.checkout', sale({ invoiceType: 'advance' }));
    const orders = count(core, 'orders');
    const cases: [string, Record<string, unknown>][] = [
      [
        'refunds.create',
        { managerPin: MANAGER_PIN, orderId: sold.orderId, full: true, paymentType: 'cash', buyerId: '20:008123456' },
      ],
      ['advances.add', { orderId: adv.orderId, lines: [BREAD], payments: [{ type: 'cash', amount: 160 }] }],
      ['advances.finalize', { orderId: adv.orderId }],
      ['copies.create', { orderId: sold.orderId, approval: { managerPin: MANAGER_PIN } }],
    ];
    for (const [name, input] of cases) {
      const refused = await fails(core, name, { ...input, cashier: 'Someone else' });
      expect(refused, name).toMatchObject({ code: 'invalid_input', field: 'cashier' });
    }
    expect(count(core, 'orders')).toBe(orders);
  });
});

describe('the person logged in is on the document', () => {
  it('reaches the sandbox gateway with the cashier logged in, on the journal, the order and the report', async () => {
    const core = await startCore();
    await loginCashier(core);
    const sold = await ok<{ orderId: number; state: string }>(core, 'sales.checkout', sale());
    await settled(core, sold.orderId);
    expect(named(core, sold.orderId)).toEqual({ top: 'Ана Анић', meta: 'Ана Анић', data: 'Ана Анић' });
    const view = await ok<OrderView>(core, 'orders.get', { orderId: sold.orderId });
    expect(view.cashier).toBe('Ана Анић');
    // The sandbox prints `Касир:` from what the request carried: the person, not the gateway's default.
    expect(view.receipt?.journal).toMatch(/Касир:\s+Ана Анић/);
    expect(view.receipt?.journal).not.toMatch(/Касир:\s+Каса 1/);
    const report = await ok<ReportView>(core, 'reports.summary', {});
    expect(report.byCashier.map((c) => [c.cashier, c.count])).toEqual([['Ана Анић', 1]]);
  });

  it('a refund, an advance, its final sale and a copy from the manager screens name the manager', async () => {
    const core = await startCore(); // the manager is logged in
    const sold = await ok<{ orderId: number }>(core, 'sales.checkout', sale());
    const refund = await makeRefund(core, {
      orderId: sold.orderId,
      lines: [{ index: 0, quantity: 1 }],
      buyerId: '20:008123456',
    });
    const copy = await makeCopy(core, { orderId: sold.orderId });
    const adv = await ok<{ orderId: number }>(core, 'sales.checkout', sale({ invoiceType: 'advance' }));
    const further = await ok<OrderView>(core, 'advances.add', {
      orderId: adv.orderId,
      lines: [{ ...BREAD, quantity: 1 }],
      payments: [{ type: 'cash', amount: 80 }],
    });
    const final = await ok<OrderView>(core, 'advances.finalize', {
      orderId: further.orderId,
      lines: [{ ...BREAD, quantity: 3 }],
    });
    for (const o of [refund, copy, further, final]) {
      expect(o.state, o.kind).toBe('fiscalized');
      expect(named(core, o.orderId), o.kind).toEqual({ top: 'Менаџер', meta: 'Менаџер', data: 'Менаџер' });
      expect(o.receipt?.journal, o.kind).toMatch(/Касир:\s+Менаџер/);
    }
  });

  it("a cashier's refund approved by a manager names the cashier; the manager is the approver", async () => {
    const core = await startCore();
    await loginCashier(core, 'Бора Борић');
    const sold = await ok<{ orderId: number }>(core, 'sales.checkout', sale());
    const refund = await makeRefund(core, {
      orderId: sold.orderId,
      full: true,
      buyerId: '20:008123456',
    });
    expect(named(core, refund.orderId)).toEqual({ top: 'Бора Борић', meta: 'Бора Борић', data: 'Бора Борић' });
    const audit = core.db
      .prepare<[], { actor: string; approver: string }>(
        "SELECT actor, approver FROM audit_log WHERE action = 'approved.refunds.create'",
      )
      .all();
    expect(audit).toEqual([{ actor: 'Бора Борић', approver: 'Менаџер' }]);
  });
});

/** The EAN-13 check digit appended to twelve digits. */
function ean13(twelve: string): string {
  const sum = [...twelve].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return `${twelve}${(10 - (sum % 10)) % 10}`;
}

describe('a line that names a catalog product', () => {
  async function withProducts(core: Core): Promise<{ coffee: number; cheese: number }> {
    const approval = { managerPin: MANAGER_PIN };
    const put = (p: Record<string, unknown>) =>
      ok<{ id: number }>(core, 'catalog.put', { favourite: false, barcodes: [], group: null, ...p, approval });
    const coffee = await put({ code: '2001', name: 'Кафа', price: 399, label: 'A', unit: 'piece' });
    const cheese = await put({ code: '1011', name: 'Сир', price: 899, label: 'A', unit: 'kg' });
    return { coffee: coffee.id, cheese: cheese.id };
  }

  it('by its id, at another price and without a barcode, needs a manager; at its price it does not', async () => {
    const core = await startCore();
    const { coffee } = await withProducts(core);
    await loginCashier(core);
    const line = { name: 'Кафа', quantity: 1, labels: ['A'], productId: coffee };
    const cheap = { lines: [{ ...line, unitPrice: 1 }], payments: [{ type: 'cash', amount: 1 }] };
    const orders = count(core, 'orders');
    const refused = await fails(core, 'sales.checkout', cheap);
    expect(refused).toMatchObject({ code: 'forbidden', field: 'approval.managerPin' });
    expect(refused.message).toContain('„Кафа“');
    expect(count(core, 'orders')).toBe(orders);
    // A cashier's own PIN approves nothing.
    expect(await fails(core, 'sales.checkout', { ...cheap, approval: { managerPin: CASHIER_PIN } })).toMatchObject({
      code: 'forbidden',
    });
    const approved = await ok<{ orderId: number }>(core, 'sales.checkout', {
      ...cheap,
      approval: { managerPin: MANAGER_PIN },
    });
    expect(linesOf(core, approved.orderId)[0]).toMatchObject({ productId: coffee, unitPricePara: 100 });
    expect(linesOf(core, approved.orderId)[0]?.handTyped).toBeUndefined();

    const listed = await ok<{ orderId: number }>(core, 'sales.checkout', {
      lines: [{ ...line, unitPrice: 399 }],
      payments: [{ type: 'cash', amount: 399 }],
    });
    expect(linesOf(core, listed.orderId)[0]).toMatchObject({ productId: coffee, unitPricePara: 39_900 });

    // A further advance naming the product at another price needs a manager as well.
    const adv = await ok<{ orderId: number }>(core, 'sales.checkout', sale({ invoiceType: 'advance' }));
    expect(
      await fails(core, 'advances.add', {
        orderId: adv.orderId,
        lines: [{ ...line, unitPrice: 1 }],
        payments: [{ type: 'cash', amount: 1 }],
      }),
    ).toMatchObject({ code: 'forbidden', field: 'approval.managerPin' });
  });

  it('a hand-typed item (naming no product) sells at the price typed and is marked as such', async () => {
    const core = await startCore();
    await withProducts(core);
    await loginCashier(core);
    const sold = await ok<{ orderId: number }>(core, 'sales.checkout', {
      lines: [{ name: 'Кафа', quantity: 1, unitPrice: 1, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 1 }],
    });
    expect(linesOf(core, sold.orderId)[0]).toMatchObject({ name: 'Кафа', unitPricePara: 100, handTyped: true });
  });

  it("an in-store price barcode's price is the product's for its line; another price needs a manager", async () => {
    const core = await startCore();
    const { cheese } = await withProducts(core);
    await loginCashier(core);
    const sticker = ean13('270101100101'); // 1,01 RSD on the cheese: one unit at the sticker's price
    const line = { name: 'Сир', quantity: 1, labels: ['A'], productId: cheese, priceCode: sticker };
    await ok(core, 'sales.checkout', {
      lines: [{ ...line, unitPrice: 1.01 }],
      payments: [{ type: 'cash', amount: 2 }],
    });
    expect(
      await fails(core, 'sales.checkout', {
        lines: [{ ...line, unitPrice: 0.5 }],
        payments: [{ type: 'cash', amount: 1 }],
      }),
    ).toMatchObject({ code: 'forbidden', field: 'approval.managerPin' });
  });
});
