import { describe, expect, it } from 'vitest';
import type { IssuedReceipt } from '../gateway/types.ts';
import type { OrderRow } from '../orders/store.ts';
import { queuedOrderRow } from '../../test/support/order-row.ts';
import { checkReceipt, verifyReceipt } from './verify.ts';

const body = {
  orderNumber: 'KASAAB12-20261123-XYZ123-0002',
  items: [
    { name: 'Хлеб', quantity: 1, unitPrice: 100, totalAmount: 100, labels: ['A'] },
    { name: 'Млеко', quantity: 2, unitPrice: 100, totalAmount: 200, labels: ['A'] },
  ],
  payments: [{ type: 'cash', amount: 300 }],
  metaFields: { terminal: 'KASAAB12', cashier: 'Ана' },
};

const row = (over: Partial<OrderRow> = {}): OrderRow =>
  queuedOrderRow({
    order_number: body.orderNumber,
    total_para: 30_000,
    data: '{"lines":[],"payments":[]}',
    request: JSON.stringify(body),
    ...over,
  });

const receipt = (over: Record<string, unknown> = {}): IssuedReceipt =>
  ({
    invoiceNumber: 'AB12CD34-AB12CD34-2',
    sdcDateTime: '2026-11-23T10:00:01.000Z',
    orderNumber: body.orderNumber,
    invoiceType: 'normal',
    transactionType: 'sale',
    totalAmount: 300,
    metaFields: { terminal: 'KASAAB12', cashier: 'Ана' },
    ...over,
  }) as IssuedReceipt;

const fields = (r: IssuedReceipt, o = row(), extra: IssuedReceipt[] = []) =>
  verifyReceipt(o, r, extra).map((m) => m.field);
/** The "differs — check" notes (never identity) of a receipt. */
const notes = (r: IssuedReceipt, o = row(), extra: IssuedReceipt[] = []) =>
  checkReceipt(o, r, extra).notes.map((m) => m.field);

