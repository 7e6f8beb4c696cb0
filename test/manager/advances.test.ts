/**
 * Advances and training mode, through the whole core (createCore → dispatch) on a real SQLite
 * file and the embedded sandbox gateway over HTTP. One test per case of the issue (1, 2, 3, 7, 8), a chain
 * of two advances finalized, and the refusals in three languages with nothing captured.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import {
  makeRefund,
  closeCores,
  control,
  fails,
  MANAGER_PIN,
  ok,
  orderCount,
  settled,
  startCore,
} from '../support/session.ts';
import { fiscalCopy, fiscalRefund } from './fiscal-documents.ts';
import type { RefundSource } from '../../shared/contract/refunds.ts';
import type { OrderView } from '../../shared/domain.ts';

afterEach(closeCores);

const start = (env: Record<string, string> = {}): Promise<Core> => startCore({ prefix: 'kasa-adv-', env });

const outboxCount = (c: Core): number =>
  c.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM outbox').get()?.n ?? 0;
const requestOf = (c: Core, orderId: number): Record<string, unknown> =>
  JSON.parse(
    c.db.prepare<[number], { request: string }>('SELECT request FROM orders WHERE id = ?').get(orderId)?.request ??
      '{}',
  ) as Record<string, unknown>;

/**
 * The same refusal in the three languages, with nothing captured: no order, no outbox row. Each
 * language's message is distinct and names the field.
 */
async function refusedEverywhere(
  c: Core,
  name: string,
  input: unknown,
  expected: { code: string; field: string },
): Promise<string[]> {
  const before = [orderCount(c), outboxCount(c)];
  const messages: string[] = [];
  for (const language of ['sr-Cyrl', 'sr-Latn', 'en'] as const) {
    await ok(c, 'settings.update', { managerPin: MANAGER_PIN, language });
    const err = await fails(c, name, input);
    expect(err).toMatchObject(expected);
    messages.push(err.message);
  }
  await ok(c, 'settings.update', { managerPin: MANAGER_PIN, language: 'sr-Cyrl' });
  expect([orderCount(c), outboxCount(c)]).toEqual(before);
  expect(new Set(messages).size).toBe(3);
  expect(messages[0]).toMatch(/[а-шА-Ш]/); // Cyrillic
  expect(messages[1]).not.toMatch(/[а-шА-Ш]/);
  return messages;
}

const goods = [
  { name: 'Хлеб', quantity: 3, unitPrice: 80, labels: ['A'] },
  { name: 'Млеко', quantity: 2, unitPrice: 150, labels: ['A'] },
];
const advanceSale = (lines = goods, amount = 540) => ({
  lines,
  payments: [{ type: 'cash', amount }],
  invoiceType: 'advance',
});
type Checkout = {
  orderId: number;
  state: string;
  receipt?: { invoiceNumber: string; invoiceCounterExtension: string };
};
const listed = async (c: Core): Promise<number[]> =>
  (await ok<{ advances: OrderView[] }>(c, 'advances.list')).advances.map((a) => a.orderId);

describe('case 1: a finalized advance cannot be refunded again', () => {
  it('refunds.create and refunds.source of a finalized advance are refused (was: a second АР of 540.00)', async () => {
    const c = await start();
    const adv = await ok<Checkout>(c, 'sales.checkout', advanceSale());
    const fin = await ok<OrderView>(c, 'advances.finalize', { orderId: adv.orderId });
    expect(fin.receipt?.invoiceCounterExtension).toBe('ПП');
    const messages = await refusedEverywhere(
      c,
      'refunds.create',
      { managerPin: MANAGER_PIN, orderId: adv.orderId, full: true, paymentType: 'cash', buyerId: '20:008123456' },
      { code: 'invalid_input', field: 'orderId' },
    );
    expect(messages[0]).toContain(fin.receipt?.invoiceNumber);
    expect(messages[2]).toContain('closed by the final receipt');
    // Partially and by invoice number too; the source screen says the same.
    expect(
      await fails(c, 'refunds.create', {
        managerPin: MANAGER_PIN,
        invoiceNumber: adv.receipt?.invoiceNumber,
        lines: [{ index: 0, quantity: 1 }],
        paymentType: 'cash',
        buyerId: '20:008123456',
      }),
    ).toMatchObject({
      code: 'invalid_input',
      field: 'invoiceNumber',
    });
    expect(await fails(c, 'refunds.source', { orderId: adv.orderId })).toMatchObject({
      code: 'invalid_input',
      field: 'orderId',
    });
    // Only the finalize's own АР cancels the advance: one advance refund in the ledger.
    const rows = c.db
      .prepare<[], { kind: string }>("SELECT kind FROM orders WHERE kind IN ('refund', 'refund_full')")
      .all();
    expect(rows).toEqual([]);
  });
});

