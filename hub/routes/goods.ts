/**
 * The handlers of the goods endpoints (shared/hub/contract/goods.ts): the guard has identified the manager (or the
 * till) and settled the shop; the service decides the rest; each document is audited once posted.
 */
import type { GOODS_API } from '../../shared/hub/contract.ts';
import type { HubGoodsDoc } from '../../shared/hub/goods-protocol.ts';
import { kepCsv, reorderCsv } from '../../shared/i18n/goods.ts';
import type { HubHandlers } from '../router.ts';
import { hubKepPdf, hubReceiptPdf, hubReorderPdf, hubTransferPdf } from '../goods/documents.ts';
import type { RouteDeps } from './deps.ts';
import { recordAudit } from '../audit.ts';
import { HubError } from '../../shared/hub/protocol.ts';

const CSV = 'text/csv; charset=utf-8';
const PDF = 'application/pdf';

export function goodsHandlers(deps: RouteDeps): HubHandlers<typeof GOODS_API> {
  const { service, guard, now } = deps;
  const audit = guard.audit;
  // The title block of the shop's A4 documents: its name, PIB and address as the hub keeps them.
  const identity = (shopId: number) => service.shopIdentity(shopId);
  return {
    goodsStock: ({ shop }) => service.stock(shop),
    goodsDocs: async ({ input, shop }) => ({ docs: await service.goodsDocs(shop, input.from, input.to) }),
    goodsReceipt: async ({ who, input, shop }) =>
      auditedReceipt(guard, who, shop, await service.postReceipt(shop, input, who.self)),
    goodsWriteOff: async ({ who, input, shop }) => {
      const doc = await service.writeOff(shop, input, who.self);
      await audit(who, 'goods_writeoff', { number: doc.number, code: input.code, reason: input.reason }, shop);
      return doc;
    },
    goodsPriceChange: async ({ who, input, shop }) => {
      const doc = await service.changePrice(shop, input.code, input.pricePara, who.self);
      await audit(
        who,
        'goods_price_change',
        { code: input.code, price: input.pricePara, number: doc?.number ?? null },
        shop,
      );
      return { doc };
    },
    goodsTransfers: async ({ shop }) => ({ transfers: await service.transfers(shop) }),
    goodsTransferSend: async ({ who, input, shop }) => {
      const t = await service.sendTransfer(shop, input, who.self);
      await audit(who, 'goods_transfer_out', { number: t.number, shop: t.toShop }, shop);
      return t;
    },
    goodsTransferReceive: async ({ who, input, shop }) => {
      const t = await service.receiveTransfer(shop, input, who.self);
      await audit(who, 'goods_transfer_in', { number: t.receivedNumber ?? '', shop: t.fromShop }, shop);
      return t;
    },
    goodsTransferPdf: async ({ input, shop }) => {
      const t = await service.transfer(input.transferId, shop);
      const bytes = await hubTransferPdf(t, await identity(t.fromShopId), input.lang ?? 'sr-Cyrl', new Date(now()));
      return { kind: 'file', filename: `prenos-${t.number.replace('/', '-')}.pdf`, type: PDF, text: bytes };
    },
    goodsKep: async ({ input, shop }) => {
      const lang = input.lang ?? 'sr-Cyrl';
      const view = await service.kep(shop, input.from, input.to, lang);
      if (input.format === 'csv')
        return { kind: 'file', filename: `KEP-${input.from}-${input.to}.csv`, type: CSV, text: kepCsv(view, lang) };
      if (input.format === 'pdf') {
        const bytes = await hubKepPdf(view, await identity(shop), lang, new Date(now()));
        return { kind: 'file', filename: `KEP-${input.from}-${input.to}.pdf`, type: PDF, text: bytes };
      }
      return { ...view, late: await service.lateReceiptDays(shop) };
    },
    tillStock: ({ who, input }) => service.tillStock(who, input.codes, { since: input.since, after: input.after }),
    goodsFormData: async ({ shop }) => ({
      suppliers: await service.suppliers(shop),
      taxRates: await service.goodsTaxRates(shop),
      labels: await service.taxLabels(shop),
    }),
    goodsSupplierPut: async ({ who, input, shop }) => {
      const s = await service.putSupplier(shop, input);
      await audit(who, 'goods_supplier', { name: s.name, pib: s.pib }, shop);
      return s;
    },
    goodsShopIdentity: ({ shop }) => service.shopIdentity(shop),
    goodsShopIdentityPut: async ({ who, input, shop }) => {
      const s = await service.setShopIdentity(shop, input);
      await audit(who, 'goods_shop_identity', { pib: s.pib, address: s.address }, shop);
      return s;
    },
    goodsReceiptCsvLines: async ({ input, shop }) => ({ lines: await service.receiptCsvLines(shop, input.csv) }),
    // The approving manager was checked by the guard (the till's word is not enough), as for a till's catalog.
    tillGoodsOpening: async ({ who, input, approver }) => {
      if (!approver)
        throw new HubError(403, 'goods_opening_unapproved', "a hub manager's PIN is required", 'approverPin');
      const r = await service.goodsOpening(who, input, approver.name);
      if (!r.repeated)
        await recordAudit(service.db, {
          shopId: who.shopId,
          actor: approver.name,
          action: 'goods_opening',
          detail: { number: r.doc.number, till: who.name, value: r.doc.valuePara },
        });
      return r;
    },
    ...receiptHandlers(deps),
  };
}

