/**
 * Before an order is issued under a NEW number ("Издај под новим бројем"), its old number's receipt is
 * confirmed to be another sale's — by fiscalization-lookup and the archive, at that moment, not by the
 * reply that parked it. Reissuing an order whose number already carries its own receipt would fiscalize
 * the sale twice.
 */
import type { GatewayClient } from '../gateway/client.ts';
import type { IssuedReceipt } from '../gateway/types.ts';
import { resolveLookupHit } from './chain.ts';
import type { OrderRow } from '../orders/store.ts';
import { checkReceipt } from './verify.ts';

export type ReissueVerdict =
  /** The number's receipt is another sale's (identity differs): a new number is safe. */
  | { kind: 'other'; invoiceNumber: string; fields: string[] }
  /** Nothing was issued under the number: a new number cannot duplicate a receipt. */
  | { kind: 'none' }
  /** The number's receipt is this order's: settle with it, never reissue. */
  | { kind: 'own'; receipt: IssuedReceipt; extra: IssuedReceipt[] };

/** Asks lookup + archive about `row`'s number. Throws (GatewayError) when the gateway cannot say. */
export async function confirmReissue(client: GatewayClient, row: OrderRow): Promise<ReissueVerdict> {
  const records = await client.fiscalizationLookup([row.order_number], { timeoutMs: 8000 });
  const rec = records.find((r) => r.orderNumber === row.order_number);
  if (!rec) throw new Error(`order ${row.order_number} is not in the fiscalization-lookup reply`);
  if (!rec.fiscalized || !rec.invoiceNumber) return { kind: 'none' };
  const found = await resolveLookupHit(client, row, rec.invoiceNumber);
  const identity = checkReceipt(row, found.receipt, found.extra).identity;
  if (identity.length === 0) return { kind: 'own', receipt: found.receipt, extra: found.extra };
  return { kind: 'other', invoiceNumber: found.receipt.invoiceNumber, fields: identity.map((m) => m.field) };
}
