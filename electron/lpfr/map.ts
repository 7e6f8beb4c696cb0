/**
 * Kasa's orders on the L-PFR, in one place: a frozen gateway ReceiptRequest (what the outbox holds) becomes
 * an InvoiceRequest, and an InvoiceResult becomes the IssuedReceipt the rest of Kasa stores and prints
 * (verbatim journal, QR of verificationUrl). The table and its reasons are in docs/lpfr.md, "Mapping".
 *
 * Money is integer para between the two: every amount is read with toPara and written with paraToDecimal,
 * every quantity with toMilli / milliToDecimal, so nothing is rounded twice.
 */
import { z } from 'zod';
import { KasaError } from '../../shared/errors.ts';
import type { OrderKind, PaymentType } from '../../shared/domain.ts';
import { milliToDecimal, paraToDecimal, toMilli, toPara } from '../../shared/money.ts';
import type { IssuedReceipt } from '../gateway/types.ts';
import {
  LPFR_INVOICE_TYPES,
  LPFR_PAYMENT_TYPES,
  LPFR_TRANSACTION_TYPES,
  readEnum,
  type LpfrInvoiceType,
  type LpfrPaymentType,
  type LpfrTransactionType,
} from './protocol.ts';
import type { LpfrInvoiceResult } from './types.ts';

/** Why an order cannot go to an L-PFR (it stays queued for the gateway). */
export type LpfrUnsupportedReason =
  /** An advance's finalize is two invoices (advance refund + final sale) in one gateway call. */
  | 'finalize'
  /** A payment carries `advanceAmount` (a final sale's copy): the L-PFR has no such field. */
  | 'advance_payment'
  /** An item carries a `discount`: Kasa never sends one, and the PFR's reading of it is not verified. */
  | 'item_discount'
  /** An invoice/transaction type pair the L-PFR path does not issue (e.g. a refund of a proforma). */
  | 'invoice_type'
  /** A refund or copy without the referenced invoice (its number and time). */
  | 'no_reference'
  /** The frozen request cannot be read (not JSON, a field missing or malformed). */
  | 'malformed';

/** An order the L-PFR cannot represent: the caller keeps it for the gateway. */
export class LpfrUnsupportedError extends KasaError<'lpfr_unsupported', null> {
  readonly reason: LpfrUnsupportedReason;
  constructor(reason: LpfrUnsupportedReason, message: string) {
    super('lpfr_unsupported', message, { status: null });
    this.name = 'LpfrUnsupportedError';
    this.reason = reason;
  }
}

/**
 * Kasa's (the gateway's) payment types on the L-PFR's seven. `virman` is a wire transfer order; `mobile`
 * is paid through the instant-payment (IPS) system, the Tax Administration's „Инстант плаћање“ (6);
 * factoring and payment on account have no code of their own: „Друго безготовинско плаћање“ (0).
 */
export const LPFR_PAYMENT_OF: Readonly<Record<PaymentType, LpfrPaymentType>> = {
  cash: 'Cash',
  card: 'Card',
  check: 'Check',
  wireTransfer: 'WireTransfer',
  virman: 'WireTransfer',
  voucher: 'Voucher',
  mobileMoney: 'MobileMoney',
  mobile: 'MobileMoney',
  factoring: 'Other',
  account: 'Other',
  other: 'Other',
};

/** Kasa's invoice types on the L-PFR's. */
const INVOICE_TYPE_OF: Readonly<Record<string, LpfrInvoiceType>> = {
  normal: 'Normal',
  proforma: 'ProForma',
  copy: 'Copy',
  training: 'Training',
  advance: 'Advance',
};

/** `table[key]` when it is the table's own entry (never `constructor` and the like from the prototype). */
function own<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** The order as the outbox holds it. */
export interface LpfrOrder {
  kind: OrderKind;
  /** Kasa's invoice type (`normal`, `training`, `proforma`, `advance`, `copy`). */
  invoiceType: string;
  /** Kasa's transaction type (`sale`, `refund`, `finalize`). */
  transactionType: string;
  /** The frozen gateway ReceiptRequest JSON. */
  request: string;
  /** The referenced invoice (refunds, copies), when known outside the request. */
  referent?: { invoiceNumber: string; sdcDateTime: string } | undefined;
}

