/**
 * The hubGoods area's handlers (shared/contract/hub-goods.ts): thin adapters to the till's queue for the store hub
 * (electron/goods/hub-goods.ts). A draft is saved by a manager (the guard verified it); posting carries a hub
 * manager's PIN to the hub, which checks it.
 */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { toMilli } from '../../shared/money.ts';
import type { HubGoods } from './hub-goods.ts';

export function hubGoodsHandlers(hubGoods: HubGoods): AreaHandlers<'hubGoods'> {
  return areaHandlers('hubGoods', {
    'hubGoods.receipts': async () => hubGoods.drafts(),
    'hubGoods.receiptSave': async (input) => hubGoods.saveDraft(input),
    'hubGoods.receiptPost': async ({ id, approverPin, confirmBelowPurchase }) =>
      hubGoods.postDraft(id, approverPin, confirmBelowPurchase === true),
    'hubGoods.counts': async () => hubGoods.counts(),
    'hubGoods.countEnter': async ({ countId, code, quantity, add }) =>
      // A scan without a quantity adds one piece.
      hubGoods.enter(
        countId,
        code,
        quantity === undefined ? 1000 : (toMilli(quantity) ?? 0),
        add ?? quantity === undefined,
      ),
  });
}
