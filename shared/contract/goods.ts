/**
 * Goods and the KEP book (owned by electron/goods, docs/goods.md): suppliers, goods receipts (пријемница with the
 * retail price calculation), write-offs, stock, price change records and the KEP book of this shop. A manager
 * posts and edits (their PIN travels with the command); a cashier reads stock.
 */
import { z } from 'zod';
import { command, managerOnRecord } from './define.ts';
import * as s from './schemas.ts';
import { PRODUCT_UNITS } from './catalog.ts';
import type { Milli, Para } from '../money.ts';
import { toMilli } from '../money.ts';

const { managerPin } = s;

export interface SupplierView {
  id: number;
  name: string;
  pib: string;
  address: string | null;
  account: string | null;
  contact: string | null;
}

/** A percentage with at most two decimals (12.5 = 12,5 %). */
const percent = (min: number, max: number) =>
  z
    .number({ error: 'number' })
    .finite({ error: 'number' })
    .refine((v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, {
      error: 'amount_decimals',
    })
    .refine((v) => v >= min && v <= max, { error: 'goods_percent_range' });

const optionalText = (max: number) =>
  z.string({ error: 'text' }).trim().max(max, { error: 'too_long' }).nullable().optional();

export const SupplierInput = z.strictObject({
  managerPin,
  /** Absent: a new supplier. */
  id: s.id.optional(),
  name: s.text(120),
  pib: s.pib,
  address: optionalText(200),
  account: z
    .string({ error: 'text' })
    .trim()
    .regex(/^(\d{3}-\d{1,13}-\d{2}|\d{18})$/, { error: 'bank_account' })
    .nullable()
    .optional(),
  contact: optionalText(200),
});
export type SupplierInput = z.infer<typeof SupplierInput>;

/** One line of a goods receipt as a manager types it (decimal RSD and quantities, percentages). */
export const ReceiptLineInput = z
  .strictObject({
    /** The product's code; an unknown code with `name`, `label` and `unit` makes the product on posting. */
    code: s.text(32),
    name: s.text(100).optional(),
    label: s.labelCode.optional(),
    unit: z.enum(PRODUCT_UNITS, { error: 'unit' }).optional(),
    group: z.string({ error: 'text' }).trim().max(60, { error: 'too_long' }).nullable().optional(),
    barcode: s.gtin.optional(),
    quantity: s.quantity,
    /** The supplier's price per unit without VAT, before their discount. */
    purchasePrice: s.positiveAmount,
    /** The supplier's discount, 0–100 %. */
    discountPercent: percent(0, 100).optional(),
    /** Either the margin (the retail price is calculated) … */
    marginPercent: percent(0, 10_000).optional(),
    /** … or the retail price with VAT (kept; the margin is shown). */
    retailPrice: s.positiveAmount.optional(),
  })
  .refine((l) => (l.marginPercent === undefined) !== (l.retailPrice === undefined), {
    error: 'margin_or_retail',
    path: ['retailPrice'],
  });
export type ReceiptLineInput = z.infer<typeof ReceiptLineInput>;

/**
 * A receipt draft's supplier, invoice and lines: the same whether the till keeps the draft (`goods.receiptSave`) or
 * saves it at the hub (`hubGoods.receiptSave`, contract/hub-goods.ts), so a limit changes in one place.
 */
export const receiptDraftFields = {
  supplierId: s.id,
  invoiceNumber: s.text(40),
  invoiceDate: s.calendarDate,
  lines: z.array(ReceiptLineInput, { error: 'lines' }).min(1, { error: 'lines' }).max(1000, { error: 'too_many' }),
};

export const ReceiptInput = z.strictObject({
  managerPin,
  /** Absent: a new draft; present: the draft replaced (a posted receipt is changed only by a reversal). */
  id: s.id.optional(),
  ...receiptDraftFields,
});
export type ReceiptInput = z.infer<typeof ReceiptInput>;

/** A receipt line with its calculation. */
export interface ReceiptLineView {
  line: number;
  code: string;
  name: string;
  label: string;
  /** The tax label's rate (percent) in the gateway's current tax rates; null when the label is not among them. */
  ratePercent: number | null;
  quantityMilli: Milli;
  purchasePara: Para;
  discountBp: number;
  /** Purchase price less the discount, per unit. */
  netPara: Para;
  marginBp: number;
  /** Retail price with VAT, per unit. */
  retailPara: Para;
  /** The VAT in the retail price, per unit. */
  vatPara: Para;
  /** quantity × net, quantity × retail. */
  purchaseValuePara: Para;
  retailValuePara: Para;
  /** The product does not exist yet: it is made when the receipt is posted. */
  newProduct: boolean;
  /** For a product the receipt makes: its unit, group and barcode as typed (null otherwise). */
  unit: 'piece' | 'kg' | 'l' | null;
  group: string | null;
  barcode: string | null;
}

export interface ReceiptView {
  id: number;
  kind: 'receipt' | 'reversal';
  state: 'draft' | 'posted' | 'reversed';
  /** `5/2026` once posted. */
  number: string | null;
  supplier: SupplierView;
  invoiceNumber: string;
  invoiceDate: string;
  createdAt: string;
  postedAt: string | null;
  postedBy: string | null;
  reverses: number | null;
  purchasePara: Para;
  retailPara: Para;
  lines: ReceiptLineView[];
}

export type ReceiptSummary = Omit<ReceiptView, 'lines'> & { lineCount: number };

export interface StockItemView {
  code: string;
  name: string;
  group: string | null;
  unit: string;
  quantityMilli: Milli;
  /** Below zero: sold more than the book holds (allowed, flagged). */
  negative: boolean;
  pricePara: Para;
  retailValuePara: Para;
  /** For a manager only (null for a cashier): the last purchase price and the value at it. */
  purchasePara: Para | null;
  purchaseValuePara: Para | null;
}

export interface StockView {
  items: StockItemView[];
  groups: { group: string | null; items: number; retailValuePara: Para; purchaseValuePara: Para | null }[];
  totals: { items: number; retailValuePara: Para; purchaseValuePara: Para | null; negative: number };
}

export interface PriceChangeView {
  id: number;
  number: string;
  at: string;
  code: string;
  name: string;
  oldPara: Para;
  newPara: Para;
  quantityMilli: Milli;
  diffPara: Para;
  source: 'catalog' | 'bulk' | 'import' | 'hub' | 'receipt';
}

export interface WriteOffView {
  id: number;
  number: string;
  at: string;
  code: string;
  name: string;
  quantityMilli: Milli;
  /** The retail price per unit it was written off at. */
  pricePara: Para;
  valuePara: Para;
  reason: string;
  actor: string | null;
}

/** One entry of the KEP book in the rulebook's columns. */
export interface KepEntry {
  /** Serial number within the period. */
  number: number;
  /** The Belgrade day, YYYY-MM-DD (shown as 28.11.2026.). */
  day: string;
  /** The document and what it is, in the UI language. */
  description: string;
  debitPara: Para;
  creditPara: Para;
  balancePara: Para;
}

export interface KepView {
  from: string;
  to: string;
  openingPara: Para;
  entries: KepEntry[];
  closingPara: Para;
  /** Σ stock × retail price now (equal to the balance at the end of today). */
  stockValuePara: Para;
  /** Days whose documents are not in the book by the next day: drafts of goods received, sales not yet signed. */
  late: {
    draftReceipts: number;
    unsignedSales: number;
    /**
     * Each day not entered by the next day (a day before yesterday with a draft receipt of its invoice date or a sale
     * still unsigned), newest first, at most 31: the manager's Attention tab lists them.
     */
    days: { day: string; draftReceipts: number; unsignedSales: number }[];
  };
  /** With `csv`: the period as CSV (`;`, decimal comma, Serbian dates). */
  csv?: string;
}

/** An A4 document made in the core: the renderer saves its bytes (base64) as a file named `fileName`. */
export interface PdfFile {
  fileName: string;
  base64: string;
}

/** One product of a stock-taking (попис). */
export interface CountLineView {
  code: string;
  name: string;
  group: string | null;
  unit: string;
  /** The book's quantity when the count started (frozen). */
  bookMilli: Milli;
  /** What was counted; null while not counted yet. */
  countedMilli: Milli | null;
  /** The book's quantity when the count was last entered: the start's less the sales (and other moves) since. */
  bookAtEntryMilli: Milli | null;
  /** counted − book at entry: a surplus (вишак) above zero, a shortage (мањак) below; null while not counted. */
  differenceMilli: Milli | null;
  pricePara: Para;
  /** The difference at retail price and, for a manager, at the last purchase price. */
  retailDiffPara: Para;
  purchaseDiffPara: Para | null;
  countedAt: string | null;
}

export interface CountSummary {
  id: number;
  /** `2/2026`. */
  number: string;
  state: 'open' | 'posted' | 'cancelled';
  /** The groups counted; null: the whole shop. */
  groups: string[] | null;
  startedAt: string;
  startedBy: string | null;
  postedAt: string | null;
  postedBy: string | null;
  lineCount: number;
  countedCount: number;
}

export interface CountView extends CountSummary {
  lines: CountLineView[];
  totals: {
    surplusRetailPara: Para;
    shortageRetailPara: Para;
    surplusPurchasePara: Para | null;
    shortagePurchasePara: Para | null;
  };
}

/** A product below its minimum, to be ordered from its last supplier. */
export interface ReorderItem {
  code: string;
  name: string;
  unit: string;
  onHandMilli: Milli;
  minimumMilli: Milli;
  /** minimum − on hand (at least the minimum's worth of what is missing). */
  orderMilli: Milli;
  purchasePara: Para | null;
}

export interface ReorderView {
  /** Per supplier (the last one the product was received from; null: never received). */
  suppliers: { supplier: SupplierView | null; items: ReorderItem[] }[];
  csv?: string;
}

/** A counted quantity: zero or more, at most 3 decimals. */
const countedQuantity = z
  .number({ error: 'number' })
  .finite({ error: 'number' })
  .refine((v) => toMilli(v) !== null, { error: 'quantity_decimals' })
  .refine((v) => v >= 0, { error: 'non_negative' });

export const CountEntryInput = z.strictObject({
  /** The product's code or one of its barcodes (a scan). */
  code: s.text(32),
  quantity: countedQuantity,
  /** Adds to what was counted so far (a scan, a second shelf); else replaces it. */
  add: z.boolean({ error: 'boolean' }).optional(),
});
export type CountEntryInput = z.infer<typeof CountEntryInput>;

const period = z
  .strictObject({ from: s.calendarDate, to: s.calendarDate })
  .refine((p) => p.from <= p.to, { error: 'date_order', path: ['to'] });

/** A goods document (a receipt, a price change, a write-off, a count) by its id as an A4 PDF, for anyone logged in. */
const documentPdf = (doc: string) => command<PdfFile>('session')(z.strictObject({ id: s.id }), doc);

export const goodsCommands = {
  'suppliers.list': command<SupplierView[]>('session')(s.empty, 'Every supplier, by name.'),
  'suppliers.put': command<SupplierView>('manager')(
    SupplierInput,
    'Adds a supplier, or changes one by `id` (a manager). The PIB must carry its check digit (ISO 7064 MOD 11,10, ' +
      'docs/goods.md); one PIB is one supplier (conflict at `pib`). Audited.',
  ),
  'goods.receipts': command<ReceiptSummary[]>('session')(
    z.strictObject({ limit: s.pageLimit.optional() }),
    'Goods receipts and reversals, newest first.',
  ),
  'goods.receipt': command<ReceiptView>('session')(z.strictObject({ id: s.id }), 'One receipt with its calculation.'),
  'goods.receiptSave': command<ReceiptView>('manager')(
    ReceiptInput,
    'Saves a draft goods receipt (a new one, or a draft replaced by `id`) with each line calculated: net purchase ' +
      "price, margin ↔ retail price with the VAT of the product's tax label (the gateway's rates), rounded to the " +
      'para. Nothing moves until it is posted. An unknown code needs `name`, `label` and `unit` (a new product); a ' +
      "label not among the gateway's rates, a posted receipt or an invoice number already received from the " +
      'supplier is refused at its field.',
  ),
  'goods.receiptPost': command<ReceiptView>('manager')(
    z.strictObject({
      managerPin,
      id: s.id,
      /** The manager saw that some retail price is below its purchase price and posts it all the same. */
      confirmBelowPurchase: z.boolean({ error: 'boolean' }).optional(),
    }),
    'Posts a draft in one transaction: numbered per year, new products made, retail prices set (a price change ' +
      'record for goods on hand at another price), stock moved in, audited. A second post is refused (conflict); ' +
      'a retail price below the net purchase price is refused at its line until confirmed.',
  ),
  'goods.receiptReverse': managerOnRecord<ReceiptView>(
    'Reverses a posted receipt by a numbered reversal document that takes its quantities out again (one ' +
      'transaction, audited); the receipt becomes `reversed`. Its invoice may then be received again.',
  ),
  'goods.writeOff': command<WriteOffView>('manager')(
    z.strictObject({ managerPin, code: s.text(32), quantity: s.quantity, reason: s.text(200) }),
    'Writes goods off with a reason (отпис): numbered per year, the stock moved out at its retail price, audited.',
  ),
  'goods.writeOffs': command<WriteOffView[]>('session')(period, 'The write-offs of a period, in number order.'),
  'goods.stock': command<StockView>('session')(
    z.strictObject({
      query: z.string({ error: 'text' }).trim().max(100, { error: 'too_long' }).optional(),
      group: z.string({ error: 'text' }).trim().max(60, { error: 'too_long' }).optional(),
    }),
    'What is on hand by product and by group, at retail value; a manager also sees the value at purchase price.',
  ),
  'goods.priceChanges': command<PriceChangeView[]>('session')(
    period,
    'The price change records (нивелација) of a period, in number order.',
  ),
  'goods.kep': command<KepView>('session')(
    z
      .strictObject({ from: s.calendarDate, to: s.calendarDate, csv: z.boolean({ error: 'boolean' }).optional() })
      .refine((p) => p.from <= p.to, { error: 'date_order', path: ['to'] }),
    'The KEP book of this shop for a period (Pravilnik o evidenciji prometa): each day the debit at retail value ' +
      '(goods receipts, price increases) and the credit (fiscal turnover by payment type, refunds reducing it; ' +
      'price decreases, write-offs), with the running balance; with `csv`, the same as CSV.',
  ),
  'goods.receiptLinesCsv': command<ReceiptLineInput[]>('session')(
    z.strictObject({ csv: z.string({ error: 'text' }).min(1, { error: 'required' }).max(2_000_000) }),
    "Reads a supplier's CSV (`code;quantity;purchase price[;discount %]`, the code or a barcode) as lines for the " +
      "draft on the screen, each at the product's retail price. Saves nothing. A bad row is refused naming its row " +
      'and column.',
  ),
  'goods.kepPdf': command<PdfFile>('session')(
    period,
    'The KEP book of a period as an A4 PDF: the title block, the entries with the running balance, the totals, ' +
      '„Страна N од M“ on every page.',
  ),
  'goods.receiptPdf': documentPdf('A goods receipt with its calculation (калкулација) as an A4 PDF.'),
  'goods.priceChangePdf': documentPdf('A price change record (нивелација) as an A4 PDF.'),
  'goods.writeOffPdf': documentPdf('A write-off as an A4 PDF.'),
  'goods.countStart': command<CountView>('manager')(
    z.strictObject({
      managerPin,
      /** The groups to count; absent or empty: the whole shop. */
      groups: z.array(s.text(60), { error: 'invalid' }).max(100, { error: 'too_many' }).optional(),
    }),
    'Starts a stock-taking (попис), numbered per year: the book quantities of the products in scope are frozen; ' +
      'selling goes on and what moves after the start is accounted for when a line is counted. One count is open ' +
      'at a time (conflict). A manager; audited.',
  ),
  'goods.counts': command<CountSummary[]>('session')(
    z.strictObject({ limit: s.pageLimit.optional() }),
    'Stock-takings, newest first.',
  ),
  'goods.count': command<CountView>('session')(
    z.strictObject({ id: s.id }),
    'One stock-taking with its lines and differences (мањак / вишак) at retail and, for a manager, purchase value.',
  ),
  'goods.countEnter': command<CountView>('session')(
    z.strictObject({
      id: s.id,
      lines: z.array(CountEntryInput, { error: 'lines' }).min(1, { error: 'lines' }).max(5000, { error: 'too_many' }),
    }),
    'Enters counted quantities (typed or scanned: a code or a barcode; `add` adds to the count so far) into an ' +
      'open count. A cashier may count. A code outside the count or unknown is refused at its line; nothing is ' +
      'saved then.',
  ),
  'goods.countImport': command<CountView>('session')(
    z.strictObject({ id: s.id, csv: z.string({ error: 'text' }).min(1, { error: 'required' }).max(2_000_000) }),
    "Enters a handheld's CSV (`code;quantity` per row, a decimal comma or point; a header row is skipped) into an " +
      "open count, replacing those lines' counts (a code twice is added up). A bad row is refused naming its row " +
      'and column; nothing is saved then.',
  ),
  'goods.countPost': managerOnRecord<CountView>(
    "Posts a count in one transaction: each counted difference moves as a `count` movement at the book's retail " +
      'price, into the KEP (a surplus debited, a shortage credited); audited. A second post is refused.',
  ),
  'goods.countCancel': managerOnRecord<CountView>(
    'Cancels an open count: nothing moves; its number stays used. Audited.',
  ),
  'goods.countPdf': documentPdf('A stock-taking list with its differences as an A4 PDF.'),
  'goods.minimumSet': command<{ code: string; minimumMilli: Milli | null }>('manager')(
    z.strictObject({
      managerPin,
      code: s.text(32),
      /** The least quantity to keep; 0 removes the minimum. */
      minimum: countedQuantity,
    }),
    'Sets the minimum quantity of a product (the reorder list shows what is below it). A manager; audited.',
  ),
  'goods.reorder': command<ReorderView>('session')(
    z.strictObject({ csv: z.boolean({ error: 'boolean' }).optional() }),
    'Products below their minimum, per supplier (the last one the product was received from); with `csv`, as CSV.',
  ),
  'goods.reorderPdf': command<PdfFile>('session')(s.empty, 'The reorder list as an A4 PDF, per supplier.'),
  'goods.hubStock': command<HubStockSeen>('session')(
    z.strictObject({
      codes: z.array(s.text(64), { error: 'lines' }).max(500, { error: 'too_many' }),
    }),
    "The shop's stock of these products as the store hub keeps it; while the hub is away the last figures read from " +
      'it, with their time (`fromHub: false`). A till without a hub answers its own book.',
  ),
} as const;

/** The stock of some products as the counter shows it (`goods.hubStock`). */
export interface HubStockSeen {
  /** Whether the figures came from the hub just now (false: the last known, or the till's own book). */
  fromHub: boolean;
  /** Whether the till is enrolled at a hub (the figures are the shop's at the hub), else the till's own book. */
  hub: boolean;
  /** When the figures were read at the hub (the oldest of them); null when none was ever read. */
  at: string | null;
  stock: { code: string; qtyMilli: Milli }[];
}
