/**
 * Refund pricing through the whole core (createCore → dispatch) on a real SQLite file and the
 * embedded sandbox gateway over HTTP, which now refuses items that do not multiply out (as a PFR does):
 * - 4: a discounted line refunded one piece at a time returns exactly what was paid, never a para more;
 * - 5: partial refunds of a weighed line send items that multiply out;
 * - 6: a discount goes out folded into the unit price and named on the item, never as `discount`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { makeRefund, tryRefund, makeCopy, closeCores, ok, startCore } from '../support/session.ts';
import type { OrderView } from '../../shared/domain.ts';

afterEach(closeCores);

const start = (): Promise<Core> => startCore({ prefix: 'kasa-pricing-', env: { KASA_LANG: 'sr-Cyrl' } });

interface SentItem {
  name: string;
  quantity: number;
  unitPrice: number;
  totalAmount: number;
  labels: string[];
  discount?: number;
}

/** The items of the order's frozen gateway request. */
function sentItems(c: Core, orderId: number): SentItem[] {
  const row = c.db
    .prepare<[number], { request: string | null }>('SELECT request FROM orders WHERE id = ?')
    .get(orderId);
  const body = JSON.parse(row?.request ?? '{}') as { items?: SentItem[] };
  return body.items ?? [];
}

/** The test's own arithmetic (integers): round(q × u) to the para, halves up, equals the total; no discount sent. */
function multipliesOut(i: SentItem): boolean {
  const q = Math.round(i.quantity * 1000);
  const u = Math.round(i.unitPrice * 100);
  const t = Math.round(i.totalAmount * 100);
  return i.discount === undefined && Math.floor((q * u + 500) / 1000) === t;
}

const para = (items: SentItem[]) => items.reduce((s, i) => s + Math.round(i.totalAmount * 100), 0);

async function refund(c: Core, orderId: number, index: number, quantity: number): Promise<OrderView> {
  return makeRefund(c, {
    orderId,
    lines: [{ index, quantity }],
    buyerId: '20:008123456',
  });
}

describe('#21 case 4: partial refunds of a discounted line', () => {
  it('3 × 100,00 less 1,00 refunded one piece at a time returns exactly 299,00 (was 3 × 99,67 = 299,01)', async () => {
    const c = await start();
    const s = await ok<{ orderId: number; state: string; totalPara: number }>(c, 'sales.checkout', {
      lines: [{ name: 'Шоља', quantity: 3, unitPrice: 100, discount: 1, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 299 }],
    });
    expect(s).toMatchObject({ state: 'fiscalized', totalPara: 29900 });
    const refunds: OrderView[] = [];
    for (let k = 0; k < 3; k++) refunds.push(await refund(c, s.orderId, 0, 1));
    expect(refunds.map((r) => r.state)).toEqual(['fiscalized', 'fiscalized', 'fiscalized']);
    // Cumulative: round(299,00 × 1/3) = 99,67; round(299,00 × 2/3) = 199,33, less 99,67 = 99,66; the last takes the
    // rest, 99,67.
    expect(refunds.map((r) => r.totalPara)).toEqual([9967, 9966, 9967]);
    expect(refunds.reduce((sum, r) => sum + r.totalPara, 0)).toBe(29900);
    for (const r of refunds) {
      const items = sentItems(c, r.orderId);
      expect(items.every(multipliesOut)).toBe(true);
      expect(para(items)).toBe(r.totalPara);
      expect(r.receipt?.totalPara).toBe(r.totalPara);
    }
    // Nothing is left to refund: a fourth piece is refused at its field.
    const more = await tryRefund(c, {
      orderId: s.orderId,
      lines: [{ index: 0, quantity: 1 }],
      buyerId: '20:008123456',
    });
    expect(more).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'lines.0.quantity' } });
    // The refunds store the para they took of the line (read by the next refund's pricing).
    const stored = c.db
      .prepare<[], { data: string }>("SELECT data FROM orders WHERE kind = 'refund' ORDER BY id")
      .all();
    expect(
      stored.map(
        (r) => (JSON.parse(r.data) as { refundOf: { lines: { totalPara: number }[] } }).refundOf.lines[0]?.totalPara,
      ),
    ).toEqual([9967, 9966, 9967]);
  });

  it('a refund stored before #21 (no para per line) is read from its own lines: the rest still adds up', async () => {
    const c = await start();
    const s = await ok<{ orderId: number }>(c, 'sales.checkout', {
      lines: [{ name: 'Шоља', quantity: 3, unitPrice: 100, discount: 1, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 299 }],
    });
    const first = await refund(c, s.orderId, 0, 1);
    // Make it look like an old refund: refundOf.lines without totalPara.
    c.db
      .prepare("UPDATE orders SET data = json_remove(data, '$.refundOf.lines[0].totalPara') WHERE id = ?")
      .run(first.orderId);
    const rest = await refund(c, s.orderId, 0, 2);
    expect(rest.state).toBe('fiscalized');
    expect(first.totalPara + rest.totalPara).toBe(29900);
    expect(sentItems(c, rest.orderId).every(multipliesOut)).toBe(true);
  });
});

