/**
 * The prices area's handlers (shared/contract/prices.ts): thin adapters from validated input to the prices service.
 * Changes carry a manager's PIN (or the manager logged in: the guard verified it, `caller.approver`).
 */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import type { PricesService } from './service.ts';

export function pricesHandlers(prices: PricesService, deps: { kick(): void }): AreaHandlers<'prices'> {
  return areaHandlers('prices', {
    'prices.overview': async () => prices.overview(),
    'prices.quote': async (input) => prices.quote(input),
    'prices.listPut': async (input, caller) => prices.putList(input, caller),
    'prices.listDelete': async ({ id }, caller) => prices.deleteList(id, caller),
    'prices.promotionPut': async (input, caller) => prices.putPromotion(input, caller),
    'prices.promotionDelete': async ({ id }, caller) => prices.deletePromotion(id, caller),
    'prices.schedule': async (input, caller) => {
      const view = prices.schedule(input, caller);
      // The job sleeps until its next change: a new one may be sooner.
      deps.kick();
      return view;
    },
    'prices.scheduleCancel': async ({ id }, caller) => prices.cancelScheduled(id, caller),
  });
}