describe('case 2: a refunded advance is not open', () => {
  it('a fully refunded advance is neither listed nor finalized (was: a ПП "paid" by a returned advance)', async () => {
    const c = await start();
    const adv = await ok<Checkout>(c, 'sales.checkout', advanceSale());
    expect(await listed(c)).toEqual([adv.orderId]);
    const refund = await makeRefund(c, {
      orderId: adv.orderId,
      full: true,
      buyerId: '20:008123456',
    });
    expect(refund.receipt?.invoiceCounterExtension).toBe('АР');
    expect(await listed(c)).toEqual([]);
    const messages = await refusedEverywhere(
      c,
      'advances.finalize',
      { orderId: adv.orderId },
      { code: 'invalid_input', field: 'orderId' },
    );
    expect(messages[2]).toContain('refunded');
    // Nor can a further advance be chained on it.
    expect(
      await fails(c, 'advances.add', { orderId: adv.orderId, lines: goods, payments: [{ type: 'cash', amount: 540 }] }),
    ).toMatchObject({ code: 'invalid_input', field: 'orderId' });
  });

  it('a partially refunded advance is not open either (was: finalized with the full amount as advanceAmount)', async () => {
    const c = await start();
    const adv = await ok<Checkout>(c, 'sales.checkout', advanceSale());
    await makeRefund(c, { orderId: adv.orderId, lines: [{ index: 0, quantity: 1 }], buyerId: '20:008123456' });
    expect(await listed(c)).toEqual([]);
    expect(await fails(c, 'advances.finalize', { orderId: adv.orderId })).toMatchObject({
      code: 'invalid_input',
      field: 'orderId',
    });
  });

  it('a refund of an earlier advance of an open chain is taken off the advanceAmount and off the sandbox АР', async () => {
    const c = await start();
    const a1 = await ok<Checkout>(c, 'sales.checkout', advanceSale());
    const a2 = await ok<OrderView>(c, 'advances.add', {
      orderId: a1.orderId,
      lines: [{ name: 'Аванс', quantity: 1, unitPrice: 300, labels: ['A'] }],
      payments: [{ type: 'card', amount: 300 }],
    });
    // The first advance gives back one bread (80.00): the chain paid 540 + 300 - 80 = 760.00.
    await makeRefund(c, { orderId: a1.orderId, lines: [{ index: 0, quantity: 1 }], buyerId: '20:008123456' });
    expect(await listed(c)).toEqual([a2.orderId]);
    const fin = await ok<OrderView>(c, 'advances.finalize', {
      orderId: a2.orderId,
      lines: [{ name: 'Кухиња', quantity: 1, unitPrice: 1000, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 240 }],
    });
    expect(fin.state).toBe('fiscalized');
    expect((requestOf(c, fin.orderId)['payments'] as unknown[])[0]).toEqual({
      type: 'cash',
      amount: 240,
      advanceAmount: 760,
    });
    expect(fin.extraReceipts?.[0]).toMatchObject({ invoiceCounterExtension: 'АР', totalPara: 76000 });
    expect(fin.receipt).toMatchObject({ invoiceCounterExtension: 'ПП', totalPara: 100000 });
  });
});

