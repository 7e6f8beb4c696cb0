/**
 * A receipt fiscalizes an order only if it is that order's receipt. The gateway answers an order number it
 * has seen before with the receipt it issued then (`returnIfOrderNumberExists`), so a number used twice —
 * an older database restored, a reinstalled till, two tills with one id — would otherwise settle a new
 * sale with another sale's receipt. Every settle path goes through `OrderStore.markFiscalized`, which
 * calls `checkReceipt` first. Pure: no I/O.
 *
 * Two kinds of difference (docs/outbox.md, "What identifies a receipt"):
 * - identity: order number, invoice and transaction type, the referenced document, |total|. Only these
 *   say "another sale's receipt"; the order is NOT settled by it.
 * - notes: items, payments, metaFields. The gateway may legitimately return them otherwise than sent (the
 *   vendor's SDK: items in its own order, payments without `advanceAmount`, a full refund's items being
 *   the original's). The receipt is stored and the order fiscalized; the note waits for a manager.
 */
import type { IssuedReceipt } from '../gateway/types.ts';
import type { OrderRow } from '../orders/store.ts';
import { formatQuantity, formatRsd, toMilli, toPara } from '../../shared/money.ts';
import { PAYMENT_TYPES } from '../../shared/domain.ts';

export interface Mismatch {
  /** The receipt field that disagrees, e.g. `totalAmount`, `items`, `payments`, `metaFields.cashier`. */
  field: string;
  expected: string;
  got: string;
}

