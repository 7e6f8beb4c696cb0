/**
 * Time, cashier and tax group of a receipt request (issue #21, docs/gateway.md "Time, cashier, tax
 * group"). Called where a request is frozen, so a resend is byte-identical:
 * - `dateTimeOfIssue`: the capture time (ISO UTC). For a sale fiscalized hours later it is the only
 *   record of when the sale happened; the PFR prints it as `ЕСИР време`.
 * - `cashier`: the cashier's name at the top level (the vendor's request field) besides
 *   `metaFields.cashier`, which the spec's sandbox and older Kasa receipts read.
 * - `taxGroup`: the tax-rate group in force at capture, kept in the order's data (never sent), so a
 *   receipt signed with another group is noticed (tax-group.ts).
 */
import type { ReceiptRequest } from '../gateway/types.ts';
import type { TaxRatesCache } from './tax-rates.ts';

/** The group an order was captured under (orders.data.taxGroup). */
export interface CapturedTaxGroup {
  groupId: number;
  validFrom: string;
}

/** `body` with `dateTimeOfIssue` = the capture time and a top-level `cashier` from `metaFields.cashier`. */
export function stampReceipt(body: ReceiptRequest, capturedAtMs: number): ReceiptRequest {
  const meta = body.metaFields?.['cashier'];
  const cashier = body.cashier ?? (typeof meta === 'string' && meta.trim() !== '' ? meta.trim() : undefined);
  return { ...body, dateTimeOfIssue: new Date(capturedAtMs).toISOString(), ...(cashier ? { cashier } : {}) };
}

/** `{taxGroup}` to spread into an order's data: the group in force now, or nothing without rates. */
export function capturedTaxGroup(taxRates: TaxRatesCache): { taxGroup?: CapturedTaxGroup } {
  const g = taxRates.get();
  return g ? { taxGroup: { groupId: g.groupId, validFrom: g.validFrom } } : {};
}
