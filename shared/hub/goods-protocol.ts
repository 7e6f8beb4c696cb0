/**
 * The inputs and answers of the hub's goods endpoints (shared/hub/contract/goods.ts; docs/goods.md "At the hub"):
 * a shop's stock, its goods documents, transfers between shops of a chain and its KEP book. Money in integer para,
 * quantities in integer thousandths; each refusal names its field.
 */
import { z } from 'zod';
import type { KepEntry } from '../contract/goods.ts';
import { HubPin, ProductInput, shopId, shopIdInQuery } from './protocol.ts';

const code = z.string().trim().min(1).max(64);
/** A quantity in thousandths: above zero. */
const qtyMilli = z.number().int().positive().max(1_000_000_000_000);
const para = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const lang = z.enum(['sr-Cyrl', 'sr-Latn', 'en']).optional();

export const HubStockQuery = z.object({ shopId: shopIdInQuery });

/** A line of a goods receipt: a product of the shop's catalog, its quantity and prices. */
const receiptLine = z.object({
  code,
  qtyMilli,
  /** The net purchase price a unit, without VAT. */
  purchasePara: para,
  /** A new retail price with VAT (a price change record for goods on hand), else the catalog's. */
  pricePara: para.optional(),
  /** The supplier's discount on `purchasePara`, in hundredths of a percent: the net price is what it leaves. */
  discountBp: z.number().int().min(0).max(10_000).optional(),
  /** Without `pricePara`: the margin on the net price (bp); the retail price with VAT is calculated. */
  marginBp: z.number().int().min(0).max(1_000_000).optional(),
  /**
   * The line makes a new product of the shop's catalog under `code` when the receipt is posted (a draft makes
   * nothing): its name, tax label (one the shop's tills report), unit, group and barcodes, checked as the hub's
   * product form checks them; its retail price is the line's `pricePara` or the one its margin gives.
   */
  newProduct: ProductInput.pick({ name: true, label: true, unit: true, group: true, barcodes: true }).optional(),
});
export type HubReceiptLine = z.infer<typeof receiptLine>;

/** A goods receipt posted at the hub: the supplier, their invoice, and lines of the shop's catalog products. */
export const HubReceiptInput = z.object({
  shopId,
  /** A supplier of the shop's register (hub_suppliers): its name and PIB are the receipt's. */
  supplierId: z.number().int().positive().optional(),
  /** Without `supplierId`: the supplier's name and PIB as typed. */
  supplier: z.string().trim().min(1).max(200).optional(),
  /** The supplier's PIB, its check digit verified (shared/goods/pib.ts). */
  pib: z.string().trim().max(20).optional(),
  invoiceNumber: z.string().trim().min(1).max(60),
  invoiceDate: day,
  lines: z.array(receiptLine).min(1).max(5000),
  /** The manager confirms a retail price below the purchase price. */
  confirmBelowPurchase: z.boolean().optional(),
});

export const HubWriteOffInput = z.object({
  shopId,
  code,
  qtyMilli,
  reason: z.string().trim().min(1).max(200),
});

export const HubPriceChangeInput = z.object({ shopId, code, pricePara: para });

export const HubTransferSendInput = z.object({
  shopId,
  toShopId: z.number().int().positive(),
  lines: z.array(z.object({ code, qtyMilli })).min(1).max(5000),
});

export const HubTransferReceiveInput = z.object({
  shopId,
  transferId: z.number().int().positive(),
  /** The quantities counted on receipt, by code; a line left out is received as sent. */
  received: z.array(z.object({ code, qtyMilli: z.number().int().nonnegative().max(1_000_000_000_000) })).max(5000),
});

export const HubTransferPdfQuery = z.object({
  shopId: shopIdInQuery,
  transferId: z.coerce.number().int().positive(),
  lang,
});

export const HubKepQuery = z.object({
  shopId: shopIdInQuery,
  from: day,
  to: day,
  lang,
  /** `csv` or `pdf`: the book as a file; else its entries as JSON. */
  format: z.enum(['csv', 'pdf']).optional(),
});

/**
 * A till asks for its shop's stock: of some products (`codes`, the product's card), or, without codes, the shop's
 * whole book page by page (`after` the last code of the page before) and, with `since`, only what changed at or
 * after that instant (the counter's snapshot, refreshed in the background: docs/goods.md).
 */
