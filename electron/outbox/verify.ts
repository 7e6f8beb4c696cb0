/**
 * A receipt fiscalizes an order only if it is that order's receipt. The gateway answers an order number it
 * has seen before with the receipt it issued then (`returnIfOrderNumberExists`), so a number used twice —
 * an older database restored, a reinstalled till, two tills with one id — would otherwise settle a new
 * sale with another sale's receipt. Every settle path goes through `OrderStore.markFiscalized`, which
 * calls `verifyReceipt` first. Pure: no I/O.
 */
import type { IssuedReceipt } from '../gateway/types.ts';
import type { OrderRow } from './store.ts';
import { formatRsd, toPara } from '../../shared/money.ts';

export interface Mismatch {
  /** The receipt field that disagrees, e.g. `totalAmount`, `items.1.totalAmount`, `payments`. */
  field: string;
  expected: string;
  got: string;
}

/** The code a mismatch is parked under (an order's `lastError.code`). */
export const RECEIPT_MISMATCH = 'KASA_RECEIPT_MISMATCH';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const lower = (v: unknown): string => String(v).toLowerCase();
/** Gateway amounts are decimals; refunds may come back negative: compare magnitudes in para. */
const para = (v: unknown): number | null => {
  if (typeof v !== 'number' && typeof v !== 'string') return null;
  const p = toPara(v);
  return p === null ? null : Math.abs(p);
};
const rsd = (p: number | null): string => (p === null ? '—' : formatRsd(p));

/** The invoice and transaction type the gateway labels this order's (main) receipt with. */
function expectedTypes(row: OrderRow): { invoiceType: string; transactionType: string } {
  // A finalize returns the final sale (normal/sale) as its receipt, the advance refund as the extra one.
  if (row.transaction_type === 'finalize') return { invoiceType: 'normal', transactionType: 'sale' };
  return { invoiceType: row.invoice_type, transactionType: row.transaction_type };
}

/**
 * Every difference between what was sent for `row` and what `receipt` says, for the fields the receipt
 * carries (the spec's receipt has no items or payments; a gateway that returns them gets them checked).
 * Empty when the receipt is this order's.
 */
export function verifyReceipt(row: OrderRow, receipt: IssuedReceipt, extra: readonly IssuedReceipt[] = []): Mismatch[] {
  const out: Mismatch[] = [];
  const r = receipt as Json;
  const sent: Json = row.request ? (JSON.parse(row.request) as Json) : {};

  if (typeof receipt.orderNumber === 'string' && receipt.orderNumber !== row.order_number) {
    out.push({ field: 'orderNumber', expected: row.order_number, got: receipt.orderNumber });
  }
  const types = expectedTypes(row);
  if (receipt.invoiceType !== undefined && lower(receipt.invoiceType) !== types.invoiceType) {
    out.push({ field: 'invoiceType', expected: types.invoiceType, got: String(receipt.invoiceType) });
  }
  if (receipt.transactionType !== undefined && lower(receipt.transactionType) !== types.transactionType) {
    out.push({ field: 'transactionType', expected: types.transactionType, got: String(receipt.transactionType) });
  }
  if (receipt.totalAmount !== undefined) {
    const got = para(receipt.totalAmount);
    if (got !== Math.abs(row.total_para))
      out.push({ field: 'totalAmount', expected: rsd(row.total_para), got: rsd(got) });
  }

  const sentItems = Array.isArray(sent['items']) ? (sent['items'] as unknown[]) : null;
  const gotItems = Array.isArray(r['items']) ? (r['items'] as unknown[]) : null;
  if (sentItems && gotItems) {
    if (gotItems.length !== sentItems.length) {
      out.push({ field: 'items', expected: `${sentItems.length}`, got: `${gotItems.length}` });
    } else {
      gotItems.forEach((item, i) => {
        const want = para(isObject(sentItems[i]) ? sentItems[i]['totalAmount'] : null);
        const have = para(isObject(item) ? item['totalAmount'] : null);
        if (have !== null && have !== want)
          out.push({ field: `items.${i}.totalAmount`, expected: rsd(want), got: rsd(have) });
      });
    }
  }

  const sentPayments = Array.isArray(sent['payments']) ? (sent['payments'] as unknown[]) : null;
  const gotPayments = Array.isArray(r['payments']) ? (r['payments'] as unknown[]) : null;
  if (sentPayments && gotPayments) {
    const sum = (list: unknown[]): number =>
      list.reduce<number>(
        (s, p) => (isObject(p) ? s + (para(p['amount']) ?? 0) + (para(p['advanceAmount']) ?? 0) : s),
        0,
      );
    const want = sum(sentPayments);
    const have = sum(gotPayments);
    if (want !== have) out.push({ field: 'payments', expected: rsd(want), got: rsd(have) });
  }

  // metaFields come back "as sent": every key Kasa sent must be there unchanged.
  if (isObject(r['metaFields']) && isObject(sent['metaFields'])) {
    const got = r['metaFields'];
    for (const [key, value] of Object.entries(sent['metaFields'])) {
      if (key in got && JSON.stringify(got[key]) !== JSON.stringify(value)) {
        out.push({ field: `metaFields.${key}`, expected: JSON.stringify(value), got: JSON.stringify(got[key]) });
      }
    }
  }

  // A refund or copy names the receipt it refers to; a receipt naming another one is another sale's.
  // (A finalize's final receipt refers to the advance refund issued with it, not to the advance: below.)
  const sentRef = typeof sent['referentDocumentNumber'] === 'string' ? sent['referentDocumentNumber'] : null;
  const finalize = row.transaction_type === 'finalize';
  if (
    !finalize &&
    sentRef !== null &&
    typeof r['referentDocumentNumber'] === 'string' &&
    r['referentDocumentNumber'] !== sentRef
  ) {
    out.push({ field: 'referentDocumentNumber', expected: sentRef, got: r['referentDocumentNumber'] });
  }

  // A finalize's other receipt is the advance refund of the same request: it cancels the advance the
  // request names (the lookup/archive path returns only the final receipt; then there is none to check).
  extra.forEach((x, i) => {
    if (typeof x.orderNumber === 'string' && x.orderNumber !== row.order_number) {
      out.push({ field: `extraReceipts.${i}.orderNumber`, expected: row.order_number, got: x.orderNumber });
    }
    if (!finalize) return;
    if (x.invoiceType !== undefined && lower(x.invoiceType) !== 'advance') {
      out.push({ field: `extraReceipts.${i}.invoiceType`, expected: 'advance', got: String(x.invoiceType) });
    }
    if (x.transactionType !== undefined && lower(x.transactionType) !== 'refund') {
      out.push({ field: `extraReceipts.${i}.transactionType`, expected: 'refund', got: String(x.transactionType) });
    }
    const ref = (x as Json)['referentDocumentNumber'];
    if (sentRef !== null && typeof ref === 'string' && ref !== sentRef) {
      out.push({ field: `extraReceipts.${i}.referentDocumentNumber`, expected: sentRef, got: ref });
    }
    if (x.invoiceNumber === receipt.invoiceNumber) {
      out.push({
        field: `extraReceipts.${i}.invoiceNumber`,
        expected: `≠ ${receipt.invoiceNumber}`,
        got: x.invoiceNumber,
      });
    }
  });
  return out;
}