export interface LpfrMapContext {
  /** The cashier's identification, used when the frozen request names none. */
  cashier: string;
  /** Ask the L-PFR for the QR GIF too (Kasa draws the QR itself from verificationUrl). Default false. */
  qrImage?: boolean;
  /**
   * „ЕСИР број“: the IB from the Tax Administration's approval of this ESIR and its version (`IB/version`), sent as
   * the InvoiceRequest's `invoiceNumber`, which the L-PFR prints on the receipt. Omitted when not set yet.
   */
  esirNumber?: string;
}

const amount = z.union([z.number(), z.string()]);
const FrozenRequestSchema = z.looseObject({
  orderNumber: z.string().min(1),
  items: z
    .array(
      z.looseObject({
        name: z.string().min(1),
        quantity: amount,
        unitPrice: amount,
        totalAmount: amount,
        labels: z.array(z.string().min(1)).min(1),
        gtin: z.string().optional(),
        discount: amount.nullish(),
      }),
    )
    .min(1),
  payments: z.array(z.looseObject({ type: z.string(), amount, advanceAmount: amount.nullish() })).optional(),
  referentDocumentNumber: z.string().optional(),
  referentDocumentDt: z.string().optional(),
  buyerId: z.string().optional(),
  dateTimeOfIssue: z.string().optional(),
  cashier: z.string().optional(),
  metaFields: z.record(z.string(), z.unknown()).optional(),
});

/** The InvoiceRequest Kasa sends (field order as in the guide). */
export interface LpfrInvoiceRequest {
  dateAndTimeOfIssue?: string;
  cashier: string;
  buyerId?: string;
  invoiceType: LpfrInvoiceType;
  transactionType: LpfrTransactionType;
  payment: { amount: number; paymentType: LpfrPaymentType }[];
  invoiceNumber?: string;
  referentDocumentNumber?: string;
  referentDocumentDT?: string;
  options: { omitQRCodeGen: '0' | '1'; omitTextualRepresentation: '0' };
  items: { gtin?: string; name: string; quantity: number; unitPrice: number; labels: string[]; totalAmount: number }[];
}

/** The L-PFR types of an order kind, or the reason it has none. */
export function lpfrTypesOf(order: Pick<LpfrOrder, 'kind' | 'invoiceType'> & { transactionType?: string }): {
  invoiceType: LpfrInvoiceType;
  transactionType: LpfrTransactionType;
} {
  const unsupported = (reason: LpfrUnsupportedReason, what: string) => new LpfrUnsupportedError(reason, what);
  switch (order.kind) {
    case 'finalize':
      throw unsupported('finalize', 'an advance is finalized by two invoices in one call: only through the gateway');
    case 'copy':
      // A copy of a sale, or of a refund (КОПИЈА РЕФУНДАЦИЈА: the buyer signs it, electron/orders/refund-copy.ts).
      return { invoiceType: 'Copy', transactionType: order.transactionType === 'refund' ? 'Refund' : 'Sale' };
    case 'sale': {
      const t = own(INVOICE_TYPE_OF, order.invoiceType);
      if (!t || t === 'Copy') throw unsupported('invoice_type', `a sale of type ${order.invoiceType}`);
      return { invoiceType: t, transactionType: 'Sale' };
    }
    case 'refund':
    case 'refund_full': {
      const t = own(INVOICE_TYPE_OF, order.invoiceType);
      if (t !== 'Normal' && t !== 'Advance' && t !== 'Training')
        throw unsupported('invoice_type', `a refund of type ${order.invoiceType}`);
      return { invoiceType: t, transactionType: 'Refund' };
    }
  }
}

function para(v: number | string, what: string): number {
  const p = toPara(v);
  if (p === null || p < 0) throw new LpfrUnsupportedError('malformed', `${what}: not an amount in para`);
  return p;
}