describe('verifyReceipt', () => {
  it('accepts the order’s own receipt, and one that carries only the fields the spec promises', () => {
    expect(verifyReceipt(row(), receipt())).toEqual([]);
    expect(verifyReceipt(row(), { invoiceNumber: 'X-Y-1', sdcDateTime: '2026-11-23T10:00:01Z' })).toEqual([]);
    // Spellings differ between the spec and the vendor's SDK: types compare case-insensitively.
    expect(verifyReceipt(row(), receipt({ invoiceType: 'Normal', transactionType: 'Sale' }))).toEqual([]);
    // A refund total may come back negative.
    expect(
      verifyReceipt(row({ transaction_type: 'refund' }), receipt({ transactionType: 'refund', totalAmount: -300 })),
    ).toEqual([]);
  });

  it('names each field of another sale’s receipt', () => {
    expect(fields(receipt({ orderNumber: 'KASAAB12-20261123-XYZ123-0001' }))).toEqual(['orderNumber']);
    expect(fields(receipt({ invoiceType: 'training' }))).toEqual(['invoiceType']);
    expect(fields(receipt({ transactionType: 'refund' }))).toEqual(['transactionType']);
    expect(verifyReceipt(row(), receipt({ totalAmount: 110 }))).toEqual([
      { field: 'totalAmount', expected: '300,00', got: '110,00' },
    ]);
    // metaFields are not identity: a changed one is a note, the receipt is still this order's.
    const meta = receipt({ metaFields: { terminal: 'KASAAB12', cashier: 'Марко' } });
    expect(fields(meta)).toEqual([]);
    expect(notes(meta)).toEqual(['metaFields.cashier']);
  });

  it('items and payments are never identity: differences are notes for a manager', () => {
    const items = [{ totalAmount: 100 }, { totalAmount: 200 }];
    expect(checkReceipt(row(), receipt({ items, payments: [{ type: 'Cash', amount: 300 }] }))).toEqual({
      identity: [],
      notes: [],
    });
    for (const r of [
      receipt({ items: [{ totalAmount: 300 }] }),
      receipt({ items: [{ totalAmount: 100 }, { totalAmount: 250 }] }),
      receipt({ payments: [{ type: 'cash', amount: 200 }] }),
      receipt({ payments: [{ type: 'card', amount: 300 }] }),
    ]) {
      expect(fields(r)).toEqual([]);
      expect(notes(r)).toHaveLength(1);
    }
    expect(
      checkReceipt(
        row(),
        receipt({ items: [{ name: 'Хлеб', quantity: 1, unitPrice: 100, totalAmount: 100, labels: ['A'] }] }),
      ).notes,
    ).toEqual([{ field: 'items', expected: 'Млеко 2 × 100,00 = 200,00 [A]', got: '—' }]);
  });

  it('items compare as a multiset: another order is the same items', () => {
    const sdk = [
      { name: 'Млеко', gtin: '', quantity: 2, unitPrice: 100, totalAmount: 200, labels: ['A'] },
      { name: 'Хлеб', gtin: '', quantity: 1, unitPrice: 100, totalAmount: 100, labels: ['A'] },
    ];
    expect(checkReceipt(row(), receipt({ items: sdk }))).toEqual({ identity: [], notes: [] });
    // Same totals, one quantity different: noted.
    expect(notes(receipt({ items: [sdk[0], { ...sdk[1], quantity: 2, unitPrice: 50 }] }))).toEqual(['items']);
    // Two equal lines are two: one of them missing is noted.
    const twice = row({
      request: JSON.stringify({ ...body, items: [body.items[0], body.items[0]] }),
      total_para: 20_000,
    });
    expect(notes(receipt({ totalAmount: 200, items: [body.items[0]] }), twice)).toEqual(['items']);
  });

  it('a full refund’s items are the original’s: not compared', () => {
    const sent = {
      ...body,
      items: [{ name: 'Поврат X', quantity: 1, unitPrice: 300, totalAmount: 300, labels: ['A'] }],
      referentDocumentNumber: 'AB12CD34-AB12CD34-1',
    };
    const full = row({ kind: 'refund_full', transaction_type: 'refund', request: JSON.stringify(sent) });
    const back = receipt({
      transactionType: 'refund',
      referentDocumentNumber: 'AB12CD34-AB12CD34-1',
      items: body.items,
      payments: [{ type: 'Cash', amount: 300 }],
    });
    expect(checkReceipt(full, back)).toEqual({ identity: [], notes: [] });
    // A partial refund with the same difference is noted (never parked).
    const partial = row({ kind: 'refund', transaction_type: 'refund', request: JSON.stringify(sent) });
    expect(checkReceipt(partial, back)).toMatchObject({ identity: [], notes: [{ field: 'items' }] });
  });

  it('a finalize’s payment may come back as {type, amount} without advanceAmount', () => {
    const sent = {
      ...body,
      payments: [{ type: 'cash', amount: 0, advanceAmount: 300 }],
      referentDocumentNumber: 'ADV00001-ADV00001-4',
    };
    const fin = row({
      kind: 'finalize',
      invoice_type: 'normal',
      transaction_type: 'finalize',
      request: JSON.stringify(sent),
    });
    expect(checkReceipt(fin, receipt({ payments: [{ type: 'Cash', amount: 0 }] }))).toEqual({
      identity: [],
      notes: [],
    });
    expect(checkReceipt(fin, receipt({ payments: [{ type: 'cash', amount: 0, advanceAmount: 300 }] }))).toEqual({
      identity: [],
      notes: [],
    });
    expect(notes(receipt({ payments: [{ type: 'cash', amount: 0, advanceAmount: 200 }] }), fin)).toEqual(['payments']);
  });

  it('a finalize is answered by a normal sale and the advance refund of the same order', () => {
    const fin = row({ kind: 'finalize', invoice_type: 'normal', transaction_type: 'finalize' });
    const refund = receipt({ invoiceNumber: 'AB12CD34-AB12CD34-3', invoiceType: 'advance', transactionType: 'refund' });
    expect(fields(receipt(), fin, [refund])).toEqual([]);
    expect(fields(receipt(), fin, [{ ...refund, orderNumber: 'OTHER' }])).toEqual(['extraReceipts.0.orderNumber']);
  });

  it('a refund or copy must name the receipt it was sent for', () => {
    const sent = { ...body, referentDocumentNumber: 'AB12CD34-AB12CD34-1' };
    const refund = row({ kind: 'refund', transaction_type: 'refund', request: JSON.stringify(sent) });
    const own = receipt({ transactionType: 'refund', referentDocumentNumber: 'AB12CD34-AB12CD34-1' });
    expect(fields(own, refund)).toEqual([]);
    expect(
      fields(receipt({ transactionType: 'refund', referentDocumentNumber: 'AB12CD34-AB12CD34-9' }), refund),
    ).toEqual(['referentDocumentNumber']);
    const copy = row({ kind: 'copy', invoice_type: 'copy', request: JSON.stringify(sent) });
    expect(fields(receipt({ invoiceType: 'copy', referentDocumentNumber: 'AB12CD34-AB12CD34-1' }), copy)).toEqual([]);
    expect(fields(receipt({ invoiceType: 'copy', referentDocumentNumber: 'AB12CD34-AB12CD34-7' }), copy)).toEqual([
      'referentDocumentNumber',
    ]);
  });

  it('a finalize: the advance refund must be an advance refund of the advance the request names', () => {
    const sent = { ...body, referentDocumentNumber: 'ADV00001-ADV00001-4' };
    const fin = row({
      kind: 'finalize',
      invoice_type: 'normal',
      transaction_type: 'finalize',
      request: JSON.stringify(sent),
    });
    // The final sale refers to the advance refund, not to the advance: no mismatch there.
    const final = receipt({ referentDocumentNumber: 'ADV00001-ADV00001-5' });
    const refund = receipt({
      invoiceNumber: 'ADV00001-ADV00001-5',
      invoiceType: 'advance',
      transactionType: 'refund',
      referentDocumentNumber: 'ADV00001-ADV00001-4',
    });
    expect(fields(final, fin, [refund])).toEqual([]);
    expect(fields(final, fin)).toEqual([]); // lookup/archive: only the final receipt comes back
    expect(fields(final, fin, [{ ...refund, invoiceType: 'normal' }])).toEqual(['extraReceipts.0.invoiceType']);
    expect(fields(final, fin, [{ ...refund, transactionType: 'sale' }])).toEqual(['extraReceipts.0.transactionType']);
    expect(fields(final, fin, [{ ...refund, referentDocumentNumber: 'ADV00001-ADV00001-2' } as IssuedReceipt])).toEqual(
      ['extraReceipts.0.referentDocumentNumber'],
    );
    expect(fields(final, fin, [{ ...refund, invoiceNumber: final.invoiceNumber }])).toEqual([
      'extraReceipts.0.invoiceNumber',
      'referentDocumentNumber',
    ]);
    // The final sale must refer to the advance refund it came with.
    expect(fields(receipt({ referentDocumentNumber: 'ADV00001-ADV00001-9' }), fin, [refund])).toEqual([
      'referentDocumentNumber',
    ]);
  });
});
