/** The advances area's handlers (shared/contract/advances.ts): open chains, a further advance, the final. */
import { cashierOf } from '../../auth/context.ts';
import { areaHandlers, type AreaHandlers } from '../../dispatch.ts';
import type { BackOfficeOrders } from '../orders.ts';

export function advancesHandlers(orders: BackOfficeOrders): AreaHandlers<'advances'> {
  return areaHandlers('advances', {
    'advances.list': async () => {
      const advances = orders.openAdvances();
      return { advances, chains: advances.map((a) => orders.advanceChain(a.orderId)) };
    },
    // Both documents name the person logged in (the contract takes no cashier from the caller).
    'advances.finalize': async (input, caller) => orders.finalize(input, cashierOf(caller)),
    'advances.add': async (input, caller) => orders.addAdvance(input, cashierOf(caller)),
  });
}
