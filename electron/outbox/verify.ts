/**
 * Is this receipt the order's own? Every receipt the gateway returns (single, bulk, lookup + archive,
 * refunds, copies, the advance chain's final and refund receipts) is checked here before the order
 * counts as fiscalized. A receipt returned for a reused order number (`returnIfOrderNumberExists`) is
 * another sale's receipt: it must never settle this order.
 *
 * Pure: the order as stored (its row and frozen request body) and the receipt as the client returns it.
 * Only what the receipt carries is compared; a field the gateway leaves out is not a mismatch.
 */
import type { GatewayErrorView } from '../../shared/domain.ts';
import { paraToDecimal, toPara } from '../../shared/money.ts';
import type { IssuedReceipt } from '../gateway/types.ts';

/** The error code a mismatch is stored under (`lastError.code`); explained by shared/gateway-errors.ts. */
export { RECEIPT_MISMATCH } from '../../shared/gateway-errors.ts';
import { RECEIPT_MISMATCH } from '../../shared/gateway-errors.ts';

/** What of the order the check needs (a subset of OrderRow). */
export interface VerifiableOrder {
  order_number: string;
  kind: 'sale' | 'refund' | 'refund_full' | 'finalize' | 'copy';
  invoice_type: string;
  transaction_type: string;
  total_para: number;
  /** The frozen request body as sent (JSON), or null. */
  request: string | null;
}

export interface Mismatch {
  /** The receipt field, e.g. `totalAmount`, `items[1].totalAmount`, `refundReceipt.invoiceType`. */
  field: string;
  expected: string;
  actual: string;
}

interface SentItem {
  totalAmount?: unknown;
}
interface SentPayment {
  type?: unknown;
  amount?: unknown;
  advanceAmount?: unknown;
}
interface SentBody {
  orderNumber?: unknown;
  items?: SentItem[];
  payments?: SentPayment[];
  referentDocumentNumber?: unknown;
  metaFields?: unknown;
}

const lower = (v: unknown): string => (typeof v === 'string' ? v.toLowerCase() : String(v));
const para = (v: unknown): number | null => (typeof v === 'number' ? toPara(v) : typeof v === 'string' && v.trim() !== '' ? toPara(Number(v)) : null);
const money = (p: number | null): string => (p === null ? '—' : paraToDecimal(p).toFixed(2));

function parseBody(request: string | null): SentBody {
  if (!request) return {};
  try {
    const v = JSON.parse(request) as unknown;
    return v && typeof v === 'object' ? (v as SentBody) : {};
  } catch {
    return {};
  }
}

