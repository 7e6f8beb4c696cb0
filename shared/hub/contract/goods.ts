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
import { chainEndpoint, shopEndpoint, tillEndpoint, type HubFile } from './define.ts';

/** A period of a shop's documents: its days as in the report (`from`, `to`: YYYY-MM-DD). */
const DocsQuery = HubKepQuery.pick({ shopId: true, from: true, to: true });

export const GOODS_API = {
  /** A shop's stock with its value at retail and purchase price; the admin token without a shop: the chain by shop. */
  goodsStock: chainEndpoint<HubStockView>()('GET /api/admin/goods/stock', HubStockQuery),
  goodsDocs: shopEndpoint<{ docs: HubGoodsDoc[] }>()('GET /api/admin/goods/docs', DocsQuery),
  goodsReceipt: shopEndpoint<HubGoodsDoc>()('POST /api/admin/goods/receipts', HubReceiptInput, { status: 201 }),
  goodsWriteOff: shopEndpoint<HubGoodsDoc>()('POST /api/admin/goods/write-offs', HubWriteOffInput, { status: 201 }),
  /** A product's retail price at the hub with its price change record (null: nothing on hand to revalue). */
  goodsPriceChange: shopEndpoint<{ doc: HubGoodsDoc | null }>()(
    'POST /api/admin/goods/price-changes',
    HubPriceChangeInput,
  ),
  goodsTransfers: chainEndpoint<{ transfers: HubTransfer[] }>()('GET /api/admin/goods/transfers', HubStockQuery),
  goodsTransferSend: shopEndpoint<HubTransfer>()('POST /api/admin/goods/transfers', HubTransferSendInput, {
    status: 201,
  }),
  goodsTransferReceive: shopEndpoint<HubTransfer>()('POST /api/admin/goods/transfers/receive', HubTransferReceiveInput),
  /** A transfer as an A4 PDF (its shops, lines sent and received, differences). */
  goodsTransferPdf: shopEndpoint<HubFile>()('GET /api/admin/goods/transfers/pdf', HubTransferPdfQuery),
  /** The shop's KEP book of a period as JSON, or with `format` as CSV or an A4 PDF. */
  goodsKep: shopEndpoint<HubKepView | HubFile>()('GET /api/admin/goods/kep', HubKepQuery),
  /** The till's shop's stock of some products (comma-separated codes): the counter's figures. */
  tillStock: tillEndpoint<TillStockAnswer>()('GET /api/till/stock', TillStockQuery),
  /** The goods forms' choices: the shop's suppliers and the VAT rate of each tax label its tills report. */
  goodsFormData: shopEndpoint<HubGoodsFormData>()('GET /api/admin/goods/form-data', HubStockQuery),
  /** A supplier saved (new, or changed by `id`): PIB check digit verified, one PIB one supplier per shop. */
  goodsSupplierPut: shopEndpoint<HubSupplier>()('POST /api/admin/goods/suppliers', HubSupplierInput),
  /** The shop's name, PIB and address as its A4 documents print them. */
  goodsShopIdentity: shopEndpoint<HubShopIdentity>()('GET /api/admin/goods/shop-identity', HubStockQuery),
  goodsShopIdentityPut: shopEndpoint<HubShopIdentity>()('PUT /api/admin/goods/shop-identity', HubShopIdentityInput),
  /** The shop's goods receipts: drafts, posted, reversed and reversals, newest first. */
  goodsReceipts: shopEndpoint<{ receipts: HubReceipt[] }>()('GET /api/admin/goods/receipts', HubStockQuery),
  /** A receipt saved as a draft (new, or over a draft by `id`): nothing moves. */
  goodsReceiptDraftSave: shopEndpoint<HubReceipt>()('POST /api/admin/goods/receipts/drafts', HubReceiptDraftInput),
  goodsReceiptDraftDelete: shopEndpoint<{ ok: true }>()(
    'POST /api/admin/goods/receipts/drafts/delete',
    HubReceiptIdInput,
  ),
  /** A draft posted once (a second post is refused and numbers nothing). */
  goodsReceiptDraftPost: shopEndpoint<HubGoodsDoc>()('POST /api/admin/goods/receipts/drafts/post', HubReceiptIdInput, {
    status: 201,
  }),
  /** A posted receipt reversed once: a numbered reversal taking its goods back out. */
  goodsReceiptReverse: shopEndpoint<HubGoodsDoc>()('POST /api/admin/goods/receipts/reverse', HubReceiptIdInput, {
    status: 201,
  }),
  /** A posted receipt or a reversal with its calculation as an A4 PDF. */
  goodsReceiptPdf: shopEndpoint<HubFile>()('GET /api/admin/goods/receipts/pdf', HubReceiptPdfQuery),
  /** The shop's minimums per product. */
  goodsMinimums: shopEndpoint<{ minimums: HubMinimum[] }>()('GET /api/admin/goods/minimums', HubStockQuery),
  /** A product's minimum set (0 clears it). */
  goodsMinimumSet: shopEndpoint<{ minimum: HubMinimum | null }>()('POST /api/admin/goods/minimums', HubMinimumInput),
  /** The reorder list per supplier as JSON, or with `format` as CSV or an A4 PDF. */
  goodsReorder: shopEndpoint<ReorderView | HubFile>()('GET /api/admin/goods/reorder', HubReorderQuery),
  /** A supplier's CSV read as receipt lines of the shop's products (a bad row refused at `csv`, nothing added). */
  goodsReceiptCsvLines: shopEndpoint<{ lines: HubReceiptLine[] }>()(
    'POST /api/admin/goods/receipts/csv-lines',
    HubReceiptCsvInput,
  ),
  /**
   * A till's own goods book brought over as its shop's opening stock, approved by a hub manager's PIN the guard
   * checks; refused when the shop's book has any movement, made once per `key`.
   */
  tillGoodsOpening: tillEndpoint<TillGoodsOpeningAnswer>()('POST /api/till/goods/opening', TillGoodsOpeningInput, {
    pin: { field: 'approverPin', scope: 'approval' },
  }),
} as const;
