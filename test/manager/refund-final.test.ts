/**
 * Issue 37, section 3: a refund of a chain's final sale (ПП) records exactly what its fiscal document pays back,
 * per payment type, to the para. Through the whole core (createCore → dispatch) on a real SQLite file and the
 * embedded sandbox gateway over HTTP. The document is the sandbox's own receipt: its archived payments (the
 * sandbox control `archive-items`) and its journal. The till's record is `orders.data.payments`, which the shift's
 * drawer, the report, the hub's copy of the order and the signed refund slip read.
 *
 * The chain of the issue: an advance of 3,000.00 paid by card, the final sale of 8,000.00 with 5,000.00 in cash.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { GatewayClient } from '../../electron/gateway/client.ts';
import { refundSlipOf } from '../../electron/printer/refund-slip.ts';
import { OrderRowData } from '../../shared/order-data.ts';
import { addOrders, emptyTotals, type ReportOrder } from '../../shared/reports/totals.ts';
import type { RefundSource } from '../../shared/contract/refunds.ts';
import type { ReportView } from '../../shared/contract/reports.ts';
import type { ShiftView } from '../../shared/contract/shifts.ts';
import type { OrderLine, OrderPayment, OrderView } from '../../shared/domain.ts';
import { makeRefund, closeCores, controlResponse, ok, startCore } from '../support/session.ts';
import { fiscalRefund } from './fiscal-documents.ts';

afterEach(closeCores);

const start = (): Promise<Core> => startCore({ prefix: 'kasa-refund-final-', env: { KASA_LANG: 'sr-Cyrl' } });

const BUYER = '20:008123456';
const FLOAT = 1000;
const GOODS = [
  { name: 'Софа', quantity: 1, unitPrice: 5000, labels: ['A'] },
  { name: 'Столица', quantity: 2, unitPrice: 1500, labels: ['A'] },
];

type PerType = Record<string, number>;

/** Per payment type in para, the test's own sum (zeros left out). */
function perType(payments: readonly { type: string; amountPara: number }[]): PerType {
  const out: PerType = {};
  for (const p of payments) if (p.amountPara !== 0) out[p.type] = (out[p.type] ?? 0) + p.amountPara;
  return out;
}

/** The refund document as the sandbox gateway stored it: what it pays back per type, and any advanceAmount. */
async function documentOf(c: Core, invoiceNumber: string): Promise<{ paidBack: PerType; advancePara: number }> {
  expect((await controlResponse(c, 'archive-items', { included: true })).status).toBe(200);
  const client = new GatewayClient({ baseUrl: c.sandboxUrl ?? '', apiKey: 'demo-key', timeoutMs: 5000 });
  const archived = await client.archiveGet(invoiceNumber, { timeoutMs: 5000 });
  const payments = (archived.receipt as { payments?: { type: string; amount: number; advanceAmount?: number }[] })
    .payments;
  expect(payments).toBeDefined();
  const list = payments ?? [];
  return {
    paidBack: perType(list.map((p) => ({ type: p.type, amountPara: Math.round(p.amount * 100) }))),
    advancePara: list.reduce((s, p) => s + Math.round((p.advanceAmount ?? 0) * 100), 0),
  };
}

/** The order row as the till stores it and pushes it to the hub (the hub parses it with OrderRowData). */
function rowOf(c: Core, orderId: number): Record<string, unknown> & { data: string; request: string | null } {
  const row = c.db.prepare<[number], Record<string, unknown>>('SELECT * FROM orders WHERE id = ?').get(orderId);
  expect(row).toBeDefined();
  return row as Record<string, unknown> & { data: string; request: string | null };
}

/** The hub's totals of these orders: each as the hub parses it, added up by the code the hub's reports use. */
function hubPayments(c: Core, orderIds: number[]): PerType {
  const rows: ReportOrder[] = orderIds.map((id) => {
    const r = rowOf(c, id);
    const parsed = OrderRowData.parse({
      ...r,
      data: JSON.parse(r.data) as unknown,
      receipt: r['receipt'] ? (JSON.parse(String(r['receipt'])) as unknown) : null,
      extra_receipts: r['extra_receipts'] ? (JSON.parse(String(r['extra_receipts'])) as unknown) : null,
    });
    return {
      kind: parsed.kind,
      invoice_type: parsed.invoice_type,
      state: parsed.state,
      total_para: parsed.total_para,
      data: { lines: parsed.data.lines as OrderLine[], payments: parsed.data.payments as OrderPayment[] },
    };
  });
  const totals = addOrders(emptyTotals(), rows);
  const out: PerType = {};
  for (const [type, e] of totals.payments) if (e.sales - e.refunds !== 0) out[type] = e.sales - e.refunds;
  return out;
}

