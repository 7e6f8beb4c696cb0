/**
 * The one capture pipeline (docs/outbox.md, "Capture"): every document that moves money or goods — a sale, a refund,
 * a further advance, a final sale, a copy — is captured durably (its order, frozen body and outbox row in one
 * transaction), the engine is kicked, and the caller waits at most the online budget for the fiscal answer.
 *
 * When the engine already knows nothing can sign it now (the gateway offline or paused, and no ready L-PFR), or the
 * budget is zero, the answer is given at once: nobody waits on a network that is not there. Sales and the back
 * office used to do this each in their own way, and a refund taken during an outage waited out the whole budget.
 */
import type { NewOrder, OrderRow, OrderStore } from '../orders/store.ts';
import type { SyncEngine } from './engine.ts';

export interface CapturePipelineDeps {
  store: OrderStore;
  engine: Pick<SyncEngine, 'kick' | 'fiscalNow' | 'waitForSettled'>;
  onlineBudgetMs: () => number;
}

export interface CaptureOptions {
  /**
   * Called when the order is still queued as the answer is given, in the same synchronous step as the read of its
   * state: an engine that signs it a moment later finds whatever this records (the sale's outage slip).
   */
  onQueued?: (row: OrderRow) => void;
}

export interface CapturePipeline {
  /** Captures `build`'s order (due at `now`), kicks the engine, waits up to the budget; returns the order as it is. */
  run(build: () => NewOrder, now: number, options?: CaptureOptions): Promise<OrderRow>;
}

export function createCapturePipeline(deps: CapturePipelineDeps): CapturePipeline {
  const { store, engine } = deps;
  return {
    async run(build, now, options = {}) {
      const { orderId } = store.capture(build, now);
      engine.kick();
      const budgetMs = deps.onlineBudgetMs();
      if (engine.fiscalNow && budgetMs > 0) await engine.waitForSettled(orderId, budgetMs);
      const row = store.get(orderId);
      if (!row) throw new Error(`order ${orderId} vanished after its capture`);
      if (row.state === 'queued') options.onQueued?.(row);
      return row;
    },
  };
}
