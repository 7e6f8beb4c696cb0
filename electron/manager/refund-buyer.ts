/**
 * The buyer ID of a refund (docs/buyer-id.md). A refund carries a buyer ID, as the spec's refund
 * rule and the Tax Administration require:
 * - the one typed (already checked against its code's rule by the contract), else
 * - the original's, taken over, else
 * - for a correction without refund of money (a mistake), the seller's own PIB as `10:` + PIB, else
 * - none (`settings.skipBuyerIdValidation`) only where the manager's setting `allowRefundWithoutBuyerId` allows it.
 * Anything else is refused at field `buyerId` before anything is captured.
 */
import { isValidBuyerId, sellerBuyerId } from '../../shared/buyer-id.ts';
import type { RefundSource } from '../../shared/contract/refunds.ts';
import { invalidInput } from '../errors.ts';
import type { OrderStore } from '../orders/store.ts';

/** The seller's PIB on an issued receipt: `additional.tin` (the PFR's), else the top-level `tin`. */
export function receiptTin(receipt: unknown): string | undefined {
  if (!receipt || typeof receipt !== 'object') return undefined;
  const r = receipt as { additional?: { tin?: unknown }; tin?: unknown };
  const tin = r.additional?.tin ?? r.tin;
  return typeof tin === 'string' || typeof tin === 'number' ? String(tin) : undefined;
}

/**
 * `10:` + the seller's PIB: from the original's receipt when there is one, else from the newest receipt this
 * till holds (every receipt of the till is issued to the same taxpayer). Undefined before the first receipt.
 */
export function sellerPibBuyerId(
  store: OrderStore,
  receiptJson?: string | null | Record<string, unknown>,
): string | undefined {
  const own = typeof receiptJson === 'string' ? parse(receiptJson) : receiptJson;
  const fromOriginal = sellerBuyerId(receiptTin(own));
  if (fromOriginal) return fromOriginal;
  const newest = store.queries.newestReceipt();
  return newest ? sellerBuyerId(receiptTin(parse(newest))) : undefined;
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/** What refunds.source tells the refund form about buyer IDs. */
export function refundBuyerFields(
  store: OrderStore,
  original: { buyerId?: unknown; receipt?: string | null | Record<string, unknown> },
  allowWithout: boolean,
): Pick<RefundSource, 'buyerId' | 'sellerBuyerId' | 'withoutBuyerIdAllowed'> {
  const seller = sellerPibBuyerId(store, original.receipt);
  const buyerId =
    typeof original.buyerId === 'string' && isValidBuyerId(original.buyerId) ? original.buyerId : undefined;
  return {
    ...(buyerId ? { buyerId } : {}),
    ...(seller ? { sellerBuyerId: seller } : {}),
    withoutBuyerIdAllowed: allowWithout,
  };
}

/** The buyer ID a refund is sent with, or `skip` (settings.skipBuyerIdValidation); throws at field buyerId. */
export function resolveRefundBuyer(
  input: { buyerId?: string | undefined; skipBuyerId?: boolean | undefined; correction?: boolean | undefined },
  source: Pick<RefundSource, 'buyerId' | 'sellerBuyerId'>,
  allowWithout: boolean,
): { buyerId?: string; skip: boolean } {
  if (input.correction === true) {
    if (!source.sellerBuyerId) throw invalidInput('buyerId', 'seller_pib_unknown');
    if (input.buyerId !== undefined && input.buyerId !== source.sellerBuyerId) {
      throw invalidInput('buyerId', 'buyer_correction_pib', { pib: source.sellerBuyerId.slice(3) });
    }
    return { buyerId: source.sellerBuyerId, skip: false };
  }
  if (input.buyerId !== undefined) return { buyerId: input.buyerId, skip: false };
  if (input.skipBuyerId === true) {
    if (!allowWithout) throw invalidInput('buyerId', 'buyer_skip_not_allowed');
    return { skip: true };
  }
  if (source.buyerId) return { buyerId: source.buyerId, skip: false };
  throw invalidInput('buyerId', allowWithout ? 'buyer_required' : 'buyer_skip_not_allowed');
}