/**
 * The day's report, expected to hold `refunds` (their count and total) and, among its payment types, `byPayment`:
 * each type's sales and refunds in para.
 */
async function reportWithRefunds(
  c: Core,
  refunds: { count: number; totalPara: number },
  byPayment: [string, number, number][],
): Promise<ReportView> {
  const report = await ok<ReportView>(c, 'reports.summary', {});
  expect(report.refunds).toEqual(refunds);
  expect(report.byPayment.map((p) => [p.type, p.salesPara, p.refundsPara])).toEqual(expect.arrayContaining(byPayment));
  return report;
}

/** The advance (3,000.00 by card) and its final sale (8,000.00, 5,000.00 of it in cash). */
async function chain(c: Core): Promise<{ advance: OrderView; final: OrderView }> {
  const advance = await ok<OrderView>(c, 'sales.checkout', {
    invoiceType: 'advance',
    lines: [{ name: 'Аванс', quantity: 1, unitPrice: 3000, labels: ['A'] }],
    payments: [{ type: 'card', amount: 3000 }],
    buyerId: BUYER,
  });
  expect(advance).toMatchObject({ state: 'fiscalized' });
  const final = await ok<OrderView>(c, 'advances.finalize', {
    orderId: advance.orderId,
    lines: GOODS,
    payments: [{ type: 'cash', amount: 5000 }],
  });
  expect(final).toMatchObject({ state: 'fiscalized', totalPara: 800000 });
  expect(final.receipt?.invoiceCounterExtension).toBe('ПП');
  return { advance, final };
}