/**
 * The InvoiceRequest JSON for an order, or an {@link LpfrUnsupportedError} when the L-PFR cannot issue it
 * (the order then stays queued for the gateway). The same order always maps to the same string.
 */
export function toLpfrInvoice(order: LpfrOrder, ctx: LpfrMapContext): string {
  const types = lpfrTypesOf(order);
  let raw: unknown;
  try {
    raw = JSON.parse(order.request);
  } catch {
    throw new LpfrUnsupportedError('malformed', 'the frozen request is not JSON');
  }
  const parsed = FrozenRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const at = parsed.error.issues[0]?.path.join('.') ?? '?';
    throw new LpfrUnsupportedError('malformed', `the frozen request has a missing or wrong field: ${at}`);
  }
  const r = parsed.data;
  const items = r.items.map((it, i) => {
    if (it.discount !== undefined && it.discount !== null && para(it.discount, `items.${i}.discount`) !== 0)
      throw new LpfrUnsupportedError('item_discount', `items.${i} carries a discount`);
    const q = toMilli(it.quantity);
    if (q === null || q <= 0) throw new LpfrUnsupportedError('malformed', `items.${i}.quantity`);
    return {
      // A GTIN the PFR would refuse (2803: 8 to 14 digits) is left out: it is optional, a refusal is not.
      ...(it.gtin && /^\d{8,14}$/.test(it.gtin) ? { gtin: it.gtin } : {}),
      name: it.name,
      quantity: milliToDecimal(q),
      unitPrice: paraToDecimal(para(it.unitPrice, `items.${i}.unitPrice`)),
      labels: [...it.labels],
      totalAmount: paraToDecimal(para(it.totalAmount, `items.${i}.totalAmount`)),
    };
  });
  const payments = (r.payments ?? []).map((p, i) => {
    if (p.advanceAmount !== undefined && p.advanceAmount !== null && para(p.advanceAmount, 'advanceAmount') !== 0)
      throw new LpfrUnsupportedError('advance_payment', `payments.${i} carries an advanceAmount`);
    const type = own(LPFR_PAYMENT_OF, p.type) ?? readEnum(LPFR_PAYMENT_TYPES, p.type);
    if (!type) throw new LpfrUnsupportedError('malformed', `payments.${i}.type ${p.type}`);
    return { amount: paraToDecimal(para(p.amount, `payments.${i}.amount`)), paymentType: type };
  });
  if (payments.length === 0) throw new LpfrUnsupportedError('malformed', 'no payments');

  const needsRef = types.invoiceType === 'Copy' || types.transactionType === 'Refund';
  const refNumber = order.referent?.invoiceNumber ?? r.referentDocumentNumber;
  const refDt = order.referent?.sdcDateTime ?? r.referentDocumentDt;
  if (needsRef && (!refNumber || !refDt))
    throw new LpfrUnsupportedError('no_reference', 'a refund or copy without the referenced invoice');

  const metaCashier = r.metaFields?.['cashier'];
  const cashier =
    r.cashier?.trim() ||
    (typeof metaCashier === 'string' && metaCashier.trim() !== '' ? metaCashier.trim() : ctx.cashier);
  const body: LpfrInvoiceRequest = {
    // The ESIR time: only where Kasa sends it to the gateway (an advance sale, receipt-stamp.ts).
    ...(r.dateTimeOfIssue ? { dateAndTimeOfIssue: r.dateTimeOfIssue } : {}),
    cashier,
    ...(r.buyerId ? { buyerId: r.buyerId } : {}),
    invoiceType: types.invoiceType,
    transactionType: types.transactionType,
    payment: payments,
    // „ЕСИР број“ is the ESIR's identity (IB/version), never the order number: the order is the RequestId.
    ...(ctx.esirNumber ? { invoiceNumber: ctx.esirNumber } : {}),
    ...(refNumber && refDt ? { referentDocumentNumber: refNumber, referentDocumentDT: refDt } : {}),
    options: { omitQRCodeGen: ctx.qrImage ? '0' : '1', omitTextualRepresentation: '0' },
    items,
  };
  return JSON.stringify(body);
}