export const TillStockQuery = z.object({
  codes: z
    .string()
    .max(20_000)
    .default('')
    .transform((s) => s.split(',').filter((c) => c.length > 0 && c.length <= 64))
    .pipe(z.array(z.string()).max(500)),
  /** The `cursor` of an earlier answer (the hub's clock in milliseconds). */
  since: z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number)
    .optional(),
  after: z.string().max(64).optional(),
});

export type HubReceiptInput = z.infer<typeof HubReceiptInput>;
export type HubWriteOffInput = z.infer<typeof HubWriteOffInput>;
export type HubPriceChangeInput = z.infer<typeof HubPriceChangeInput>;
export type HubTransferSendInput = z.infer<typeof HubTransferSendInput>;
export type HubTransferReceiveInput = z.infer<typeof HubTransferReceiveInput>;

export interface HubStockRow {
  code: string;
  name: string;
  qtyMilli: number;
  pricePara: number;
  purchasePara: number | null;
  retailValuePara: number;
  purchaseValuePara: number | null;
}

/** A shop's stock, and the chain's value by shop (every shop the caller may see). */
export interface HubStockView {
  shopId: number;
  rows: HubStockRow[];
  byShop: { shopId: number; name: string; retailValuePara: number; purchaseValuePara: number }[];
}

export interface HubGoodsDoc {
  id: number;
  kind: 'receipt' | 'writeoff' | 'price_change' | 'transfer_out' | 'transfer_in' | 'count' | 'reversal' | 'opening';
  number: string;
  day: string;
  at: string;
  actor: string | null;
  valuePara: number;
  detail: Record<string, unknown>;
}

export interface HubTransferLine {
  code: string;
  name: string;
  sentMilli: number;
  receivedMilli: number | null;
}

export interface HubTransfer {
  id: number;
  fromShopId: number;
  fromShop: string;
  toShopId: number;
  toShop: string;
  number: string;
  receivedNumber: string | null;
  sentAt: string;
  receivedAt: string | null;
  lines: HubTransferLine[];
}

export interface HubKepView {
  shopId: number;
  from: string;
  to: string;
  openingPara: number;
  entries: KepEntry[];
  closingPara: number;
  /** Σ stock × retail price of the shop now: the balance at the end of today. */
  stockValuePara: number;
  /** As JSON: the days not entered by the next day (a draft receipt of that invoice date), newest first. */
  late?: HubLateDay[];
}

/** A day before yesterday with goods receipts still drafts (by their invoice date): not in the KEP by the next day. */
export interface HubLateDay {
  day: string;
  draftReceipts: number;
}

export interface TillStockAnswer {
  /** When the hub answered (the till shows it with a figure it keeps while the hub is away). */
  at: string;
  stock: { code: string; qtyMilli: number }[];
  /** Asked without codes: more rows follow the last one of this page (ask again `after` its code). */
  more?: boolean;
  /** Asked without codes: where the next `since` starts (the hub's clock when it began answering). */
  cursor?: string;
}

/** A supplier of a shop kept at the hub (`id` absent: a new one); the PIB's check digit is verified. */
export const HubSupplierInput = z.object({
  shopId,
  id: z.number().int().positive().optional(),
  name: z.string().trim().min(1).max(200),
  pib: z.string().trim().max(20),
  address: z.string().trim().max(200).optional(),
  /** A Serbian bank account, `160-0000000012345-67` (or its 18 digits); empty: none. */
  bankAccount: z.string().trim().max(40).optional(),
  contact: z.string().trim().max(200).optional(),
});
export type HubSupplierInput = z.infer<typeof HubSupplierInput>;

export interface HubSupplier {
  id: number;
  name: string;
  pib: string;
  address: string;
  bankAccount: string;
  contact: string;
}

/** The shop's PIB and address, printed on the hub's A4 documents. */
export const HubShopIdentityInput = z.object({
  shopId,
  pib: z.string().trim().max(20),
  address: z.string().trim().min(1).max(200),
});
export type HubShopIdentityInput = z.infer<typeof HubShopIdentityInput>;

/** The shop's title block: its name (the hub's shop), PIB and address ('' when not set yet). */
export interface HubShopIdentity {
  name: string;
  pib: string;
  address: string;
}

