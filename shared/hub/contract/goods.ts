/**
 * The goods endpoints (docs/goods.md "At the hub"): a hub manager's session acts on its own shop, the admin token
 * on the shop it names (or, for the stock's value by shop and the transfers, on the whole chain); a till reads its
 * own shop's stock.
 */
import {
  HubKepQuery,
  HubShopIdentityInput,
  HubSupplierInput,
  HubPriceChangeInput,
  HubReceiptInput,
  HubStockQuery,
  HubTransferPdfQuery,
  HubTransferReceiveInput,
  HubTransferSendInput,
  HubWriteOffInput,
  TillStockQuery,
  HubMinimumInput,
  HubReceiptDraftInput,
  HubReceiptIdInput,
  HubReceiptPdfQuery,
  HubReorderQuery,
  HubReceiptCsvInput,
  TillGoodsOpeningInput,
  type HubReceiptLine,
  type TillGoodsOpeningAnswer,
  type HubMinimum,
  type HubReceipt,
  type HubGoodsDoc,
  type HubGoodsFormData,
  type HubShopIdentity,
  type HubSupplier,
  type HubKepView,
  type HubStockView,
  type HubTransfer,
  type TillStockAnswer,
} from '../goods-protocol.ts';
import type { ReorderView } from '../../contract/goods.ts';
import { endpoint, type HubFile } from './define.ts';

/** A period of a shop's documents: its days as in the report (`from`, `to`: YYYY-MM-DD). */
const DocsQuery = HubKepQuery.pick({ shopId: true, from: true, to: true });