/** Kasa's lowercase invoice type of an L-PFR one. */
const KASA_INVOICE_TYPE: Readonly<Record<LpfrInvoiceType, string>> = {
  Normal: 'normal',
  ProForma: 'proforma',
  Copy: 'copy',
  Training: 'training',
  Advance: 'advance',
};

/**
 * The IssuedReceipt (electron/gateway/types.ts) of a signed L-PFR invoice. `sentJson` is the InvoiceRequest
 * that was signed (its types and reference are not in the InvoiceResult); `orderNumber` the RequestId it was
 * signed under (the order's number, which Kasa's identity check reads). The journal is kept
 * verbatim (CRLF; the printer splits on either), the total in para exactly.
 */
export function lpfrToIssuedReceipt(result: LpfrInvoiceResult, sentJson: string, orderNumber?: string): IssuedReceipt {
  let sent: Record<string, unknown> = {};
  try {
    const s: unknown = JSON.parse(sentJson);
    if (s && typeof s === 'object' && !Array.isArray(s)) sent = s as Record<string, unknown>;
  } catch {
    sent = {};
  }
  const invoiceType = readEnum(LPFR_INVOICE_TYPES, sent['invoiceType']);
  const transactionType = readEnum(LPFR_TRANSACTION_TYPES, sent['transactionType']);
  const totalPara = toPara(result.totalAmount) ?? Math.round(result.totalAmount * 100);
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const receipt: IssuedReceipt = {
    invoiceNumber: result.invoiceNumber,
    invoiceCounter: result.invoiceCounter,
    ...(result.invoiceCounterExtension ? { invoiceCounterExtension: result.invoiceCounterExtension } : {}),
    sdcDateTime: result.sdcDateTime,
    totalAmount: paraToDecimal(Math.abs(totalPara)),
    ...(invoiceType ? { invoiceType: KASA_INVOICE_TYPE[invoiceType] } : {}),
    ...(transactionType ? { transactionType: transactionType === 'Sale' ? 'sale' : 'refund' } : {}),
    ...(result.verificationUrl ? { verificationUrl: result.verificationUrl } : {}),
    ...(result.journal ? { journal: result.journal } : {}),
    ...(result.businessName ? { businessName: result.businessName } : {}),
    ...(result.locationName ? { locationName: result.locationName } : {}),
    // The order it answers: the RequestId it was signed (or found) under.
    ...(orderNumber ? { orderNumber } : {}),
    ...(str(sent['referentDocumentNumber']) ? { referentDocumentNumber: str(sent['referentDocumentNumber']) } : {}),
    taxItems: (result.taxItems ?? []).map((t) => ({
      ...(t.categoryType !== undefined ? { categoryType: t.categoryType } : {}),
      label: t.label,
      amount: t.amount,
      rate: t.rate,
      ...(t.categoryName ? { categoryName: t.categoryName } : {}),
    })),
    additional: {
      // Which fiscal path signed it: an L-PFR (its card both requests and signs).
      sdc: 'lpfr',
      ...(result.requestedBy ? { requestedBy: result.requestedBy } : {}),
      ...(result.signedBy ? { signedBy: result.signedBy } : {}),
      ...(result.mrc ? { mrc: result.mrc } : {}),
      ...(result.tin ? { tin: result.tin } : {}),
      ...(result.signature ? { signature: result.signature } : {}),
      ...(result.messages ? { messages: result.messages } : {}),
      ...(result.taxGroupRevision !== undefined ? { taxGroupRevision: result.taxGroupRevision } : {}),
      ...(result.totalCounter !== undefined ? { totalCounter: result.totalCounter } : {}),
      ...(result.transactionTypeCounter !== undefined ? { transactionTypeCounter: result.transactionTypeCounter } : {}),
    },
  };
  return receipt;
}