describe('case 3: training mode covers advances, finalize, refunds and copies', () => {
  it('an advance in training mode is refused at invoiceType in three languages, nothing captured (was: a real АП)', async () => {
    const c = await start({ KASA_TRAINING_MODE: '1' });
    await ok(c, 'settings.update', { managerPin: MANAGER_PIN, trainingMode: true });
    const messages = await refusedEverywhere(c, 'sales.checkout', advanceSale(), {
      code: 'forbidden',
      field: 'invoiceType',
    });
    expect(messages[0]).toContain('обуке');
    expect(messages[2]).toContain('Training mode');
    // A normal sale in training mode is still a training receipt.
    const t = await ok<Checkout>(c, 'sales.checkout', { lines: goods, payments: [{ type: 'cash', amount: 540 }] });
    expect(t.receipt?.invoiceCounterExtension).toBe('ТП');
  });

  it('finalize, refunds and copies of real receipts are refused in training mode; a training receipt is refunded as training', async () => {
    const c = await start();
    const adv = await ok<Checkout>(c, 'sales.checkout', advanceSale());
    const real = await ok<Checkout>(c, 'sales.checkout', { lines: goods, payments: [{ type: 'cash', amount: 540 }] });
    await ok(c, 'settings.update', { managerPin: MANAGER_PIN, trainingMode: true });
    await refusedEverywhere(c, 'advances.finalize', { orderId: adv.orderId }, { code: 'forbidden', field: 'orderId' });
    await refusedEverywhere(
      c,
      'advances.add',
      { orderId: adv.orderId, lines: goods, payments: [{ type: 'cash', amount: 540 }] },
      { code: 'forbidden', field: 'orderId' },
    );
    await refusedEverywhere(
      c,
      'refunds.create',
      {
        managerPin: MANAGER_PIN,
        orderId: real.orderId,
        lines: [{ index: 0, quantity: 1 }],
        paymentType: 'cash',
        buyerId: '20:008123456',
      },
      { code: 'invalid_input', field: 'orderId' },
    );
    await refusedEverywhere(
      c,
      'copies.create',
      { orderId: real.orderId, approval: { managerPin: MANAGER_PIN } },
      { code: 'invalid_input', field: 'orderId' },
    );
    const training = await ok<Checkout>(c, 'sales.checkout', {
      lines: goods,
      payments: [{ type: 'cash', amount: 540 }],
    });
    const refund = await makeRefund(c, {
      orderId: training.orderId,
      lines: [{ index: 1, quantity: 1 }],
      buyerId: '20:008123456',
    });
    expect(refund).toMatchObject({ invoiceType: 'training', state: 'fiscalized' });
    expect(refund.receipt?.invoiceCounterExtension).toBe('ТР');
    // With training mode off again the advance is finalized as usual.
    await ok(c, 'settings.update', { managerPin: MANAGER_PIN, trainingMode: false });
    expect(
      (await ok<OrderView>(c, 'advances.finalize', { orderId: adv.orderId })).receipt?.invoiceCounterExtension,
    ).toBe('ПП');
  });
});

describe('case 7: the final sale of a chain is refunded and copied like a normal sale', () => {
  it('partial and full refunds and a copy of the ПП (was: refused, kind finalize)', async () => {
    const c = await start();
    const adv = await ok<Checkout>(c, 'sales.checkout', advanceSale());
    const fin = await ok<OrderView>(c, 'advances.finalize', { orderId: adv.orderId });
    const source = await ok<RefundSource>(c, 'refunds.source', { orderId: fin.orderId });
    expect(source).toMatchObject({ invoiceType: 'normal', totalPara: 54000, fullRefundAllowed: true });
    const part = await fiscalRefund(
      c,
      fin,
      { lines: [{ index: 1, quantity: 1 }], buyerId: '20:008123456' },
      { invoiceType: 'normal', totalPara: 15000 },
    );
    expect(part.receipt?.invoiceCounterExtension).toBe('ПР');
    const copy = await fiscalCopy(c, fin);
    expect(copy.receipt?.totalPara).toBe(54000);

    // A second chain: its final sale refunded in full.
    const adv2 = await ok<Checkout>(c, 'sales.checkout', advanceSale());
    const fin2 = await ok<OrderView>(c, 'advances.finalize', { orderId: adv2.orderId });
    const full = await makeRefund(c, {
      orderId: fin2.orderId,
      full: true,
      buyerId: '20:008123456',
    });
    // Through the refund endpoint with its payments (issue 37: the full-refund endpoint would copy the ПП's
    // advanceAmount, which pays nothing back): the advance's 540.00 cash, the final's 0.00 left out.
    expect(full).toMatchObject({ kind: 'refund', invoiceType: 'normal', state: 'fiscalized', totalPara: 54000 });
    expect(full.payments).toEqual([{ type: 'cash', amountPara: 54000 }]);
    expect(full.receipt?.invoiceCounterExtension).toBe('ПР');
  });
});