/** A posted goods receipt audited (posted at once or from its draft), and answered. */
async function auditedReceipt(
  guard: RouteDeps['guard'],
  who: Parameters<RouteDeps['guard']['audit']>[0],
  shop: number,
  doc: HubGoodsDoc,
): Promise<HubGoodsDoc> {
  await guard.audit(
    who,
    'goods_receipt',
    {
      number: doc.number,
      supplier: String(doc.detail.supplier),
      value: doc.valuePara,
      // The products the receipt made in the catalog, by code.
      ...(Array.isArray(doc.detail.newProducts) ? { newProducts: doc.detail.newProducts.join(', ') } : {}),
    },
    shop,
  );
  return doc;
}

/** Receipt drafts, their posting and reversal, the receipt's PDF, minimums and the reorder list. */
function receiptHandlers({
  service,
  guard,
  now,
}: RouteDeps): Pick<
  HubHandlers<typeof GOODS_API>,
  | 'goodsReceipts'
  | 'goodsReceiptDraftSave'
  | 'goodsReceiptDraftDelete'
  | 'goodsReceiptDraftPost'
  | 'goodsReceiptReverse'
  | 'goodsReceiptPdf'
  | 'goodsMinimums'
  | 'goodsMinimumSet'
  | 'goodsReorder'
> {
  const audit = guard.audit;
  return {
    goodsReceipts: async ({ shop }) => ({ receipts: await service.goodsReceipts(shop) }),
    goodsReceiptDraftSave: async ({ who, input, shop }) => {
      const r = await service.saveDraft(shop, input, who.self);
      await audit(who, 'goods_receipt_draft', { supplier: r.supplier, invoice: r.invoiceNumber }, shop);
      return r;
    },
    goodsReceiptDraftDelete: async ({ who, input, shop }) => {
      await service.deleteDraft(shop, input.id);
      await audit(who, 'goods_receipt_draft_delete', { id: input.id }, shop);
      return { ok: true as const };
    },
    goodsReceiptDraftPost: async ({ who, input, shop }) =>
      auditedReceipt(
        guard,
        who,
        shop,
        await service.postDraft(shop, input.id, input.confirmBelowPurchase ?? false, who.self),
      ),
    goodsReceiptReverse: async ({ who, input, shop }) => {
      const doc = await service.reverseReceipt(shop, input.id, who.self);
      await audit(
        who,
        'goods_receipt_reverse',
        { number: doc.number, of: String(doc.detail.reversesNumber), value: doc.valuePara },
        shop,
      );
      return doc;
    },
    goodsReceiptPdf: async ({ input, shop }) => {
      const r = await service.receiptForPrint(shop, input.id);
      const bytes = await hubReceiptPdf(r, await service.shopIdentity(shop), input.lang ?? 'sr-Cyrl', new Date(now()));
      const name = `${r.kind === 'reversal' ? 'storno' : 'kalkulacija'}-${(r.number ?? '').replace('/', '-')}.pdf`;
      return { kind: 'file', filename: name, type: PDF, text: bytes };
    },
    goodsMinimums: async ({ shop }) => ({ minimums: await service.minimums(shop) }),
    goodsMinimumSet: async ({ who, input, shop }) => {
      const minimum = await service.setMinimum(shop, input);
      await audit(who, 'goods_minimum', { code: input.code, minimumMilli: input.minMilli }, shop);
      return { minimum };
    },
    goodsReorder: async ({ input, shop }) => {
      const lang = input.lang ?? 'sr-Cyrl';
      const view = await service.reorder(shop);
      const day = new Date(now());
      const name = `narucivanje-${day.toISOString().slice(0, 10)}`;
      if (input.format === 'csv')
        return { kind: 'file', filename: `${name}.csv`, type: CSV, text: reorderCsv(view, lang) };
      if (input.format === 'pdf') {
        const bytes = await hubReorderPdf(view, await service.shopIdentity(shop), lang, day);
        return { kind: 'file', filename: `${name}.pdf`, type: PDF, text: bytes };
      }
      return view;
    },
  };
}
