/**
 * The goods area's handlers (shared/contract/goods.ts): thin adapters from validated input to the goods service.
 * Posting, reversing and writing off carry a manager's PIN (the guard verified it: `caller.approver`).
 */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import type { GoodsService } from './service.ts';

export function goodsHandlers(goods: GoodsService): AreaHandlers<'goods'> {
  return areaHandlers('goods', {
    'suppliers.list': async () => goods.suppliers(),
    'suppliers.put': async (input, caller) => goods.putSupplier(input, caller),
    'goods.receipts': async ({ limit }) => goods.receipts(limit ?? 100),
    'goods.receipt': async ({ id }) => goods.receipt(id),
    'goods.receiptSave': async (input) => goods.saveDraft(input),
    'goods.receiptPost': async ({ id, confirmBelowPurchase }, caller) =>
      goods.post(id, confirmBelowPurchase === true, caller),
    'goods.receiptReverse': async ({ id }, caller) => goods.reverse(id, caller),
    'goods.writeOff': async (input, caller) => goods.writeOff(input, caller),
    'goods.writeOffs': async ({ from, to }) => goods.writeOffs(from, to),
    'goods.stock': async (filter, caller) => goods.stock(filter, caller?.actor?.role === 'manager'),
    'goods.priceChanges': async ({ from, to }) => goods.priceChanges(from, to),
    'goods.kep': async ({ from, to, csv }) => goods.kep(from, to, csv === true),
  });
}
