/**
 * The tolerant reader's one place: every reply shape seen in the evidence (the spec, the vendor's SDK
 * types, public integrations with the live service) is turned into the one shape Kasa uses, here and
 * nowhere else. The client (client.ts) applies these before its zod schemas (types.ts), so nothing
 * outside electron/gateway/ ever sees a raw reply. Kasa still WRITES exactly what the spec says.
 *
 * The divergences, with the evidence and the test of each, are listed in docs/gateway.md.
 */
import { PAYMENT_TYPES, type PaymentType } from '../../shared/domain.ts';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `Card`, `CARD`, `card`, `wire_transfer`, `WireTransfer`, `mobile-money` … → the spec's enum value. */
const PAYMENT_BY_FOLDED = new Map<string, PaymentType>(PAYMENT_TYPES.map((t) => [fold(t), t]));
function fold(s: string): string {
  return s.toLowerCase().replace(/[_\-\s]/g, '');
}

/** A payment type in any documented spelling as the spec's value; an unknown one is kept as sent. */
export function normalizePaymentType(type: unknown): string {
  if (typeof type !== 'string') return 'other';
  return PAYMENT_BY_FOLDED.get(fold(type)) ?? type;
}

/**
 * An issued receipt wherever it sits: the receipt itself (flat), or wrapped as `{receipt}` /
 * `{data: receipt}`. Payment types are normalised. Anything else is returned unchanged (the schema
 * then reports what is missing).
 */
export function normalizeReceipt(raw: unknown): unknown {
  let r = raw;
  if (isObj(r) && !('invoiceNumber' in r)) {
    if (isObj(r['receipt'])) r = r['receipt'];
    else if (isObj(r['data']) && 'invoiceNumber' in r['data']) r = r['data'];
  }
  if (!isObj(r)) return r;
  const out: Obj = { ...r };
  if (Array.isArray(r['payments'])) {
    out['payments'] = r['payments'].map((p) => (isObj(p) ? { ...p, type: normalizePaymentType(p['type']) } : p));
  }
  // An empty or blank journal is no journal: it must never be printed as one.
  if (typeof out['journal'] !== 'string' || out['journal'].trim() === '') delete out['journal'];
  return out;
}

/** `{correlationId, receipt}` (spec) or the receipt alone → `{correlationId?, receipt}`. */
export function normalizeIssueReply(raw: unknown): unknown {
  if (!isObj(raw)) return raw;
  const correlationId = typeof raw['correlationId'] === 'string' ? raw['correlationId'] : undefined;
  return { ...(correlationId ? { correlationId } : {}), receipt: normalizeReceipt(raw) };
}

/** Finalize: both receipts normalised. */
export function normalizeFinalizeReply(raw: unknown): unknown {
  if (!isObj(raw)) return raw;
  return {
    ...raw,
    refundReceipt: normalizeReceipt(raw['refundReceipt']),
    finalReceipt: normalizeReceipt(raw['finalReceipt']),
  };
}

/** Archive detail: `{receipt, chain, chainMetadata}` (spec) or the flat receipt (SDK) → the spec's wrapper. */
export function normalizeArchiveRecord(raw: unknown): unknown {
  if (!isObj(raw)) return raw;
  const wrapped = isObj(raw['receipt']) && !('invoiceNumber' in raw);
  return {
    receipt: normalizeReceipt(wrapped ? raw['receipt'] : raw),
    ...(raw['chain'] !== undefined ? { chain: raw['chain'] } : {}),
    ...(raw['chainMetadata'] !== undefined ? { chainMetadata: raw['chainMetadata'] } : {}),
  };
}

/**
 * Tax rates: `{currentTaxRates, allTaxRates}` (spec), a bare array of groups (SDK), or `{data: [...]}`.
 * From an array the current group is the latest whose `validFrom` is not in the future.
 */
export function normalizeTaxRates(raw: unknown, now: number = Date.now()): unknown {
  const list = Array.isArray(raw) ? raw : isObj(raw) && Array.isArray(raw['data']) ? raw['data'] : null;
  if (!list) return raw;
  const groups = list.filter(isObj);
  const time = (g: Obj) => Date.parse(String(g['validFrom'] ?? ''));
  const valid = groups.filter((g) => Number.isFinite(time(g)) && time(g) <= now).sort((a, b) => time(b) - time(a));
  const current = valid[0] ?? groups[0];
  return current ? { currentTaxRates: current, allTaxRates: groups } : raw;
}

/** send-email: `{success, correlationId}` (spec) or `{}` (SDK). A 2xx without `success: false` is accepted. */
export function normalizeSendEmailReply(raw: unknown): { success: boolean; correlationId?: string } {
  const o = isObj(raw) ? raw : {};
  const correlationId = typeof o['correlationId'] === 'string' ? o['correlationId'] : undefined;
  return { success: o['success'] !== false, ...(correlationId ? { correlationId } : {}) };
}