describe('issue 37 §3: a refund of a final sale records what its fiscal document pays back', () => {
  it('full refund: the document pays back 5,000.00 cash + 3,000.00 card and the till records exactly that (was: 8,000.00 cash against a document of 5,000.00)', async () => {
    const c = await start();
    await ok<ShiftView>(c, 'shifts.open', { openingFloat: FLOAT });
    const { final } = await chain(c);
    const source = await ok<RefundSource>(c, 'refunds.source', { orderId: final.orderId });
    expect(source).toMatchObject({ totalPara: 800000, fullRefundAllowed: true });

    const refund = await fiscalRefund(c, final, { full: true, buyerId: BUYER }, { totalPara: 800000 });
    expect(refund.receipt?.invoiceCounterExtension).toBe('ПР');
    const invoiceNumber = refund.receipt?.invoiceNumber ?? '';

    // The fiscal document: all of the sale paid back, in the types it was paid in, and no advanceAmount.
    const doc = await documentOf(c, invoiceNumber);
    expect(doc).toEqual({ paidBack: { cash: 500000, card: 300000 }, advancePara: 0 });
    const journal = refund.receipt?.journal ?? '';
    expect(journal).toMatch(/Готовина: +-5\.000,00/);
    expect(journal).toMatch(/Платна картица: +-3\.000,00/);
    expect(journal).toMatch(/Укупан износ рефундације: +-8\.000,00/);

    // The till's record of it equals the document, per type, to the para.
    expect(perType(refund.payments)).toEqual(doc.paidBack);
    const stored = JSON.parse(rowOf(c, refund.orderId).data) as { payments: { type: string; amountPara: number }[] };
    expect(perType(stored.payments)).toEqual(doc.paidBack);

    // The shift: the cash the final took (5,000.00) went back; the card advance is not drawer cash.
    const shift = await ok<ShiftView>(c, 'shifts.current');
    expect(shift.expectedPara).toBe(FLOAT * 100);
    expect(perType(shift.byPayment.map((p) => ({ type: p.type, amountPara: p.netPara })))).toEqual({});
    // The report: refunds of 8,000.00, 5,000.00 cash and 3,000.00 card; the sale and its advance net to zero.
    const report = await reportWithRefunds(c, { count: 1, totalPara: 800000 }, [
      ['card', 300000, 300000],
      ['cash', 500000, 500000],
    ]);
    expect(report.grossPara).toBe(0);
    // The hub's copy: the same rows, parsed and added up as the hub does.
    const ids = (c.db.prepare<[], { id: number }>('SELECT id FROM orders ORDER BY id').all() as { id: number }[]).map(
      (r) => r.id,
    );
    expect(hubPayments(c, ids)).toEqual({});
    expect(hubPayments(c, [refund.orderId])).toEqual({ cash: -500000, card: -300000 });
    // The signed refund slip says what the document says.
    const slip = refundSlipOf(rowOf(c, refund.orderId) as never, refund.payments) ?? [];
    expect(slip.join('\n')).toMatch(/Готовина: +5\.000,00/);
    expect(slip.join('\n')).toMatch(/Платна картица: +3\.000,00/);
    expect(slip.join('\n')).toMatch(/Укупно враћено: +8\.000,00/);
  });

  it('partial refunds of a final sale: each document and its record agree per type; the drawer follows the cash', async () => {
    const c = await start();
    await ok<ShiftView>(c, 'shifts.open', { openingFloat: FLOAT });
    const { final } = await chain(c);
    const part = async (index: number, quantity: number, paymentType: string): Promise<OrderView> =>
      makeRefund(c, {
        orderId: final.orderId,
        lines: [{ index, quantity }],
        paymentType,
        buyerId: BUYER,
      });
    const chair = await part(1, 1, 'card');
    const sofa = await part(0, 1, 'cash');
    for (const [refund, expected] of [
      [chair, { card: 150000 }],
      [sofa, { cash: 500000 }],
    ] as const) {
      expect(refund).toMatchObject({ state: 'fiscalized' });
      const doc = await documentOf(c, refund.receipt?.invoiceNumber ?? '');
      expect(doc).toEqual({ paidBack: expected, advancePara: 0 });
      expect(perType(refund.payments)).toEqual(doc.paidBack);
      expect(hubPayments(c, [refund.orderId])).toEqual(
        Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, -v])),
      );
    }
    // Nothing more than what is left: the last chair, 1,500.00.
    const source = await ok<RefundSource>(c, 'refunds.source', { orderId: final.orderId });
    expect(source.lines.map((l) => l.remainingMilli)).toEqual([0, 1000]);
    const shift = await ok<ShiftView>(c, 'shifts.current');
    expect(shift.expectedPara).toBe(FLOAT * 100);
    await reportWithRefunds(c, { count: 2, totalPara: 650000 }, [
      ['card', 300000, 150000],
      ['cash', 500000, 500000],
    ]);
  });

  it('a chain of two advances (2,000.00 card, then 1,000.00 cash) and a final of 5,000.00 cash: refunded in full as 6,000.00 cash + 2,000.00 card', async () => {
    const c = await start();
    await ok<ShiftView>(c, 'shifts.open', { openingFloat: FLOAT });
    const first = await ok<OrderView>(c, 'sales.checkout', {
      invoiceType: 'advance',
      lines: [{ name: 'Аванс', quantity: 1, unitPrice: 2000, labels: ['A'] }],
      payments: [{ type: 'card', amount: 2000 }],
      buyerId: BUYER,
    });
    const second = await ok<OrderView>(c, 'advances.add', {
      orderId: first.orderId,
      lines: [{ name: 'Аванс', quantity: 1, unitPrice: 1000, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 1000 }],
    });
    const final = await ok<OrderView>(c, 'advances.finalize', {
      orderId: second.orderId,
      lines: GOODS,
      payments: [{ type: 'cash', amount: 5000 }],
    });
    expect(final).toMatchObject({ state: 'fiscalized', totalPara: 800000 });
    const refund = await makeRefund(c, {
      orderId: final.orderId,
      full: true,
      buyerId: BUYER,
    });
    const doc = await documentOf(c, refund.receipt?.invoiceNumber ?? '');
    expect(doc).toEqual({ paidBack: { cash: 600000, card: 200000 }, advancePara: 0 });
    expect(perType(refund.payments)).toEqual(doc.paidBack);
    // The drawer took 1,000.00 + 5,000.00 in cash and paid 6,000.00 back.
    expect((await ok<ShiftView>(c, 'shifts.current')).expectedPara).toBe(FLOAT * 100);
  });
});
