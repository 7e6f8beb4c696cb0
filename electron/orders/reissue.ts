/**
 * `orders.reissue`'s guard: an order parked for another sale's receipt is issued under a new number
 * only when fiscalization-lookup and the archive confirm, now, that its number's receipt is another
 * sale's. When they show it is this order's, the order is settled with that receipt and the reissue is
 * refused; when they cannot say (gateway unreachable), it is refused and nothing changes.
 */
import type { GatewayClient } from '../gateway/client.ts';
import { CommandError } from '../errors.ts';
import type { OrderStore } from './store.ts';
import { RECEIPT_MISMATCH } from '../outbox/verify.ts';
import { confirmReissue, type ReissueVerdict } from '../outbox/reissue-check.ts';

export interface ReissueGuardDeps {
  store: OrderStore;
  client: () => GatewayClient;
  now: () => number;
  audit: (action: string, detail: Record<string, unknown>) => void;
}

/** Throws unless the order may be issued under a new number. */
export async function confirmBeforeReissue(deps: ReissueGuardDeps, orderId: number): Promise<void> {
  const { store } = deps;
  const row = store.get(orderId);
  if (!row) throw new CommandError('not_found', 'order_not_found', { id: orderId });
  const parked =
    row.state === 'needs_attention' &&
    row.last_error !== null &&
    (JSON.parse(row.last_error) as { code?: unknown }).code === RECEIPT_MISMATCH;
  if (!parked) throw new CommandError('conflict', 'not_receipt_mismatch', { id: orderId });
  let verdict: ReissueVerdict;
  try {
    verdict = await confirmReissue(deps.client(), row);
  } catch (err) {
    throw new CommandError('unavailable', 'reissue_unconfirmed', {
      order: row.order_number,
      reason: err instanceof Error ? err.message : String(err),
    });
  }
  if (verdict.kind !== 'own') return;
  const state = store.markFiscalized(orderId, verdict.receipt, deps.now(), undefined, verdict.extra, {
    from: 'needs_attention',
  });
  deps.audit('order.reissue_refused', {
    orderId,
    orderNumber: row.order_number,
    invoiceNumber: verdict.receipt.invoiceNumber,
    settled: state === 'fiscalized',
  });
  throw new CommandError('conflict', 'reissue_own_receipt', {
    order: row.order_number,
    invoice: verdict.receipt.invoiceNumber,
  });
}
