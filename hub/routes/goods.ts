/**
 * The handlers of the goods endpoints (shared/hub/contract/goods.ts): the guard has identified the manager (or the
 * till) and settled the shop; the service decides the rest; each document is audited once posted.
 */
import type { GOODS_API } from '../../shared/hub/contract.ts';
import { kepCsv } from '../../shared/i18n/goods.ts';
import type { HubHandlers } from '../router.ts';
import { hubKepPdf, hubTransferPdf } from '../goods/documents.ts';
import type { RouteDeps } from './deps.ts';

const CSV = 'text/csv; charset=utf-8';
const PDF = 'application/pdf';

export function goodsHandlers({ service, guard, now }: RouteDeps): HubHandlers<typeof GOODS_API> {
  const audit = guard.audit;
  // The title block of the shop's A4 documents: its name, PIB and address as the hub keeps them.
  const identity = (shopId: number) => service.shopIdentity(shopId);
  return {
    goodsStock: ({ shop }) => service.stock(shop),
    goodsDocs: async ({ input, shop }) => ({ docs: await service.goodsDocs(shop, input.from, input.to) }),
    goodsReceipt: async ({ who, input, shop }) => {
      const doc = await service.postReceipt(shop, input, who.self);
      await audit(
        who,
        'goods_receipt',
        { number: doc.number, supplier: String(doc.detail.supplier), value: doc.valuePara },
        shop,
      );
      return doc;
    },
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
      return view;
    },
    tillStock: ({ who, input }) => service.tillStock(who, input.codes, { since: input.since, after: input.after }),
    goodsFormData: async ({ shop }) => ({
      suppliers: await service.suppliers(shop),
      taxRates: await service.goodsTaxRates(shop),
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
  };
}
