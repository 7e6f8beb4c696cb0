/**
 * The goods area's handlers (shared/contract/goods.ts): thin adapters from validated input to the goods service.
 * Posting, reversing and writing off carry a manager's PIN (the guard verified it: `caller.approver`).
 */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import type { GoodsService } from './service.ts';
import type { StocktakeService } from './stocktake.ts';
import type { GoodsDocuments } from './documents.ts';
import type { Caller } from '../auth/context.ts';
import type { HubStock } from './hub-stock.ts';

const isManager = (caller: Caller | undefined): boolean =>
  caller?.actor?.role === 'manager' || caller?.approver !== undefined;

export function goodsHandlers(
  goods: GoodsService,
  stocktake: StocktakeService,
  documents: GoodsDocuments,
  hubStock: HubStock,
): AreaHandlers<'goods'> {
  return areaHandlers('goods', {
    'suppliers.list': async () => goods.suppliers(),
    'suppliers.put': async (input, caller) => goods.putSupplier(input, caller),
    'goods.receipts': async ({ limit }) => goods.receipts(limit ?? 100),
    'goods.receipt': async ({ id }) => goods.receipt(id),
    'goods.receiptSave': async (input) => goods.saveDraft(input),
    'goods.receiptLinesCsv': async ({ csv }) => goods.linesFromCsv(csv),
    'goods.receiptPost': async ({ id, confirmBelowPurchase }, caller) =>
      goods.post(id, confirmBelowPurchase === true, caller),
    'goods.receiptReverse': async ({ id }, caller) => goods.reverse(id, caller),
    'goods.writeOff': async (input, caller) => goods.writeOff(input, caller),
    'goods.writeOffs': async ({ from, to }) => goods.writeOffs(from, to),
    'goods.stock': async (filter, caller) => goods.stock(filter, caller?.actor?.role === 'manager'),
    'goods.priceChanges': async ({ from, to }) => goods.priceChanges(from, to),
    'goods.kep': async ({ from, to, csv }) => goods.kep(from, to, csv === true),
    'goods.kepPdf': async ({ from, to }) => documents.kep(from, to),
    'goods.receiptPdf': async ({ id }) => documents.receipt(id),
    'goods.priceChangePdf': async ({ id }) => documents.priceChange(id),
    'goods.writeOffPdf': async ({ id }) => documents.writeOff(id),
    'goods.countStart': async ({ groups }, caller) => stocktake.start(groups, caller, true),
    'goods.counts': async ({ limit }) => stocktake.list(limit ?? 50),
    'goods.count': async ({ id }, caller) => stocktake.view(id, isManager(caller)),
    'goods.countEnter': async ({ id, lines }, caller) => stocktake.enter(id, lines, caller, isManager(caller)),
    'goods.countImport': async ({ id, csv }, caller) => stocktake.importCsv(id, csv, caller, isManager(caller)),
    'goods.countPost': async ({ id }, caller) => stocktake.post(id, caller, true),
    'goods.countCancel': async ({ id }, caller) => stocktake.cancel(id, caller, true),
    'goods.countPdf': async ({ id }) => documents.count(id),
    'goods.minimumSet': async ({ code, minimum }, caller) => stocktake.setMinimum(code, minimum, caller),
    'goods.reorder': async ({ csv }) => stocktake.reorder(csv === true),
    'goods.reorderPdf': async () => documents.reorder(),
    'goods.hubStock': async ({ codes }) => hubStock.read(codes),
  });
}