export const GOODS_API = {
  /** A shop's stock with its value at retail and purchase price; the admin token without a shop: the chain by shop. */
  goodsStock: endpoint<HubStockView>()({
    method: 'GET',
    path: '/api/admin/goods/stock',
    caller: 'manager',
    input: HubStockQuery,
    shop: 'optional',
  }),
  goodsDocs: endpoint<{ docs: HubGoodsDoc[] }>()({
    method: 'GET',
    path: '/api/admin/goods/docs',
    caller: 'manager',
    input: DocsQuery,
    shop: 'required',
  }),
  goodsReceipt: endpoint<HubGoodsDoc>()({
    method: 'POST',
    path: '/api/admin/goods/receipts',
    caller: 'manager',
    input: HubReceiptInput,
    shop: 'required',
    status: 201,
  }),
  goodsWriteOff: endpoint<HubGoodsDoc>()({
    method: 'POST',
    path: '/api/admin/goods/write-offs',
    caller: 'manager',
    input: HubWriteOffInput,
    shop: 'required',
    status: 201,
  }),
  /** A product's retail price at the hub with its price change record (null: nothing on hand to revalue). */
  goodsPriceChange: endpoint<{ doc: HubGoodsDoc | null }>()({
    method: 'POST',
    path: '/api/admin/goods/price-changes',
    caller: 'manager',
    input: HubPriceChangeInput,
    shop: 'required',
  }),
  goodsTransfers: endpoint<{ transfers: HubTransfer[] }>()({
    method: 'GET',
    path: '/api/admin/goods/transfers',
    caller: 'manager',
    input: HubStockQuery,
    shop: 'optional',
  }),
  goodsTransferSend: endpoint<HubTransfer>()({
    method: 'POST',
    path: '/api/admin/goods/transfers',
    caller: 'manager',
    input: HubTransferSendInput,
    shop: 'required',
    status: 201,
  }),
  goodsTransferReceive: endpoint<HubTransfer>()({
    method: 'POST',
    path: '/api/admin/goods/transfers/receive',
    caller: 'manager',
    input: HubTransferReceiveInput,
    shop: 'required',
  }),
  /** A transfer as an A4 PDF (its shops, lines sent and received, differences). */
  goodsTransferPdf: endpoint<HubFile>()({
    method: 'GET',
    path: '/api/admin/goods/transfers/pdf',
    caller: 'manager',
    input: HubTransferPdfQuery,
    shop: 'required',
  }),
  /** The shop's KEP book of a period as JSON, or with `format` as CSV or an A4 PDF. */
  goodsKep: endpoint<HubKepView | HubFile>()({
    method: 'GET',
    path: '/api/admin/goods/kep',
    caller: 'manager',
    input: HubKepQuery,
    shop: 'required',
  }),
  /** The till's shop's stock of some products (comma-separated codes): the counter's figures. */
  tillStock: endpoint<TillStockAnswer>()({
    method: 'GET',
    path: '/api/till/stock',
    caller: 'till',
    input: TillStockQuery,
  }),
  /** The goods forms' choices: the shop's suppliers and the VAT rate of each tax label its tills report. */
  goodsFormData: endpoint<HubGoodsFormData>()({
    method: 'GET',
    path: '/api/admin/goods/form-data',
    caller: 'manager',
    input: HubStockQuery,
    shop: 'required',
  }),
  /** A supplier saved (new, or changed by `id`): PIB check digit verified, one PIB one supplier per shop. */
  goodsSupplierPut: endpoint<HubSupplier>()({
    method: 'POST',
    path: '/api/admin/goods/suppliers',
    caller: 'manager',
    input: HubSupplierInput,
    shop: 'required',
  }),
  /** The shop's name, PIB and address as its A4 documents print them. */
  goodsShopIdentity: endpoint<HubShopIdentity>()({
    method: 'GET',
    path: '/api/admin/goods/shop-identity',
    caller: 'manager',
    input: HubStockQuery,
    shop: 'required',
  }),
  goodsShopIdentityPut: endpoint<HubShopIdentity>()({
    method: 'PUT',
    path: '/api/admin/goods/shop-identity',
    caller: 'manager',
    input: HubShopIdentityInput,
    shop: 'required',
  }),
  /** The shop's goods receipts: drafts, posted, reversed and reversals, newest first. */
  goodsReceipts: endpoint<{ receipts: HubReceipt[] }>()({
    method: 'GET',
    path: '/api/admin/goods/receipts',
    caller: 'manager',
    input: HubStockQuery,
    shop: 'required',
  }),
  /** A receipt saved as a draft (new, or over a draft by `id`): nothing moves. */
  goodsReceiptDraftSave: endpoint<HubReceipt>()({
    method: 'POST',
    path: '/api/admin/goods/receipts/drafts',
    caller: 'manager',
    input: HubReceiptDraftInput,
    shop: 'required',
  }),
  goodsReceiptDraftDelete: endpoint<{ ok: true }>()({
    method: 'POST',
    path: '/api/admin/goods/receipts/drafts/delete',
    caller: 'manager',
    input: HubReceiptIdInput,
    shop: 'required',
  }),
  /** A draft posted once (a second post is refused and numbers nothing). */
  goodsReceiptDraftPost: endpoint<HubGoodsDoc>()({
    method: 'POST',
    path: '/api/admin/goods/receipts/drafts/post',
    caller: 'manager',
    input: HubReceiptIdInput,
    shop: 'required',
    status: 201,
  }),
  /** A posted receipt reversed once: a numbered reversal taking its goods back out. */
  goodsReceiptReverse: endpoint<HubGoodsDoc>()({
    method: 'POST',
    path: '/api/admin/goods/receipts/reverse',
    caller: 'manager',
    input: HubReceiptIdInput,
    shop: 'required',
    status: 201,
  }),
  /** A posted receipt or a reversal with its calculation as an A4 PDF. */
  goodsReceiptPdf: endpoint<HubFile>()({
    method: 'GET',
    path: '/api/admin/goods/receipts/pdf',
    caller: 'manager',
    input: HubReceiptPdfQuery,
    shop: 'required',
  }),
  /** The shop's minimums per product. */
  goodsMinimums: endpoint<{ minimums: HubMinimum[] }>()({
    method: 'GET',
    path: '/api/admin/goods/minimums',
    caller: 'manager',
    input: HubStockQuery,
    shop: 'required',
  }),
  /** A product's minimum set (0 clears it). */
  goodsMinimumSet: endpoint<{ minimum: HubMinimum | null }>()({
    method: 'POST',
    path: '/api/admin/goods/minimums',
    caller: 'manager',
    input: HubMinimumInput,
    shop: 'required',
  }),
  /** The reorder list per supplier as JSON, or with `format` as CSV or an A4 PDF. */
  goodsReorder: endpoint<ReorderView | HubFile>()({
    method: 'GET',
    path: '/api/admin/goods/reorder',
    caller: 'manager',
    input: HubReorderQuery,
    shop: 'required',
  }),
  /** A supplier's CSV read as receipt lines of the shop's products (a bad row refused at `csv`, nothing added). */
  goodsReceiptCsvLines: endpoint<{ lines: HubReceiptLine[] }>()({
    method: 'POST',
    path: '/api/admin/goods/receipts/csv-lines',
    caller: 'manager',
    input: HubReceiptCsvInput,
    shop: 'required',
  }),
  /**
   * A till's own goods book brought over as its shop's opening stock, approved by a hub manager's PIN the guard
   * checks; refused when the shop's book has any movement, made once per `key`.
   */
  tillGoodsOpening: endpoint<TillGoodsOpeningAnswer>()({
    method: 'POST',
    path: '/api/till/goods/opening',
    caller: 'till',
    input: TillGoodsOpeningInput,
    pin: { field: 'approverPin', scope: 'approval' },
  }),
} as const;
