/** verifyReceipt: every field it compares, for every kind of order, and what it leaves alone. */
import { describe, expect, it } from 'vitest';
import type { IssuedReceipt } from '../gateway/types.ts';
import { RECEIPT_MISMATCH, mismatchError, verifyReceipt, type VerifiableOrder } from './verify.ts';

const body = {
  orderNumber: 'KASA1-7KQ2MX1-20261123-00002',
  items: [
    { name: 'Хлеб', quantity: 3, unitPrice: 80, totalAmount: 240, labels: ['A'] },
    { name: 'Млеко', quantity: 2, unitPrice: 150, totalAmount: 300, labels: ['A'] },
  ],
  payments: [
    { type: 'card', amount: 500 },
    { type: 'cash', amount: 40 },
  ],
  metaFields: { terminal: 'KASA1', cashier: 'Ана' },
  settings: { returnIfOrderNumberExists: true },
};

const sale: VerifiableOrder = {
  order_number: body.orderNumber,
  kind: 'sale',
  invoice_type: 'normal',
  transaction_type: 'sale',
  total_para: 54_000,
  request: JSON.stringify(body),
};

const own = (over: Record<string, unknown> = {}): IssuedReceipt => ({
  invoiceNumber: 'AAAA1111-BBBB2222-7',
  sdcDateTime: '2026-11-23T09:00:00.000Z',
  orderNumber: body.orderNumber,
  invoiceType: 'normal',
  transactionType: 'sale',
  totalAmount: 540,
  metaFields: { cashier: 'Ана', terminal: 'KASA1' },
  ...over,
});

const fields = (order: VerifiableOrder, r: IssuedReceipt, extra: IssuedReceipt[] = []) => verifyReceipt(order, r, extra).map((m) => m.field);

