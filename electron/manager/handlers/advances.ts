/** The advances area's handlers (shared/contract/advances.ts): open chains, a further advance, the final. */
import { areaHandlers, type AreaHandlers } from '../../dispatch.ts';
import type { BackOfficeOrders } from '../orders.ts';

export function advancesHandlers(orders: BackOfficeOrders): AreaHandlers<'advances'> {
  return areaHandlers('advances', {
    'advances.list': async () => {
      const advances = orders.openAdvances();
      return { advances, chains: advances.map((a) => orders.advanceChain(a.orderId)) };
    },
    'advances.finalize': async (input) => orders.finalize(input),
    'advances.add': async (input) => orders.addAdvance(input),
  });
}
