/**
 * Kasa's orders on the L-PFR: every kind Kasa issues mapped from its frozen gateway body (built with Kasa's
 * own item builder), signed by the sandbox over real HTTP, and read back as the IssuedReceipt Kasa stores,
 * verifies and prints. A property test over random carts: the mapped totals are accepted and kept in para.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderKind, OrderLine, PaymentType } from '../../shared/domain.ts';
import { lineTotal, paraToDecimal, toPara } from '../../shared/money.ts';
import { receiptItems } from '../../shared/receipt-items.ts';
import { IssuedReceiptSchema, type ReceiptRequest } from '../../electron/gateway/types.ts';
import { toReceiptView, type OrderRow } from '../../electron/orders/store.ts';
import { checkReceipt } from '../../electron/outbox/verify.ts';
import { receiptDocument } from '../../electron/printer/layout.ts';
import { findPreset } from '../../electron/printer/profiles.ts';
import {
  LPFR_PAYMENT_OF,
  LpfrUnsupportedError,
  lpfrToIssuedReceipt,
  toLpfrInvoice,
  type LpfrOrder,
} from '../../electron/lpfr/map.ts';
import type { LpfrInvoiceResult } from '../../electron/lpfr/types.ts';
import { queuedOrderRow } from '../support/order-row.ts';
import { Kit } from './helpers.ts';

const kit = new Kit();
afterEach(() => kit.cleanup());

function line(name: string, quantityMilli: number, unitPricePara: number, label: string, discountPara = 0): OrderLine {
  return {
    name,
    quantityMilli,
    unitPricePara,
    discountPara,
    totalPara: lineTotal(unitPricePara, quantityMilli, discountPara),
    labels: [label],
  };
}

const LINES: OrderLine[] = [
  { ...line('Хлеб', 2000, 6999, 'A'), gtin: '8600000000011' },
  line('Сир', 347, 129900, 'Ж'),
  // 3 × 100,00 less 1,00: Kasa sends two items that each multiply out (2 × 99,67 + 1 × 99,66).
  line('Кафа', 3000, 10000, 'F', 100),
];

/** A frozen gateway body as Kasa's sales and back office build it. */
function gatewayBody(
  lines: OrderLine[],
  payments: { type: PaymentType; para: number; advancePara?: number }[],
  extra: Partial<ReceiptRequest> = {},
): string {
  const body: ReceiptRequest = {
    orderNumber: 'T1-20261126-0001',
    items: receiptItems(lines),
    payments: payments.map((p) => ({
      type: p.type,
      amount: paraToDecimal(p.para),
      ...(p.advancePara ? { advanceAmount: paraToDecimal(p.advancePara) } : {}),
    })),
    metaFields: { terminal: 'T1', cashier: 'Мара', capturedAt: '2026-11-26T06:00:00.000Z' },
    settings: { returnIfOrderNumberExists: true },
    cashier: 'Мара',
    ...extra,
  };
  return JSON.stringify(body);
}

const total = (lines: OrderLine[]) => lines.reduce((s, l) => s + l.totalPara, 0);

function row(order: LpfrOrder, totalPara: number): OrderRow {
  const sent = JSON.parse(order.request) as { orderNumber: string };
  return queuedOrderRow({
    order_number: sent.orderNumber,
    kind: order.kind,
    invoice_type: order.invoiceType as OrderRow['invoice_type'],
    transaction_type: order.transactionType as OrderRow['transaction_type'],
    created_at: '2026-11-26T06:00:00.000Z',
    total_para: totalPara,
    request: order.request,
  });
}