/** The invoice and transaction type the order's (main) receipt must carry. */
function expectedTypes(o: VerifiableOrder): { invoiceType: string; transactionType: string } {
  if (o.kind === 'finalize') return { invoiceType: 'normal', transactionType: 'sale' };
  if (o.kind === 'copy') return { invoiceType: 'copy', transactionType: 'sale' };
  if (o.kind === 'refund' || o.kind === 'refund_full') return { invoiceType: o.invoice_type, transactionType: 'refund' };
  return { invoiceType: o.invoice_type, transactionType: 'sale' };
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * The differences between `receipt` (and, for a finalize, the advance refund receipt in `extra`) and
 * the order. Empty: the receipt is the order's own.
 */
export function verifyReceipt(order: VerifiableOrder, receipt: IssuedReceipt, extra: readonly IssuedReceipt[] = []): Mismatch[] {
  const out: Mismatch[] = [];
  const sent = parseBody(order.request);
  const push = (field: string, expected: string, actual: string): void => {
    out.push({ field, expected, actual });
  };

  if (receipt.orderNumber !== undefined && receipt.orderNumber !== order.order_number) {
    push('orderNumber', order.order_number, receipt.orderNumber);
  }
  const types = expectedTypes(order);
  if (receipt.invoiceType !== undefined && lower(receipt.invoiceType) !== types.invoiceType) {
    push('invoiceType', types.invoiceType, lower(receipt.invoiceType));
  }
  if (receipt.transactionType !== undefined && lower(receipt.transactionType) !== types.transactionType) {
    push('transactionType', types.transactionType, lower(receipt.transactionType));
  }
  if (receipt.totalAmount !== undefined) {
    const got = para(receipt.totalAmount);
    if (got !== order.total_para) push('totalAmount', money(order.total_para), money(got));
  }
  if (receipt.metaFields !== undefined && sent.metaFields !== undefined && canonical(receipt.metaFields) !== canonical(sent.metaFields)) {
    push('metaFields', canonical(sent.metaFields), canonical(receipt.metaFields));
  }
  // A full refund's items and payments are the original's, copied by the gateway: only its total counts.
  const itemised = order.kind !== 'refund_full';
  const r = receipt as Record<string, unknown>;
  const items = r['items'];
  if (itemised && Array.isArray(items) && Array.isArray(sent.items)) {
    if (items.length !== sent.items.length) push('items.length', String(sent.items.length), String(items.length));
    else
      items.forEach((it: unknown, i) => {
        const want = para(sent.items?.[i]?.totalAmount);
        const got = it && typeof it === 'object' ? para((it as Record<string, unknown>)['totalAmount']) : null;
        if (got !== want) push(`items[${i}].totalAmount`, money(want), money(got));
      });
  }
  const payments = r['payments'];
  if (itemised && Array.isArray(payments) && Array.isArray(sent.payments)) {
    if (payments.length !== sent.payments.length) push('payments.length', String(sent.payments.length), String(payments.length));
    else
      payments.forEach((p: unknown, i) => {
        const want = sent.payments?.[i] ?? {};
        const got = (p && typeof p === 'object' ? p : {}) as Record<string, unknown>;
        if (lower(got['type']) !== lower(want.type)) push(`payments[${i}].type`, lower(want.type), lower(got['type']));
        if (para(got['amount']) !== para(want.amount)) push(`payments[${i}].amount`, money(para(want.amount)), money(para(got['amount'])));
      });
  }
  const ref = r['referentDocumentNumber'];
  if (order.kind !== 'finalize' && typeof ref === 'string' && typeof sent.referentDocumentNumber === 'string' && ref !== sent.referentDocumentNumber) {
    push('referentDocumentNumber', sent.referentDocumentNumber, ref);
  }

  if (order.kind === 'finalize') {
    // The advance refund the gateway issued first: it cancels the advance named in the request.
    const refund = extra[0];
    if (!refund) push('refundReceipt', 'present', 'missing');
    else {
      if (refund.orderNumber !== undefined && refund.orderNumber !== order.order_number) {
        push('refundReceipt.orderNumber', order.order_number, refund.orderNumber);
      }
      if (refund.invoiceType !== undefined && lower(refund.invoiceType) !== 'advance') {
        push('refundReceipt.invoiceType', 'advance', lower(refund.invoiceType));
      }
      if (refund.transactionType !== undefined && lower(refund.transactionType) !== 'refund') {
        push('refundReceipt.transactionType', 'refund', lower(refund.transactionType));
      }
      const rref = (refund as Record<string, unknown>)['referentDocumentNumber'];
      if (typeof rref === 'string' && typeof sent.referentDocumentNumber === 'string' && rref !== sent.referentDocumentNumber) {
        push('refundReceipt.referentDocumentNumber', sent.referentDocumentNumber, rref);
      }
      if (refund.invoiceNumber === receipt.invoiceNumber) push('refundReceipt.invoiceNumber', `≠ ${receipt.invoiceNumber}`, refund.invoiceNumber);
    }
  }
  return out;
}

/** The mismatch as stored with the parked order (`lastError`) and explained to the manager. */
export function mismatchError(receipt: IssuedReceipt, mismatches: readonly Mismatch[]): GatewayErrorView {
  const list = mismatches.map((m) => `${m.field}: ${m.expected} ≠ ${m.actual}`).join('; ');
  return {
    status: null,
    code: RECEIPT_MISMATCH,
    message: `The gateway returned receipt ${receipt.invoiceNumber}, which is not this order's: ${list}`,
    fields: mismatches.map((m) => ({ field: m.field, message: `${m.expected} ≠ ${m.actual}` })),
  };
}
