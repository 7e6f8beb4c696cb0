/**
 * The handlers of the stock-taking endpoints (shared/hub/contract/counts.ts): the guard has identified the manager
 * and settled the shop; the service (hub/services/goods-counts.ts) decides the rest. A count's start, its posting
 * (once: a retry answers the posted count and is not audited again) and its cancelling are audited.
 */
import type { COUNT_API } from '../../shared/hub/contract.ts';
import type { HubHandlers } from '../router.ts';
import { hubCountPdf } from '../goods/documents.ts';
import type { RouteDeps } from './deps.ts';

export function countHandlers({ service, guard, now }: RouteDeps): HubHandlers<typeof COUNT_API> {
  const audit = guard.audit;
  return {
    goodsCounts: ({ shop }) => service.counts(shop),
    goodsCount: ({ input, shop }) => service.countView(shop, input.countId),
    goodsCountStart: async ({ who, input, shop }) => {
      const c = await service.countStart(shop, input.groups, who.self);
      await audit(who, 'goods_count_start', { number: c.number, groups: c.groups?.join(', ') ?? '' }, shop);
      return c;
    },
    goodsCountEnter: ({ who, input, shop }) => service.countEnter(shop, input, who.self),
    goodsCountImport: ({ who, input, shop }) => service.countImport(shop, input.countId, input.csv, who.self),
    goodsCountPost: async ({ who, input, shop }) => {
      const { view, posted } = await service.countPost(shop, input.countId, who.self);
      if (posted)
        await audit(
          who,
          'goods_count_post',
          { number: view.number, surplus: view.totals.surplusRetailPara, shortage: view.totals.shortageRetailPara },
          shop,
        );
      return view;
    },
    goodsCountCancel: async ({ who, input, shop }) => {
      const c = await service.countCancel(shop, input.countId, who.self);
      await audit(who, 'goods_count_cancel', { number: c.number }, shop);
      return c;
    },
    goodsCountPdf: async ({ input, shop }) => {
      const c = await service.countView(shop, input.countId);
      const lang = input.lang ?? 'sr-Cyrl';
      const bytes = await hubCountPdf(c, await service.shopIdentity(shop), lang, new Date(now()));
      return {
        kind: 'file',
        filename: `popis-${c.number.replace('/', '-')}.pdf`,
        type: 'application/pdf',
        text: bytes,
      };
    },
  };
}