describe('toLpfrInvoice', () => {
  it('a normal sale: types, cashier, ESIR number, amounts to the para, quantities to the thousandth', () => {
    const order: LpfrOrder = {
      kind: 'sale',
      invoiceType: 'normal',
      transactionType: 'sale',
      request: gatewayBody(LINES, [
        { type: 'card', para: 50000 },
        { type: 'cash', para: total(LINES) - 50000 },
      ]),
    };
    const sent = JSON.parse(toLpfrInvoice(order, { cashier: 'Каса', esirNumber: '1060/1.2' })) as Record<
      string,
      unknown
    >;
    expect(sent).toEqual({
      cashier: 'Мара',
      invoiceType: 'Normal',
      transactionType: 'Sale',
      payment: [
        { amount: 500, paymentType: 'Card' },
        { amount: 389.73, paymentType: 'Cash' },
      ],
      // „ЕСИР број“: the ESIR's IB/version, never the order number (that is the RequestId).
      invoiceNumber: '1060/1.2',
      options: { omitQRCodeGen: '1', omitTextualRepresentation: '0' },
      items: [
        { gtin: '8600000000011', name: 'Хлеб', quantity: 2, unitPrice: 69.99, labels: ['A'], totalAmount: 139.98 },
        { name: 'Сир', quantity: 0.347, unitPrice: 1299, labels: ['Ж'], totalAmount: 450.75 },
        { name: 'Кафа, попуст 0,66', quantity: 2, unitPrice: 99.67, labels: ['F'], totalAmount: 199.34 },
        { name: 'Кафа, попуст 0,34', quantity: 1, unitPrice: 99.66, labels: ['F'], totalAmount: 99.66 },
      ],
    });
    // The same order maps to the same bytes (a retry resends them).
    expect(toLpfrInvoice(order, { cashier: 'Каса' })).toBe(toLpfrInvoice(order, { cashier: 'Каса' }));
  });

  it('every Kasa payment type has an L-PFR code; the cashier falls back to the context', () => {
    // Read the other way round, from the L-PFR's seven codes (the table in docs/lpfr.md): the Kasa types on each.
    const kasaTypesOf = (code: string): string[] =>
      Object.entries(LPFR_PAYMENT_OF)
        .filter(([, lpfr]) => lpfr === code)
        .map(([kasa]) => kasa)
        .sort();
    expect(
      Object.fromEntries(
        ['Cash', 'Card', 'Check', 'WireTransfer', 'Voucher', 'MobileMoney', 'Other'].map((c) => [c, kasaTypesOf(c)]),
      ),
    ).toEqual({
      Cash: ['cash'],
      Card: ['card'],
      Check: ['check'],
      WireTransfer: ['virman', 'wireTransfer'],
      Voucher: ['voucher'],
      MobileMoney: ['mobile', 'mobileMoney'],
      Other: ['account', 'factoring', 'other'],
    });
    const request = JSON.stringify({
      ...JSON.parse(gatewayBody(LINES, [{ type: 'virman', para: total(LINES) }])),
      cashier: undefined,
      metaFields: {},
    });
    const sent = JSON.parse(
      toLpfrInvoice({ kind: 'sale', invoiceType: 'normal', transactionType: 'sale', request }, { cashier: 'Каса 1' }),
    ) as Record<string, unknown>;
    expect(sent['cashier']).toBe('Каса 1');
    expect(sent['payment']).toEqual([{ amount: 889.73, paymentType: 'WireTransfer' }]);
  });

  it('refuses what the L-PFR cannot issue, with a typed reason (the order stays for the gateway)', () => {
    const pay = [{ type: 'cash' as const, para: total(LINES) }];
    const reason = (order: LpfrOrder): string => {
      try {
        toLpfrInvoice(order, { cashier: 'К' });
      } catch (e) {
        if (e instanceof LpfrUnsupportedError) return e.reason;
        throw e;
      }
      return 'mapped';
    };
    const base = { transactionType: 'sale', request: gatewayBody(LINES, pay) };
    expect(reason({ ...base, kind: 'finalize', invoiceType: 'normal', transactionType: 'finalize' })).toBe('finalize');
    expect(
      reason({
        kind: 'copy',
        invoiceType: 'copy',
        transactionType: 'sale',
        request: gatewayBody(LINES, [{ type: 'cash', para: 50000, advancePara: total(LINES) - 50000 }], {
          referentDocumentNumber: 'KS7LPF01-KS7LPF01-1',
          referentDocumentDt: '2026-11-26T06:00:00.000Z',
        }),
      }),
    ).toBe('advance_payment');
    expect(reason({ ...base, kind: 'refund', invoiceType: 'normal', transactionType: 'refund' })).toBe('no_reference');
    expect(reason({ ...base, kind: 'copy', invoiceType: 'copy' })).toBe('no_reference');
    expect(reason({ ...base, kind: 'refund', invoiceType: 'proforma', transactionType: 'refund' })).toBe(
      'invoice_type',
    );
    expect(reason({ ...base, kind: 'sale', invoiceType: 'normal', request: '{"orderNumber":"x"}' })).toBe('malformed');
    expect(reason({ ...base, kind: 'sale', invoiceType: 'constructor' })).toBe('invoice_type');
    const foreignPayment = gatewayBody(LINES, pay).replace('"type":"cash"', '"type":"toString"');
    expect(reason({ ...base, kind: 'sale', invoiceType: 'normal', request: foreignPayment })).toBe('malformed');
    expect(reason({ ...base, kind: 'sale', invoiceType: 'normal' })).toBe('mapped');
  });
});