describe('verifyReceipt', () => {
  it("accepts the order's own receipt (types in any case, metaFields in any key order)", () => {
    expect(verifyReceipt(sale, own())).toEqual([]);
    expect(verifyReceipt(sale, own({ invoiceType: 'NORMAL', transactionType: 'Sale', totalAmount: '540.00' }))).toEqual([]);
  });

  it('leaves out what the receipt does not carry', () => {
    const bare: IssuedReceipt = { invoiceNumber: 'X-Y-1', sdcDateTime: '2026-11-23T09:00:00Z' };
    expect(verifyReceipt(sale, bare)).toEqual([]);
  });

  it('names the order number, invoice type, transaction type, total and metaFields that differ', () => {
    expect(verifyReceipt(sale, own({ orderNumber: 'KASA1-20261123-00002' }))).toEqual([
      { field: 'orderNumber', expected: body.orderNumber, actual: 'KASA1-20261123-00002' },
    ]);
    expect(fields(sale, own({ invoiceType: 'training' }))).toEqual(['invoiceType']);
    expect(fields(sale, own({ transactionType: 'refund' }))).toEqual(['transactionType']);
    expect(verifyReceipt(sale, own({ totalAmount: 110 }))).toEqual([{ field: 'totalAmount', expected: '540.00', actual: '110.00' }]);
    expect(fields(sale, own({ totalAmount: 540.01 }))).toEqual(['totalAmount']);
    expect(fields(sale, own({ metaFields: { terminal: 'KASA2', cashier: 'Ана' } }))).toEqual(['metaFields']);
  });

  it('compares item count and each item total, and payments by type and amount, when the receipt lists them', () => {
    const items = body.items.map((i) => ({ ...i }));
    expect(verifyReceipt(sale, own({ items, payments: body.payments }))).toEqual([]);
    expect(fields(sale, own({ items: items.slice(0, 1) }))).toEqual(['items.length']);
    expect(verifyReceipt(sale, own({ items: [items[0], { ...items[1], totalAmount: 299 }] }))).toEqual([
      { field: 'items[1].totalAmount', expected: '300.00', actual: '299.00' },
    ]);
    expect(fields(sale, own({ payments: body.payments.slice(1) }))).toEqual(['payments.length']);
    expect(fields(sale, own({ payments: [{ type: 'cash', amount: 500 }, body.payments[1]] }))).toEqual(['payments[0].type']);
    expect(fields(sale, own({ payments: [body.payments[0], { type: 'cash', amount: 41 }] }))).toEqual(['payments[1].amount']);
  });

  it('refunds: transaction type refund and the referenced document; a full refund is judged by its total only', () => {
    const refundBody = { ...body, referentDocumentNumber: 'AAAA1111-BBBB2222-3' };
    const refund: VerifiableOrder = { ...sale, kind: 'refund', transaction_type: 'refund', request: JSON.stringify(refundBody) };
    const r = own({ transactionType: 'refund', referentDocumentNumber: 'AAAA1111-BBBB2222-3' });
    expect(verifyReceipt(refund, r)).toEqual([]);
    expect(fields(refund, own({ referentDocumentNumber: 'AAAA1111-BBBB2222-3' }))).toEqual(['transactionType']);
    expect(fields(refund, own({ transactionType: 'refund', referentDocumentNumber: 'AAAA1111-BBBB2222-4' }))).toEqual(['referentDocumentNumber']);
    const full: VerifiableOrder = { ...refund, kind: 'refund_full' };
    expect(verifyReceipt(full, own({ transactionType: 'refund', items: [{ totalAmount: 540 }] }))).toEqual([]);
    expect(fields(full, own({ transactionType: 'refund', totalAmount: 1 }))).toEqual(['totalAmount']);
  });

  it('copies: invoice type copy, transaction type sale', () => {
    const copy: VerifiableOrder = { ...sale, kind: 'copy', invoice_type: 'copy' };
    expect(verifyReceipt(copy, own({ invoiceType: 'copy' }))).toEqual([]);
    expect(fields(copy, own())).toEqual(['invoiceType']);
  });

  it('finalize: the final receipt is a normal sale, the advance refund cancels the advance named in the request', () => {
    const finBody = { ...body, payments: [{ type: 'cash', amount: 0, advanceAmount: 540 }], referentDocumentNumber: 'ADV-1-1' };
    const fin: VerifiableOrder = { ...sale, kind: 'finalize', transaction_type: 'finalize', request: JSON.stringify(finBody) };
    const final = own({ referentDocumentNumber: 'ADV-1-2', metaFields: body.metaFields });
    const refund = own({ invoiceNumber: 'ADV-1-2', invoiceType: 'advance', transactionType: 'refund', referentDocumentNumber: 'ADV-1-1' });
    expect(verifyReceipt(fin, final, [refund])).toEqual([]);
    expect(fields(fin, final, [])).toEqual(['refundReceipt']);
    expect(fields(fin, final, [{ ...refund, invoiceType: 'normal' }])).toEqual(['refundReceipt.invoiceType']);
    expect(fields(fin, final, [{ ...refund, transactionType: 'sale' }])).toEqual(['refundReceipt.transactionType']);
    expect(fields(fin, final, [{ ...refund, orderNumber: 'OTHER' }])).toEqual(['refundReceipt.orderNumber']);
    expect(fields(fin, final, [{ ...refund, referentDocumentNumber: 'ADV-1-9' }])).toEqual(['refundReceipt.referentDocumentNumber']);
    expect(fields(fin, final, [{ ...refund, invoiceNumber: final.invoiceNumber }])).toEqual(['refundReceipt.invoiceNumber']);
    expect(fields(fin, own({ invoiceType: 'advance' }), [refund])).toEqual(['invoiceType']);
  });

  it('mismatchError: stored under its own code with every field named', () => {
    const m = verifyReceipt(sale, own({ invoiceNumber: 'AAAA1111-BBBB2222-2', totalAmount: 110 }));
    const e = mismatchError(own({ invoiceNumber: 'AAAA1111-BBBB2222-2' }), m);
    expect(e).toMatchObject({ status: null, code: RECEIPT_MISMATCH, fields: [{ field: 'totalAmount', message: '540.00 ≠ 110.00' }] });
    expect(e.message).toContain('AAAA1111-BBBB2222-2');
  });
});
