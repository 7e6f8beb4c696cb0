/**
 * Reconciliation is bounded. An order whose outcome is unknown and past the dedupe margin is looked up
 * (fiscalization-lookup, then the archive record) instead of being resent. When those look-ups keep
 * failing — the archive record unreadable, a 404 for a receipt the lookup says exists, the order missing
 * from every lookup reply — the engine stops after `maxLookupTries` failed look-ups and parks the order in
 * needs_attention with the gateway's last words (code KASA_RECONCILE_LIMIT). A person resumes it with
 * `orders.resend`: the order is then looked up again first (never resent blindly), with a fresh budget.
 *
 * The count is kept in the attempts journal (mode `lookup`), so a restart neither forgets nor resets it.
 */
import type { GatewayErrorView } from '../../shared/domain.ts';
import type { Db } from '../db/open.ts';

export const RECONCILE_LIMIT = 'KASA_RECONCILE_LIMIT';
/** Failed look-ups of one order before it needs a person. */
export const DEFAULT_MAX_LOOKUP_TRIES = 12;

/** Failed look-ups of the order since it was last parked (a resume starts a fresh budget). */
export function failedLookups(db: Db, orderId: number): number {
  return (
    db
      .prepare<[number, number], { n: number }>(
        `SELECT count(*) AS n FROM attempts
          WHERE order_id = ? AND mode = 'lookup' AND outcome IN ('retry', 'unknown')
            AND id > coalesce((SELECT max(id) FROM attempts WHERE order_id = ? AND outcome = 'rejected'), 0)`,
      )
      .get(orderId, orderId)?.n ?? 0
  );
}

/** True when this failure (not yet counted) spends the order's look-up budget. */
export function lookupBudgetSpent(db: Db, orderId: number, maxTries: number): boolean {
  return failedLookups(db, orderId) + 1 >= maxTries;
}

/** The error an order is parked with once its look-up budget is spent: the gateway's words, Kasa's code. */
export function reconcileLimitView(last: GatewayErrorView, tries: number): GatewayErrorView {
  return {
    ...last,
    code: RECONCILE_LIMIT,
    message: `${tries} look-ups failed; last: ${last.message}${last.code ? ` (${last.code})` : ''}`,
  };
}

/** For OrderStore.requeue: an order parked by this budget is looked up first when resumed. */
export function parkedByReconcileLimit(lastError: string | null): boolean {
  return lastErrorCode(lastError) === RECONCILE_LIMIT;
}

/** The code of an order parked because the L-PFR could not prove it never signed it (engine.ts, #lpfrLookUp). */
export const LPFR_UNPROVEN = 'LPFR_UNPROVEN';

/** For OrderStore.requeue: an order parked unproven is looked up at the L-PFR again when resumed. */
export function parkedUnproven(lastError: string | null): boolean {
  return lastErrorCode(lastError) === LPFR_UNPROVEN;
}

/** The `code` of an order's stored last error (JSON); an error that is not JSON, or none, has no code. */
function lastErrorCode(lastError: string | null): unknown {
  if (!lastError) return undefined;
  try {
    return (JSON.parse(lastError) as { code?: unknown }).code;
  } catch {
    return undefined;
  }
}