describe('every kind Kasa issues, signed by the L-PFR sandbox and read back', () => {
  it('sale (normal, training, proforma, advance), refund, full refund and copy', async () => {
    const { sandbox, client } = await kit.ready();
    const uid = sandbox.uid;
    const t = total(LINES);
    const sign = async (order: LpfrOrder, requestId: string) => {
      const body = toLpfrInvoice(order, { cashier: 'Каса' });
      const result: LpfrInvoiceResult = await client.signInvoice(body, requestId);
      const receipt = lpfrToIssuedReceipt(result, body);
      return { body, result, receipt };
    };
    const sale: LpfrOrder = {
      kind: 'sale',
      invoiceType: 'normal',
      transactionType: 'sale',
      request: gatewayBody(LINES, [{ type: 'cash', para: t }]),
    };
    const s = await sign(sale, 'k-sale');
    expect(s.result.invoiceCounter).toBe('1/1ПП');
    const ref = { invoiceNumber: s.receipt.invoiceNumber, sdcDateTime: s.receipt.sdcDateTime };

    const partial = [LINES[0] as OrderLine];
    const kinds: { order: LpfrOrder; counter: string; totalPara: number }[] = [
      {
        order: { ...sale, invoiceType: 'training', request: gatewayBody(LINES, [{ type: 'other', para: t }]) },
        counter: '1/2ОП',
        totalPara: t,
      },
      {
        order: { ...sale, invoiceType: 'proforma', request: gatewayBody(LINES, [{ type: 'other', para: t }]) },
        counter: '1/3РП',
        totalPara: t,
      },
      {
        order: {
          ...sale,
          invoiceType: 'advance',
          request: gatewayBody(partial, [{ type: 'card', para: total(partial) }], {
            dateTimeOfIssue: '2026-11-26T06:00:00.000Z',
          }),
        },
        counter: '1/4АП',
        totalPara: total(partial),
      },
      {
        order: {
          kind: 'refund',
          invoiceType: 'normal',
          transactionType: 'refund',
          request: gatewayBody(partial, [{ type: 'cash', para: total(partial) }], { buyerId: '10:123456789' }),
          referent: ref,
        },
        counter: '1/5ПР',
        totalPara: total(partial),
      },
      {
        order: {
          kind: 'refund_full',
          invoiceType: 'normal',
          transactionType: 'refund',
          request: gatewayBody(LINES, [{ type: 'cash', para: t }], {
            referentDocumentNumber: ref.invoiceNumber,
            referentDocumentDt: ref.sdcDateTime,
          }),
        },
        counter: '2/6ПР',
        totalPara: t,
      },
      {
        order: { kind: 'copy', invoiceType: 'copy', transactionType: 'sale', request: sale.request, referent: ref },
        counter: '1/7КП',
        totalPara: t,
      },
    ];
    const profile = findPreset('generic-80');
    if (!profile) throw new Error('no generic-80 profile');
    for (const [i, k] of [{ order: sale, counter: '1/1ПП', totalPara: t }, ...kinds].entries()) {
      const { receipt } = i === 0 ? s : await sign(k.order, `k-${k.order.kind}-${k.order.invoiceType}`);
      expect(receipt.invoiceCounter).toBe(k.counter);
      expect(receipt.invoiceNumber).toMatch(new RegExp(`^${uid}-${uid}-${i + 1}$`));
      expect(toPara(receipt.totalAmount ?? -1)).toBe(k.totalPara);
      // What Kasa stores: a valid IssuedReceipt, this order's by its identity check.
      expect(IssuedReceiptSchema.safeParse(receipt).success).toBe(true);
      expect(checkReceipt(row(k.order, k.totalPara), receipt).identity).toEqual([]);
      // What Kasa prints: the journal verbatim, the QR of verificationUrl right before the end marker.
      const view = toReceiptView(receipt);
      expect(view.totalPara).toBe(k.totalPara);
      const doc = receiptDocument(view, profile);
      const qr = doc.blocks.findIndex((b) => b.type === 'qr');
      const next = doc.blocks[qr + 1];
      expect(doc.blocks[qr]).toEqual({ type: 'qr', data: receipt.verificationUrl });
      expect(next?.type === 'text' && next.text).toBe('======== КРАЈ ФИСКАЛНОГ РАЧУНА =========');
      expect(doc.blocks.filter((b) => b.type === 'text')).toHaveLength((receipt.journal ?? '').split('\r\n').length);
    }
    const ledger = sandbox.controls.ledger().invoices;
    expect(ledger.map((l) => `${l.invoiceType}/${l.transactionType}`)).toEqual([
      'Normal/Sale',
      'Training/Sale',
      'ProForma/Sale',
      'Advance/Sale',
      'Normal/Refund',
      'Normal/Refund',
      'Copy/Sale',
    ]);
    expect(ledger.slice(4).map((l) => l.referentDocumentNumber)).toEqual([
      ref.invoiceNumber,
      ref.invoiceNumber,
      ref.invoiceNumber,
    ]);
  });

  it('property: for random carts the mapped totals are accepted and the receipt keeps the total in para', async () => {
    const { client } = await kit.ready();
    const labels = ['A', 'F', 'E', 'Ж', 'B'];
    const types: PaymentType[] = ['cash', 'card', 'voucher', 'mobile', 'virman', 'check', 'account'];
    const lineArb = fc.record({
      name: fc.constantFrom('Хлеб', 'Млеко', 'Jaja', 'Šećer', 'Кафа 200г'),
      quantityMilli: fc.oneof(
        fc.integer({ min: 1, max: 20 }).map((n) => n * 1000),
        fc.integer({ min: 1, max: 25_000 }),
      ),
      unitPricePara: fc.integer({ min: 1, max: 5_000_000 }),
      discountPct: fc.integer({ min: 0, max: 30 }),
      label: fc.constantFrom(...labels),
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineArb, { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom(...types), { minLength: 1, maxLength: 3 }),
        fc.constantFrom<OrderKind>('sale', 'refund'),
        async (raw, payTypes, kind) => {
          const lines = raw.map((l) => {
            const gross = lineTotal(l.unitPricePara, l.quantityMilli);
            return line(l.name, l.quantityMilli, l.unitPricePara, l.label, Math.floor((gross * l.discountPct) / 100));
          });
          const t = total(lines);
          // Split the total over the payment types, the rest on the last.
          const payments = payTypes.map((type, i) => ({
            type,
            para: i < payTypes.length - 1 ? Math.floor(t / payTypes.length) : t - Math.floor(t / payTypes.length) * i,
          }));
          const order: LpfrOrder = {
            kind,
            invoiceType: 'normal',
            transactionType: kind,
            request: gatewayBody(lines, payments),
            ...(kind === 'refund'
              ? { referent: { invoiceNumber: 'F7CBZMLQ-Dt1Ov1o0-2109', sdcDateTime: '2026-11-20T10:00:00.000Z' } }
              : {}),
          };
          const body = toLpfrInvoice(order, { cashier: 'Каса' });
          const result = await client.signInvoice(body, `prop-${n++}`);
          const receipt = lpfrToIssuedReceipt(result, body);
          expect(toPara(receipt.totalAmount ?? -1)).toBe(t);
          expect(toReceiptView(receipt).totalPara).toBe(t);
          expect(checkReceipt(row(order, t), receipt).identity).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