describe('#21 case 5: partial refunds of a weighed line', () => {
  it('1,002 kg × 89,99 refunded as 0,501 + 0,501: each item multiplies out (was 0,501 × 89,99 = 45,09) and the two return 90,17', async () => {
    const c = await start();
    const s = await ok<{ orderId: number; state: string; totalPara: number }>(c, 'sales.checkout', {
      lines: [{ name: 'Сир', quantity: 1.002, unitPrice: 89.99, labels: ['A'] }],
      payments: [{ type: 'card', amount: 90.17 }],
    });
    expect(s).toMatchObject({ state: 'fiscalized', totalPara: 9017 });
    const a = await refund(c, s.orderId, 0, 0.501);
    const b = await refund(c, s.orderId, 0, 0.501);
    expect([a.state, b.state]).toEqual(['fiscalized', 'fiscalized']);
    expect(a.totalPara + b.totalPara).toBe(9017);
    const itemsA = sentItems(c, a.orderId);
    const itemsB = sentItems(c, b.orderId);
    expect([...itemsA, ...itemsB].every(multipliesOut)).toBe(true);
    // The 45,09 piece is priced 90,00 a kilo (0,501 × 90,00 = 45,09); the last takes the rest at the list price.
    expect(itemsA).toEqual([
      expect.objectContaining({ name: 'Сир', quantity: 0.501, unitPrice: 90, totalAmount: 45.09 }),
    ]);
    expect(itemsB).toEqual([
      expect.objectContaining({ name: 'Сир', quantity: 0.501, unitPrice: 89.99, totalAmount: 45.08 }),
    ]);
  });
});

describe('#21 case 6: discounts folded into the unit price and named on the line', () => {
  it('0,45 kg × 1.299,00 less 50,00 goes out as „…, попуст 50,00“ 0,45 × 1.187,89 = 534,55 with no discount field; the journal reads right', async () => {
    const c = await start();
    const s = await ok<{ orderId: number; state: string; totalPara: number; receipt?: { journal: string } }>(
      c,
      'sales.checkout',
      {
        lines: [{ name: 'Лосос', quantity: 0.45, unitPrice: 1299, discount: 50, labels: ['A'] }],
        payments: [{ type: 'cash', amount: 534.55 }],
      },
    );
    expect(s).toMatchObject({ state: 'fiscalized', totalPara: 53455 });
    const items = sentItems(c, s.orderId);
    expect(items).toEqual([
      { name: 'Лосос, попуст 50,00', quantity: 0.45, unitPrice: 1187.89, totalAmount: 534.55, labels: ['A'] },
    ]);
    expect(items.every(multipliesOut)).toBe(true);
    const journal = s.receipt?.journal ?? '';
    expect(journal).toContain('Лосос, попуст 50,00 (A)');
    expect(journal).toMatch(/ {2}0,45 x 1\.187,89 = +534,55/);
    expect(journal).not.toContain('0,45 x 1.299,00 = ');
    // The order keeps the line as rung up: list price and discount.
    const view = await ok<OrderView>(c, 'orders.get', { orderId: s.orderId });
    expect(view.lines[0]).toMatchObject({
      unitPricePara: 129900,
      discountPara: 5000,
      totalPara: 53455,
      quantityMilli: 450,
    });
  });

  it('3 × 100,00 less 1,00 has no single para unit price: two items, 2 × 99,67 + 1 × 99,66, each naming its share', async () => {
    const c = await start();
    const s = await ok<{ orderId: number; state: string; receipt?: { journal: string } }>(c, 'sales.checkout', {
      lines: [{ name: 'Шоља', quantity: 3, unitPrice: 100, discount: 1, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 299 }],
    });
    expect(s.state).toBe('fiscalized');
    expect(sentItems(c, s.orderId)).toEqual([
      { name: 'Шоља, попуст 0,66', quantity: 2, unitPrice: 99.67, totalAmount: 199.34, labels: ['A'] },
      { name: 'Шоља, попуст 0,34', quantity: 1, unitPrice: 99.66, totalAmount: 99.66, labels: ['A'] },
    ]);
    expect(s.receipt?.journal).toMatch(/ {2}2 x 99,67 = +199,34/);
    // A fiscal copy sends the same items as the sale.
    const copy = await makeCopy(c, { orderId: s.orderId });
    expect(copy.state).toBe('fiscalized');
    expect(sentItems(c, copy.orderId)).toEqual(sentItems(c, s.orderId));
  });
});
