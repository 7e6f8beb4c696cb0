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
 *   receipt signed with another group is noticed (orders/tax-group.ts).
 */
import { dayIn } from '../../shared/i18n/time.ts';
import { invalidInput } from '../errors.ts';
import type { ReceiptRequest } from '../gateway/types.ts';
import type { TaxRatesCache } from './tax-rates.ts';

/** The group an order was captured under (orders.data.taxGroup). */
export interface CapturedTaxGroup {
  groupId: number;
  validFrom: string;
}

/**
 * An advance paid earlier by bank transfer (docs/advances.md, "An advance paid by bank transfer"): when the payment
 * reached the account on an earlier day, the Advance-Sale receipt is issued (at the latest the next working day)
 * with the date of the payment as its ESIR time. The manager enters that date (`paidOn`, YYYY-MM-DD); it may not be
 * in the future, nor more than TRANSFER_MAX_DAYS calendar days back (a weekend and a two-day public holiday after
 * the payment still fit). The bank statement has no time of day: Kasa sends 10:00 UTC of that date (11:00 or
 * 12:00 in Belgrade), which is that date in any time zone the receipt may be printed in.
 */
export const TRANSFER_MAX_DAYS = 5;

/**
 * Checks `paidOn` of an advance paid by transfer against the rule above; throws `invalidInput` at `paidOn`.
 * Returns the ESIR time to send, or undefined when there is no `paidOn`.
 */
export function transferEsirTime(
  paidOn: string | undefined,
  o: { invoiceType: string; payments: readonly { type: string }[] },
  now: number,
): string | undefined {
  if (paidOn === undefined) return undefined;
  if (o.invoiceType !== 'advance' || !o.payments.some((p) => p.type === 'wireTransfer'))
    throw invalidInput('paidOn', 'paid_on_not_transfer');
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(paidOn);
  const at = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 10) : Number.NaN;
  if (!m || !Number.isFinite(at) || new Date(at).toISOString().slice(0, 10) !== paidOn)
    throw invalidInput('paidOn', 'date');
  const today = dayIn(new Date(now));
  if (paidOn > today) throw invalidInput('paidOn', 'paid_on_future');
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  const days = Math.round((Date.UTC(ty, tm - 1, td, 10) - at) / 86_400_000);
  if (days > TRANSFER_MAX_DAYS) throw invalidInput('paidOn', 'paid_on_too_old', { days: TRANSFER_MAX_DAYS });
  return new Date(at).toISOString();
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
  /** The ESIR time of an advance paid earlier by transfer (transferEsirTime); default the capture time. */
  esirTime?: string,
): ReceiptRequest {
  const meta = body.metaFields?.['cashier'];
  const cashier = body.cashier ?? (typeof meta === 'string' && meta.trim() !== '' ? meta.trim() : undefined);
  const at = new Date(capturedAtMs).toISOString();
  return {
    ...body,
    metaFields: { ...body.metaFields, capturedAt: at },
    ...(carriesEsirTime(types) ? { dateTimeOfIssue: esirTime ?? at } : {}),
    ...(cashier ? { cashier } : {}),
  };
}

/** `{taxGroup}` to spread into an order's data: the group in force now, or nothing without rates. */
export function capturedTaxGroup(taxRates: TaxRatesCache): { taxGroup?: CapturedTaxGroup } {
  const g = taxRates.get();
  return g ? { taxGroup: { groupId: g.groupId, validFrom: g.validFrom } } : {};
}
