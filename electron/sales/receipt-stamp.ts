/**
 * Time, cashier and tax group of a receipt request (docs/gateway.md "Time, cashier, tax
 * group"). Called where a request is frozen, so a resend is byte-identical:
 * - `metaFields.capturedAt`: the capture time (ISO UTC) on every receipt. Echoed on the issued receipt
 *   and stored on the archived one: for a sale fiscalized hours later, the record of when it happened.
 * - `dateTimeOfIssue` (the "ESIR time", printed by the PFR as `ЕСИР време`): the capture time on an
 *   advance sale only. The Tax Administration's technical guide scopes the ESIR time to an advance sale
 *   (paid earlier); a receipt the law does not ask it on does not carry it (docs/gateway.md).
 * - `cashier`: the cashier's name at the top level (the vendor's request field) besides
 *   `metaFields.cashier`, which the spec's sandbox and older Kasa receipts read. The name is the person logged
 *   in, which the document's handler took from the session (`cashierOf`), never one the caller sent.
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

/** True for the one document the ESIR time is sent on: an advance sale. */
export function carriesEsirTime(types: { invoiceType: string; transactionType: string }): boolean {
  return types.invoiceType === 'advance' && types.transactionType === 'sale';
}

/**
 * `body` with `metaFields.capturedAt` = the capture time, a top-level `cashier` from `metaFields.cashier`,
 * and on an advance sale `dateTimeOfIssue` = the capture time.
 */
export function stampReceipt(
  body: ReceiptRequest,
  capturedAtMs: number,
  types: { invoiceType: string; transactionType: string },
): ReceiptRequest {
  const meta = body.metaFields?.['cashier'];
  const cashier = body.cashier ?? (typeof meta === 'string' && meta.trim() !== '' ? meta.trim() : undefined);
  const at = new Date(capturedAtMs).toISOString();
  return {
    ...body,
    metaFields: { ...body.metaFields, capturedAt: at },
    ...(carriesEsirTime(types) ? { dateTimeOfIssue: at } : {}),
    ...(cashier ? { cashier } : {}),
  };
}

/** `{taxGroup}` to spread into an order's data: the group in force now, or nothing without rates. */
export function capturedTaxGroup(taxRates: TaxRatesCache): { taxGroup?: CapturedTaxGroup } {
  const g = taxRates.get();
  return g ? { taxGroup: { groupId: g.groupId, validFrom: g.validFrom } } : {};
}
