/**
 * The handlers of the manager's price endpoints (issue 42, shared/hub/contract/manager.ts `prices…`): the guard has
 * identified the manager and settled the shop; the prices area (hub/services/prices.ts) checks and writes; each
 * change is audited here.
 */
import { HubError } from '../../shared/hub/protocol.ts';
import type { MANAGER_API } from '../../shared/hub/contract.ts';
import type { HubHandlers } from '../router.ts';
import type { RouteDeps } from './deps.ts';

type PriceKeys = 'prices' | 'pricesListPut' | 'pricesPromotionPut' | 'pricesSchedule' | 'pricesDelete';

export function pricesHandlers({
  service,
  guard,
}: Pick<RouteDeps, 'service' | 'guard'>): Pick<HubHandlers<typeof MANAGER_API>, PriceKeys> {
  const audit = guard.audit;
  return {
    prices: ({ shop }) => service.shopPrices(shop),
    pricesListPut: async ({ who, input, shop }) => {
      const r = await service.putPriceList(shop, input);
      await audit(who, 'prices_list', { id: r.id, name: r.name, where: input.where }, shop);
      return r;
    },
    pricesPromotionPut: async ({ who, input, shop }) => {
      const r = await service.putPromotion(shop, input);
      await audit(who, 'prices_promotion', { id: r.id, name: r.name, where: input.where }, shop);
      return r;
    },
    pricesSchedule: async ({ who, input, shop }) => {
      const r = await service.schedulePrice(shop, input);
      await audit(who, 'prices_schedule', { id: r.id, name: r.name, at: input.at }, shop);
      return r;
    },
    pricesDelete: async ({ who, input, shop }) => {
      const r = await service.deletePrice(shop, input.id);
      if (!r) throw new HubError(404, 'not_found', `no price rule ${input.id} for this shop`, 'id');
      await audit(who, 'prices_delete', { id: input.id, kind: r.kind, name: r.name }, shop);
      return { deleted: input.id };
    },
  };
}
