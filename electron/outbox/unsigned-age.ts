/**
 * How long the oldest order has waited unsigned (docs/manager.md, "Selling without the internet"): past the shop's
 * limit, while nothing can sign now, a new cash sale needs a manager's approval (shared/contract/authz.ts
 * `unfiscalizedTooLong`). Returns the limit in hours when it is passed, else null.
 */
import type { OrderStore } from '../orders/store.ts';
import type { SyncEngine } from './engine.ts';

export function unsignedTooLong(deps: {
  engine: Pick<SyncEngine, 'fiscalNow'>;
  store: Pick<OrderStore, 'counts'>;
  limitHours: () => number;
  now: () => number;
}): () => number | null {
  return () => {
    if (deps.engine.fiscalNow) return null;
    const hours = deps.limitHours();
    const oldest = deps.store.counts().oldestQueuedAt;
    return oldest !== null && deps.now() - Date.parse(oldest) > hours * 3_600_000 ? hours : null;
  };
}