export interface ReceiptCheck {
  /** Differences that make it another sale's receipt: never settles the order. */
  identity: Mismatch[];
  /** Differences a manager should look at ("differs — check"): the order is fiscalized all the same. */
  notes: Mismatch[];
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
/** `wire_transfer`, `WireTransfer`, `wireTransfer` are one payment type: the spec's spelling. */
const paymentType = (v: unknown): string => {
  const folded = lower(v).replace(/[_\s-]/g, '');
  return PAYMENT_TYPES.find((t) => t.toLowerCase() === folded) ?? folded;
};

/** The invoice and transaction type the gateway labels this order's (main) receipt with. */
function expectedTypes(row: OrderRow): { invoiceType: string; transactionType: string } {
  // A finalize returns the final sale (normal/sale) as its receipt, the advance refund as the extra one.
  if (row.transaction_type === 'finalize') return { invoiceType: 'normal', transactionType: 'sale' };
  return { invoiceType: row.invoice_type, transactionType: row.transaction_type };
}

/**
 * The receipt's identity against `row`: empty when it is this order's receipt. Item, payment and
 * metaField differences are not identity (see `checkReceipt`).
 */
export function verifyReceipt(row: OrderRow, receipt: IssuedReceipt, extra: readonly IssuedReceipt[] = []): Mismatch[] {
  return checkReceipt(row, receipt, extra).identity;
}

/** Identity differences and notes of `receipt` (and, for a finalize, its advance refund in `extra`). */
export function checkReceipt(
  row: OrderRow,
  receipt: IssuedReceipt,
  extra: readonly IssuedReceipt[] = [],
): ReceiptCheck {
  const identity: Mismatch[] = [];
  const notes: Mismatch[] = [];
  const r = receipt as Json;
  const sent: Json = row.request ? (JSON.parse(row.request) as Json) : {};

  if (typeof receipt.orderNumber === 'string' && receipt.orderNumber !== row.order_number) {
    identity.push({ field: 'orderNumber', expected: row.order_number, got: receipt.orderNumber });
  }
  const types = expectedTypes(row);
  if (receipt.invoiceType !== undefined && lower(receipt.invoiceType) !== types.invoiceType) {
    identity.push({ field: 'invoiceType', expected: types.invoiceType, got: String(receipt.invoiceType) });
  }
  if (receipt.transactionType !== undefined && lower(receipt.transactionType) !== types.transactionType) {
    identity.push({ field: 'transactionType', expected: types.transactionType, got: String(receipt.transactionType) });
  }
  if (receipt.totalAmount !== undefined) {
    const got = para(receipt.totalAmount);
    if (got !== Math.abs(row.total_para))
      identity.push({ field: 'totalAmount', expected: rsd(row.total_para), got: rsd(got) });
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
    identity.push({ field: 'referentDocumentNumber', expected: sentRef, got: r['referentDocumentNumber'] });
  }

  // A finalize's other receipt is the advance refund of the same request: it cancels the advance the
  // request names, and the final sale refers to it.
  extra.forEach((x, i) => {
    if (typeof x.orderNumber === 'string' && x.orderNumber !== row.order_number) {
      identity.push({ field: `extraReceipts.${i}.orderNumber`, expected: row.order_number, got: x.orderNumber });
    }
    if (!finalize) return;
    if (x.invoiceType !== undefined && lower(x.invoiceType) !== 'advance') {
      identity.push({ field: `extraReceipts.${i}.invoiceType`, expected: 'advance', got: String(x.invoiceType) });
    }
    if (x.transactionType !== undefined && lower(x.transactionType) !== 'refund') {
      identity.push({
        field: `extraReceipts.${i}.transactionType`,
        expected: 'refund',
        got: String(x.transactionType),
      });
    }
    const ref = (x as Json)['referentDocumentNumber'];
    if (sentRef !== null && typeof ref === 'string' && ref !== sentRef) {
      identity.push({ field: `extraReceipts.${i}.referentDocumentNumber`, expected: sentRef, got: ref });
    }
    if (x.invoiceNumber === receipt.invoiceNumber) {
      identity.push({
        field: `extraReceipts.${i}.invoiceNumber`,
        expected: `≠ ${receipt.invoiceNumber}`,
        got: x.invoiceNumber,
      });
    }
    const finalRef = r['referentDocumentNumber'];
    if (typeof finalRef === 'string' && finalRef !== x.invoiceNumber) {
      identity.push({ field: 'referentDocumentNumber', expected: x.invoiceNumber, got: finalRef });
    }
  });

  // Notes. A full refund is refunded by the gateway from the original's items (Kasa may know only the
  // original's total): its items are not compared.
  if (row.kind !== 'refund_full') {
    const note = compareItems(sent['items'], r['items']);
    if (note) notes.push(note);
  }
  const paymentNote = comparePayments(sent['payments'], r['payments']);
  if (paymentNote) notes.push(paymentNote);
  // metaFields come back "as sent" (spec): a key Kasa sent that came back changed is noted.
  if (isObject(r['metaFields']) && isObject(sent['metaFields'])) {
    const got = r['metaFields'];
    for (const [key, value] of Object.entries(sent['metaFields'])) {
      if (key in got && JSON.stringify(got[key]) !== JSON.stringify(value)) {
        notes.push({ field: `metaFields.${key}`, expected: JSON.stringify(value), got: JSON.stringify(got[key]) });
      }
    }
  }
  return { identity, notes };
}

const ITEM_FIELDS = ['quantity', 'unitPrice', 'totalAmount', 'labels'] as const;

/**
 * Items compare as a multiset (the gateway may return them in its own order), on the fields every returned
 * item carries among quantity, unit price, total and labels (names may be shortened or re-cased).
 */
function compareItems(sentRaw: unknown, gotRaw: unknown): Mismatch | null {
  if (!Array.isArray(sentRaw) || !Array.isArray(gotRaw)) return null;
  const sent = sentRaw.filter(isObject);
  const got = gotRaw.filter(isObject);
  const fields = ITEM_FIELDS.filter((f) => got.every((i) => i[f] !== undefined));
  const key = (i: Json): string =>
    fields
      .map((f) => {
        const v = i[f];
        if (f === 'labels') return Array.isArray(v) ? v.map(String).sort().join('+') : '';
        if (f === 'quantity') return String(toMilli(typeof v === 'number' || typeof v === 'string' ? v : NaN) ?? v);
        return String(para(v));
      })
      .join('|');
  const left = new Map<string, Json[]>();
  for (const i of sent) left.set(key(i), [...(left.get(key(i)) ?? []), i]);
  const extra: Json[] = [];
  for (const i of got) {
    const same = left.get(key(i));
    if (same && same.length > 0) same.pop();
    else extra.push(i);
  }
  const missing = [...left.values()].flat();
  if (missing.length === 0 && extra.length === 0) return null;
  return {
    field: 'items',
    expected: missing.map(describeItem).join('; ') || '—',
    got: extra.map(describeItem).join('; ') || '—',
  };
}

function describeItem(i: Json): string {
  const q = typeof i['quantity'] === 'number' || typeof i['quantity'] === 'string' ? toMilli(i['quantity']) : null;
  const labels = Array.isArray(i['labels']) ? ` [${i['labels'].map(String).join(',')}]` : '';
  return `${String(i['name'] ?? '?')} ${q === null ? '?' : formatQuantity(q)} × ${rsd(para(i['unitPrice']))} = ${rsd(para(i['totalAmount']))}${labels}`;
}

/**
 * Payments compare as a multiset of (type, amount); `advanceAmount` only where the gateway returns it
 * (the SDK's payment is `{type, amount}`: a finalize paid by its advance comes back as amount 0).
 */
function comparePayments(sentRaw: unknown, gotRaw: unknown): Mismatch | null {
  if (!Array.isArray(sentRaw) || !Array.isArray(gotRaw)) return null;
  const sent = sentRaw.filter(isObject);
  const got = gotRaw.filter(isObject);
  const withAdvance = got.some((p) => p['advanceAmount'] !== undefined);
  const key = (p: Json): string =>
    `${paymentType(p['type'])} ${rsd(para(p['amount']) ?? 0)}` +
    (withAdvance ? ` + ${rsd(para(p['advanceAmount']) ?? 0)}` : '');
  const left = new Map<string, number>();
  for (const p of sent) left.set(key(p), (left.get(key(p)) ?? 0) + 1);
  const extra: string[] = [];
  for (const p of got) {
    const n = left.get(key(p)) ?? 0;
    if (n > 0) left.set(key(p), n - 1);
    else extra.push(key(p));
  }
  const missing = [...left].flatMap(([k, n]) => Array.from({ length: n }, () => k));
  if (missing.length === 0 && extra.length === 0) return null;
  return { field: 'payments', expected: missing.join('; ') || '—', got: extra.join('; ') || '—' };
}