/** A bulk failure as Kasa reads it: the order it names and the gateway's error. */
export interface BulkFailure {
  orderNumber: string | null;
  error: { status: number; code: string | null; message: string; details?: Obj };
}

/**
 * Bulk reply: `receipts` elements flat or wrapped; `failedReceipts` as `{orderNumber, error}` (sandbox),
 * `{orderNumber, message, code}`, `{receipt|request: {orderNumber}, error}`, or plain strings (SDK) naming
 * the order (`"K1-…-0007"` or `"K1-…-0007: reason"`). A string is matched against the order numbers sent.
 */
export function normalizeBulkReply(raw: unknown, sentOrderNumbers: readonly string[]): unknown {
  if (!isObj(raw)) return raw;
  const receipts = Array.isArray(raw['receipts']) ? raw['receipts'].map(normalizeReceipt) : [];
  const failed = Array.isArray(raw['failedReceipts']) ? raw['failedReceipts'] : [];
  return { ...raw, receipts, failedReceipts: failed.map((f) => normalizeBulkFailure(f, sentOrderNumbers)) };
}

export function normalizeBulkFailure(el: unknown, sent: readonly string[]): BulkFailure {
  if (typeof el === 'string') {
    // Longest first, so `…-0001` never claims the failure of `…-00012`.
    const byLength = [...sent].sort((a, b) => b.length - a.length);
    const orderNumber =
      byLength.find((n) => el === n || el.startsWith(`${n}:`) || el.startsWith(`${n} `)) ??
      byLength.find((n) => el.includes(n)) ??
      null;
    const rest = orderNumber ? el.slice(el.indexOf(orderNumber) + orderNumber.length).replace(/^[\s:–-]+/, '') : el;
    // A gateway code quoted in the text (`… (ERR_00603)`) is kept: a taken number is reconciled, not parked.
    const code = /\b(ERR_\d{5})\b/.exec(el)?.[1] ?? null;
    return { orderNumber, error: { status: 400, code, message: rest || 'rejected in bulk' } };
  }
  const o = isObj(el) ? el : {};
  let orderNumber = typeof o['orderNumber'] === 'string' ? o['orderNumber'] : null;
  for (const k of ['receipt', 'request', 'data', 'body']) {
    const inner = o[k];
    if (!orderNumber && isObj(inner) && typeof inner['orderNumber'] === 'string') orderNumber = inner['orderNumber'];
  }
  const e = isObj(o['error']) ? o['error'] : o;
  const status =
    typeof e['status'] === 'number' ? e['status'] : typeof e['statusCode'] === 'number' ? e['statusCode'] : 400;
  const message =
    errorMessageText(e['message'] ?? (typeof o['error'] === 'string' ? o['error'] : undefined)) ?? 'rejected in bulk';
  return {
    orderNumber,
    error: {
      status,
      code: typeof e['code'] === 'string' ? e['code'] : null,
      message,
      ...(isObj(e['details']) ? { details: e['details'] } : {}),
    },
  };
}

/**
 * An error body's `message` as text: a string (spec), an array of strings or `{field, message}`
 * (framework validation replies), or an object with its own `message`. Undefined when absent.
 */
export function errorMessageText(message: unknown): string | undefined {
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) {
    const parts = message.map((m) => errorMessageText(m) ?? (isObj(m) ? JSON.stringify(m) : String(m))).filter(Boolean);
    return parts.length ? parts.join('; ') : undefined;
  }
  if (isObj(message)) {
    const inner = errorMessageText(message['message']);
    const field = typeof message['field'] === 'string' ? message['field'] : undefined;
    if (inner) return field ? `${field}: ${inner}` : inner;
    return JSON.stringify(message);
  }
  if (typeof message === 'number' || typeof message === 'boolean') return String(message);
  return undefined;
}

/**
 * Whether an HTTP error body is the gateway's own error object (spec: `{status, code, message, …}`;
 * also `{statusCode, message, error}` and cashier `{message}`), whatever type its `message` has — as
 * opposed to a proxy's page.
 */
export function isGatewayErrorBody(body: unknown): boolean {
  if (!isObj(body)) return false;
  if (typeof body['code'] === 'string') return true;
  return body['message'] !== undefined && body['message'] !== null && errorMessageText(body['message']) !== undefined;
}

/** A draft record: the draft itself, `{id, draft}` (sandbox create) or `{data: draft}` → the draft with its `id`. */
export function normalizeDraft(raw: unknown): Obj {
  if (!isObj(raw)) return {};
  const inner = isObj(raw['draft']) ? raw['draft'] : isObj(raw['data']) ? raw['data'] : null;
  if (!inner) return { ...raw };
  const id = raw['id'] ?? inner['id'];
  return { ...inner, ...(id !== undefined ? { id } : {}) };
}