describe('case 8: deposits and chains of advances', () => {
  it('a 30 % deposit: the АП carries the deposit, the ПП all items with advanceAmount + amount = total (was: amount 0, the advance items)', async () => {
    const c = await start();
    const sofa = [{ name: 'Софа', quantity: 1, unitPrice: 10000, labels: ['A'] }];
    const deposit = await ok<Checkout>(
      c,
      'sales.checkout',
      advanceSale([{ name: 'Аванс за софу', quantity: 1, unitPrice: 3000, labels: ['A'] }], 3000),
    );
    expect(deposit.receipt?.invoiceCounterExtension).toBe('АП');
    // The rest must be paid exactly; below the advances is refused.
    expect(await fails(c, 'advances.finalize', { orderId: deposit.orderId, lines: sofa })).toMatchObject({
      code: 'invalid_input',
      field: 'payments',
    });
    expect(
      await fails(c, 'advances.finalize', {
        orderId: deposit.orderId,
        lines: sofa,
        payments: [{ type: 'cash', amount: 0 }],
      }),
    ).toMatchObject({ code: 'invalid_input', field: 'payments' });
    expect(
      await fails(c, 'advances.finalize', {
        orderId: deposit.orderId,
        lines: [{ name: 'Јастук', quantity: 1, unitPrice: 100, labels: ['A'] }],
      }),
    ).toMatchObject({
      code: 'invalid_input',
      field: 'lines',
    });
    const fin = await ok<OrderView>(c, 'advances.finalize', {
      orderId: deposit.orderId,
      lines: sofa,
      payments: [{ type: 'card', amount: 7000 }],
    });
    expect(fin.state).toBe('fiscalized');
    const body = requestOf(c, fin.orderId);
    expect(body['items']).toEqual([{ name: 'Софа', quantity: 1, unitPrice: 10000, totalAmount: 10000, labels: ['A'] }]);
    expect(body['payments']).toEqual([{ type: 'card', amount: 7000, advanceAmount: 3000 }]);
    expect(body['referentDocumentNumber']).toBe(deposit.receipt?.invoiceNumber);
    expect(fin.receipt).toMatchObject({ invoiceCounterExtension: 'ПП', totalPara: 1000000 });
    expect(fin.receipt?.journal).toMatch(/Плаћено авансом:\s+3\.000,00/);
    expect(fin.extraReceipts?.[0]).toMatchObject({ invoiceCounterExtension: 'АР', totalPara: 300000 });
  });

  it('a chain of two advances: the second references the first, finalize references the last and applies both', async () => {
    const c = await start();
    const a1 = await ok<Checkout>(
      c,
      'sales.checkout',
      advanceSale([{ name: 'Аванс', quantity: 1, unitPrice: 3000, labels: ['A'] }], 3000),
    );
    const refused = await fails(c, 'advances.add', {
      orderId: a1.orderId,
      lines: [{ name: 'Аванс', quantity: 1, unitPrice: 2000, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 1500 }],
    });
    expect(refused).toMatchObject({ code: 'invalid_input', field: 'payments' });
    const a2 = await ok<OrderView>(c, 'advances.add', {
      orderId: a1.orderId,
      lines: [{ name: 'Аванс', quantity: 1, unitPrice: 2000, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 2000 }],
    });
    expect(a2).toMatchObject({
      kind: 'sale',
      invoiceType: 'advance',
      state: 'fiscalized',
      referentDocumentNumber: a1.receipt?.invoiceNumber,
    });
    expect(a2.receipt?.invoiceCounterExtension).toBe('АП');
    // Only the chain's last advance is open; the first names its successor.
    expect(await listed(c)).toEqual([a2.orderId]);
    expect(await fails(c, 'advances.finalize', { orderId: a1.orderId })).toMatchObject({
      code: 'invalid_input',
      field: 'orderId',
    });
    const list = await ok<{ chains: { orderId: number; advances: { orderId: number }[]; paidPara: number }[] }>(
      c,
      'advances.list',
    );
    expect(list.chains).toEqual([
      expect.objectContaining({
        orderId: a2.orderId,
        paidPara: 500000,
        advances: [expect.objectContaining({ orderId: a1.orderId }), expect.objectContaining({ orderId: a2.orderId })],
      }),
    ]);
    const fin = await ok<OrderView>(c, 'advances.finalize', {
      orderId: a2.orderId,
      lines: [{ name: 'Софа', quantity: 1, unitPrice: 10000, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 5000 }],
    });
    expect(requestOf(c, fin.orderId)).toMatchObject({
      referentDocumentNumber: a2.receipt?.invoiceNumber,
      payments: [{ type: 'cash', amount: 5000, advanceAmount: 5000 }],
    });
    // The АР cancels both advances (5,000.00) and references the last one; the ПП shows the advance paid and the rest.
    expect(fin.extraReceipts?.[0]).toMatchObject({ invoiceCounterExtension: 'АР', totalPara: 500000 });
    expect(fin.receipt?.journal).toMatch(/Плаћено авансом:\s+5\.000,00/);
    expect(fin.receipt?.totalPara).toBe(1000000);
    expect(await listed(c)).toEqual([]);
    // Either advance of the finalized chain is refused a refund.
    for (const orderId of [a1.orderId, a2.orderId]) {
      expect(
        await fails(c, 'refunds.create', {
          managerPin: MANAGER_PIN,
          orderId,
          full: true,
          paymentType: 'cash',
          buyerId: '20:008123456',
        }),
      ).toMatchObject({ code: 'invalid_input', field: 'orderId' });
    }
  });

  it('offline: a further advance and the final receipt wait for the queued advance and go out in order, each referencing the one before', async () => {
    const c = await start();
    await control(c, 'offline', { offline: true });
    const a1 = await ok<Checkout>(
      c,
      'sales.checkout',
      advanceSale([{ name: 'Аванс', quantity: 1, unitPrice: 3000, labels: ['A'] }], 3000),
    );
    expect(a1.state).toBe('queued');
    const a2 = await ok<OrderView>(c, 'advances.add', {
      orderId: a1.orderId,
      lines: [{ name: 'Аванс', quantity: 1, unitPrice: 2000, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 2000 }],
    });
    expect(a2.state).toBe('queued');
    const fin = await ok<OrderView>(c, 'advances.finalize', {
      orderId: a2.orderId,
      lines: [{ name: 'Софа', quantity: 1, unitPrice: 10000, labels: ['A'] }],
      payments: [{ type: 'card', amount: 5000 }],
    });
    expect(fin.state).toBe('queued');
    await control(c, 'offline', { offline: false });
    await ok(c, 'sync.now');
    await settled(c, fin.orderId);
    const get = async (orderId: number) => ok<OrderView>(c, 'orders.get', { orderId });
    const [v1, v2, vf] = [await get(a1.orderId), await get(a2.orderId), await get(fin.orderId)];
    expect(v2.referentDocumentNumber).toBe(v1.receipt?.invoiceNumber);
    expect(vf.referentDocumentNumber).toBe(v2.receipt?.invoiceNumber);
    expect(vf.extraReceipts?.[0]).toMatchObject({ invoiceCounterExtension: 'АР', totalPara: 500000 });
    expect(vf.receipt).toMatchObject({ invoiceCounterExtension: 'ПП', totalPara: 1000000 });
  });
});