/** What the goods forms offer: the shop's suppliers and the VAT rate of each tax label its tills report. */
export interface HubGoodsFormData {
  suppliers: HubSupplier[];
  /** Each label's rate in percent, as every current till of the shop reports it from the gateway. */
  taxRates: { label: string; rate: number }[];
  /** The shop's tax labels every current till reports (a label the Tax Administration refused is not): a new
   * product's choice. */
  labels: string[];
}

/** A goods receipt saved as a draft (editable, moving nothing): the receipt's form, its lines possibly none yet. */
export const HubReceiptDraftInput = HubReceiptInput.extend({
  /** The draft saved over (absent: a new one). */
  id: z.number().int().positive().optional(),
  lines: z.array(receiptLine).max(5000),
});
export type HubReceiptDraftInput = z.infer<typeof HubReceiptDraftInput>;

/** A receipt of the shop named by its id: a draft to post or delete, a posted receipt to reverse. */
export const HubReceiptIdInput = z.object({
  shopId,
  id: z.number().int().positive(),
  /** Posting a draft: the manager confirms a retail price below the purchase price. */
  confirmBelowPurchase: z.boolean().optional(),
});
export type HubReceiptIdInput = z.infer<typeof HubReceiptIdInput>;

/** A posted receipt or a reversal as an A4 PDF (its calculation). */
export const HubReceiptPdfQuery = z.object({
  shopId: shopIdInQuery,
  id: z.coerce.number().int().positive(),
  lang,
});

/** A product's minimum quantity in a shop (thousandths); 0 clears it. */
export const HubMinimumInput = z.object({
  shopId,
  code,
  minMilli: z.number().int().min(0).max(1_000_000_000_000),
});
export type HubMinimumInput = z.infer<typeof HubMinimumInput>;

/** The reorder list of a shop: JSON, or with `format` CSV or an A4 PDF. */
export const HubReorderQuery = z.object({
  shopId: shopIdInQuery,
  lang,
  format: z.enum(['csv', 'pdf']).optional(),
});

/** A goods receipt of a shop at the hub: a draft, a posted receipt (or one reversed since) or a reversal. */
export interface HubReceipt {
  id: number;
  kind: 'receipt' | 'reversal';
  state: 'draft' | 'posted' | 'reversed';
  /** The posted document's number (`5/2026`); null for a draft. */
  number: string | null;
  /** The receipt a reversal takes back (its id and number). */
  reverses: number | null;
  reversesNumber: string | null;
  /** The reversal that took a reversed receipt back (its number). */
  reversedBy: string | null;
  supplier: string;
  pib: string;
  invoiceNumber: string;
  invoiceDate: string;
  createdAt: string;
  updatedAt: string;
  actor: string | null;
  /** Retail value moved (negative for a reversal); of a draft, the lines at their given or catalog price. */
  valuePara: number;
  lineCount: number;
  /** A draft's form as saved (to edit it); null once posted. */
  draft: HubReceiptDraftInput | null;
}

/** A product's minimum in a shop. */
export interface HubMinimum {
  code: string;
  name: string;
  minMilli: number;
}

/** A supplier's CSV read as lines for the receipt on the screen (`code;quantity;purchase price[;discount %]`). */
export const HubReceiptCsvInput = z.object({ shopId, csv: z.string().min(1).max(4_000_000) });

/**
 * A till's own goods book offered to its shop at the hub as the opening stock (docs/goods.md "A till enrolled later
 * brings its book"): each product's quantity on hand (zero left out) and its last purchase price where the till
 * knows one; `key` makes it once (a resend answers the same document), `approverPin` a hub manager's PIN.
 */
export const TillGoodsOpeningInput = z.object({
  key: z.string().trim().min(8).max(100),
  approverPin: HubPin,
  lines: z
    .array(
      z.object({
        code,
        qtyMilli: z
          .number()
          .int()
          .min(-1_000_000_000_000)
          .max(1_000_000_000_000)
          .refine((v) => v !== 0, { message: 'a quantity other than zero' }),
        purchasePara: para.nullable(),
      }),
    )
    .min(1)
    .max(200_000),
});
export type TillGoodsOpeningInput = z.infer<typeof TillGoodsOpeningInput>;

/** The opening document the hub made (or had made for the same key: `repeated`). */
export interface TillGoodsOpeningAnswer {
  doc: HubGoodsDoc;
  repeated: boolean;
}
