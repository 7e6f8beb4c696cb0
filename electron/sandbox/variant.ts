/**
 * How the sandbox words its replies. `spec` answers exactly as ../shared/spec shows; `sdk` answers in
 * the shapes the vendor's TypeScript SDK (Fiscomm/fiscomm-sdk-ts) reads where they differ from the spec:
 * - an issued receipt has no `journal` (the archive record still has it);
 * - `GET /archive/receipts/{invoiceNumber}` is the receipt itself (flat), not `{receipt, chain, chainMetadata}`;
 * - bulk `failedReceipts` are plain strings `"<orderNumber>: <message>"`;
 * - payment types in PascalCase (`Cash`, `Card`, `WireTransfer`, …) are accepted;
 * - `POST /receipt/send-email` answers `{}`;
 * - `GET /receipt/tax-rates` answers an array of groups, the current one first;
 * - an issued or archived receipt carries `items` and `payments` (the SDK's `ReceiptDetailsDto`; a bulk
 *   element, `BulkReceiptResultDto`, has neither): items as `{name, gtin, quantity, unitPrice, totalAmount,
 *   labels}` grouped by tax label and by name within a label, NOT in the order sent; payments as
 *   `{type, amount}` in PascalCase with no `advanceAmount` (a finalize's final sale paid by its advance
 *   comes back as `{type, amount: 0}`); a full refund's items are the original's;
 * - fiscalization-lookup names the FIRST receipt issued under an order number: for a finalize that is the
 *   advance refund (АР), issued before the final sale (ПП).
 * Everything else (rules, errors, state) is the same sandbox.
 */
import { z } from 'zod';
import { PAYMENT_TYPES } from '../../shared/domain.ts';
import type { Item, Payment } from './schemas.ts';

export const SANDBOX_VARIANTS = ['spec', 'sdk'] as const;
export type SandboxVariant = (typeof SANDBOX_VARIANTS)[number];
export const SandboxVariantSchema = z.enum(SANDBOX_VARIANTS);

interface FailedElement {
  orderNumber: string | null;
  error: { status: number; code: string | null; message: string; details?: Record<string, unknown> };
}

export interface VariantReplies {
  readonly name: SandboxVariant;
  readonly issuedWithoutJournal: boolean;
  archiveRecord(receipt: Record<string, unknown>, chain: { chain: unknown; chainMetadata: unknown }): unknown;
  failedReceipt(f: FailedElement): unknown;
  sendEmailReply(correlationId: string): unknown;
  taxRatesReply(current: unknown, history: readonly unknown[]): unknown;
  /** The parsed request body as the sandbox's validation should see it. */
  readBody(body: unknown): unknown;
  /** What an issued (not bulk) or archived receipt says of its items and payments, besides the spec's fields. */
  receiptLines(items: readonly Item[], payments: readonly Payment[]): Record<string, unknown>;
  /** Which receipt fiscalization-lookup names when one order number has several (a finalize's АР and ПП). */
  readonly lookupPicks: 'first' | 'last';
}

const SPEC: VariantReplies = {
  name: 'spec',
  issuedWithoutJournal: false,
  archiveRecord: (receipt, chain) => ({ receipt, ...chain }),
  failedReceipt: (f) => f,
  sendEmailReply: (correlationId) => ({ success: true, correlationId }),
  taxRatesReply: (current, history) => ({ currentTaxRates: current, allTaxRates: [current, ...history] }),
  readBody: (body) => body,
  receiptLines: () => ({}),
  lookupPicks: 'last',
};

/** `WireTransfer` → `wireTransfer`: the SDK's PascalCase spelling of a spec payment type. */
const PASCAL = new Map<string, string>(PAYMENT_TYPES.map((t) => [t.charAt(0).toUpperCase() + t.slice(1), t]));

function lowerPaymentTypes(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const o = body as Record<string, unknown>;
  const fix = (p: unknown): unknown => {
    if (!p || typeof p !== 'object') return p;
    const t = (p as Record<string, unknown>)['type'];
    return typeof t === 'string' && PASCAL.has(t) ? { ...p, type: PASCAL.get(t) } : p;
  };
  const out: Record<string, unknown> = { ...o };
  if (Array.isArray(o['payments'])) out['payments'] = o['payments'].map(fix);
  if (Array.isArray(o['receipts'])) out['receipts'] = o['receipts'].map(lowerPaymentTypes);
  return out;
}

/** `wireTransfer` → `WireTransfer`: how the SDK spells a payment type. */
const pascal = (t: string): string => t.charAt(0).toUpperCase() + t.slice(1);

const SDK: VariantReplies = {
  name: 'sdk',
  issuedWithoutJournal: true,
  archiveRecord: (receipt) => receipt,
  failedReceipt: (f) => `${f.orderNumber ?? '?'}: ${f.error.message}`,
  sendEmailReply: () => ({}),
  taxRatesReply: (current, history) => [current, ...history],
  readBody: lowerPaymentTypes,
  receiptLines: (items, payments) => ({
    items: [...items]
      .sort((a, b) => a.labels.join().localeCompare(b.labels.join()) || a.name.localeCompare(b.name, 'sr'))
      .map((i) => ({
        name: i.name,
        gtin: i.gtin ?? '',
        quantity: i.quantity,
        unitPrice: i.unitPrice,
        totalAmount: i.totalAmount,
        labels: [...i.labels],
      })),
    payments: payments.map((p) => ({ type: pascal(p.type), amount: p.amount })),
  }),
  lookupPicks: 'first',
};

export function variantOf(name: SandboxVariant | undefined): VariantReplies {
  return name === 'sdk' ? SDK : SPEC;
}

/** The embedded sandbox's variant: `KASA_SANDBOX_VARIANT=sdk` (tests, CI); anything else is `spec`. */
export function sandboxVariant(env: NodeJS.ProcessEnv): SandboxVariant {
  return env['KASA_SANDBOX_VARIANT'] === 'sdk' ? 'sdk' : 'spec';
}
