/** Catalog and parked-sale commands (owned by electron/catalog). */
import { z } from 'zod';
import { command, event } from './define.ts';
import * as s from './schemas.ts';
import type { Milli, Para } from '../money.ts';
import { MAX_PERCENT_BP, MIN_PERCENT_BP } from '../catalog/price-change.ts';

export const PRODUCT_UNITS = ['piece', 'kg', 'l'] as const;
/** The unit a product is sold in; `kg` and `l` take quantities with 3 decimals. */
export type ProductUnit = (typeof PRODUCT_UNITS)[number];

/** A product as the counter sees it. */
export interface ProductView {
  id: number;
  /** The shop's own item code (PLU/SKU); also the item code inside EAN-13 price/weight barcodes. */
  code: string;
  name: string;
  /** Every GTIN/EAN printed on the product (may be empty for loose goods). */
  barcodes: string[];
  pricePara: Para;
  /** Tax label exactly as in the gateway's tax rates (Cyrillic and Latin letters differ). */
  label: string;
  unit: ProductUnit;
  group: string | null;
  /** Shown as a quick key on the sale screen. */
  favourite: boolean;
  /** True when `label` is not among the current tax labels: such a product cannot be sold as is. */
  labelMissing: boolean;
  /** On hand in thousandths, as the goods ledger holds it (docs/goods.md); absent when it never held any. */
  onHandMilli?: Milli;
  /**
   * On a till enrolled at a store hub whose hub is away: when `onHandMilli` (the shop's stock at the hub) was last
   * read (ISO instant); absent when the figure is current or the till's own book.
   */
  onHandAsOf?: string;
}

/** What a scanned code resolved to. */
export interface ScanResult {
  product: ProductView;
  /**
   * `exact`: one of the product's barcodes; `weight`/`price`: an in-store EAN-13 (prefix 20–29);
   * `code`: the product's own item code (shelf labels, hand-typed codes).
   */
  kind: 'exact' | 'weight' | 'price' | 'code';
  /** Quantity carried by a weight barcode (thousandths of the unit), else 1000. */
  quantityMilli: Milli;
  /** Unit price to use: the catalog price, or the price carried by a price barcode. */
  unitPricePara: Para;
  code: string;
}

/** One problem in one CSV row. `row` is the line number in the file (the header is row 1). */
export interface ImportIssue {
  row: number;
  field: string;
  /** Message key (see shared/i18n/messages.ts `csv.*`). */
  code: string;
  params?: Record<string, string | number>;
  /** The message in the core's language. */
  message: string;
}

/** One valid row as it would be imported: the product it makes (no id yet) and its line in the file. */
export interface ImportPreviewRow extends Omit<ProductView, 'id'> {
  row: number;
}

export interface ImportResult {
  dryRun: boolean;
  /** Data rows in the file (without the header). */
  rows: number;
  valid: number;
  /** Rows written (0 on a dry run). */
  imported: number;
  errors: ImportIssue[];
  /** Rows whose label is not in the current tax rates (imported, but flagged). */
  warnings: ImportIssue[];
  /** The first valid rows, for the preview table. */
  preview: ImportPreviewRow[];
}

/**
 * How in-store EAN-13 codes (prefixes 20–29) are read: `2P CCCCC VVVVV K` — prefix, item code, value,
 * check digit. `weight`: the value is the quantity in thousandths (grams); `price`: the value is the line
 * price in para.
 */
export interface BarcodeRule {
  prefix: string;
  kind: 'weight' | 'price';
  /** Digits of the item code after the prefix (the value takes the rest up to the check digit). */
  codeLength: number;
}

export interface CatalogStats {
  products: number;
  favourites: number;
  /** Products whose label is not among the current tax labels. */
  labelMissing: number;
  /** The distinct labels those products use. */
  missingLabels: string[];
}

/** A cart line as parked: integers only (para, thousandths). */
export const ParkedLine = z.strictObject({
  productId: z.number().int().positive().optional(),
  name: s.text(100),
  unitPricePara: z.number({ error: 'number' }).int({ error: 'integer' }).min(0, { error: 'non_negative' }),
  quantityMilli: z.number({ error: 'number' }).int({ error: 'integer' }).positive({ error: 'positive' }),
  discountPara: z.number({ error: 'number' }).int({ error: 'integer' }).min(0, { error: 'non_negative' }),
  label: s.labelCode,
  unit: z.enum(PRODUCT_UNITS, { error: 'unit' }),
  gtin: s.gtin.optional(),
  /** The in-store price barcode the line was scanned by (its price is the product's for this line). */
  priceCode: s.gtin.optional(),
});
export type ParkedLine = z.infer<typeof ParkedLine>;

export const ParkedCart = z.strictObject({
  lines: z.array(ParkedLine, { error: 'lines' }).min(1, { error: 'lines' }).max(500, { error: 'too_many' }),
});
export type ParkedCart = z.infer<typeof ParkedCart>;

export interface ParkedSaleSummary {
  id: number;
  createdAt: string;
  name: string | null;
  lines: number;
  totalPara: Para;
}

export interface ParkedSaleView extends ParkedSaleSummary {
  cart: ParkedCart;
}

/** A cart parked on another till, found at the store hub or among the shop's gateway drafts. */
export interface RemoteParkedSale {
  draftId: number;
  name: string | null;
  createdAt: string | null;
  lines: number;
  totalPara: Para;
  /** The till that parked it (its terminal id), when it was a Kasa till. */
  terminal: string | null;
}

export const BarcodeRuleSchema = z.strictObject({
  prefix: z.string().regex(/^2\d$/, { error: 'barcode_prefix' }),
  kind: z.enum(['weight', 'price'], { error: 'barcode_kind' }),
  codeLength: z.number().int().min(1).max(9),
});

/** One page of the manager's product list (`catalog.list`). */
export interface ProductPage {
  products: ProductView[];
  /** Pass as `after` for the next page; null on the last page (and for a search, which is one page). */
  next: string | null;
  /** Products in the catalog. */
  total: number;
  /** True when a store hub owns the catalog: products are added and changed there, not on the till. */
  hubOwned: boolean;
}

/** A product as a person types it on the till (`catalog.put`): the whole product, by its code. */
export const ProductInput = z.strictObject({
  code: s.text(32),
  /** True from the "add product" form: an existing code is refused instead of overwritten. */
  create: z.boolean({ error: 'boolean' }).optional(),
  name: s.text(100),
  price: s.nonNegativeAmount,
  label: s.labelCode,
  unit: z.enum(PRODUCT_UNITS, { error: 'unit' }),
  group: z.string({ error: 'text' }).trim().max(60, { error: 'too_long' }).nullable().optional(),
  favourite: z.boolean({ error: 'boolean' }),
  barcodes: z.array(s.gtin, { error: 'too_many' }).max(20, { error: 'too_many' }),
});
export type ProductInput = z.infer<typeof ProductInput>;

/** A group of products as the bulk price change offers it. */
export interface ProductGroup {
  name: string;
  products: number;
}

/** What a bulk price change did (or, on a dry run, would do). */
export interface BulkPriceResult {
  group: string;
  percentBp: number;
  /** Products of the group whose price changes (or would). */
  count: number;
  dryRun: boolean;
}

/** A bulk price change by percent (`catalog.bulkPrice`); the hub's route takes the same fields. */
export const BulkPriceInput = z.strictObject({
  group: s.text(60),
  /** Hundredths of a percent (+5 % = 500), shared/catalog/price-change.ts. */
  percentBp: s
    .wholeNumber(MIN_PERCENT_BP, MAX_PERCENT_BP, { below: 'percent_range', above: 'percent_range' })
    .refine((v) => v !== 0, { error: 'percent_range' }),
  /** Counts the products it would change and changes nothing. */
  dryRun: z.boolean({ error: 'boolean' }).optional(),
});
export type BulkPriceInput = z.infer<typeof BulkPriceInput>;

export const catalogCommands = {
  'catalog.list': command<ProductPage>('session')(
    z.strictObject({
      query: z.string({ error: 'text' }).max(100, { error: 'too_long' }).optional(),
      /** The code after which the page starts (keyset paging in code order). */
      after: z.string({ error: 'text' }).max(32, { error: 'too_long' }).optional(),
      limit: s.pageLimit.optional(),
    }),
    "The manager screen's product list: in code order from `after`, or the search for `query` (one page). " +
      'Says whether a store hub owns the catalog. Fast at 100,000 products.',
  ),
  'catalog.put': command<ProductView>('approval')(
    ProductInput,
    "Adds or changes one product by its code (a manager's decision: approval). The label must be one of the " +
      'current tax labels; every barcode a valid GTIN no other product owns. Refused when a store hub owns the ' +
      'catalog. Audited with the price before and after.',
  ),
  'catalog.remove': command<{ removed: true }>('approval')(
    z.strictObject({ code: s.text(32) }),
    'Deletes one product with its barcodes (approval, audited). Sold receipts keep their lines. Refused when a ' +
      'store hub owns the catalog; not_found when the code is unknown.',
  ),
  'catalog.groups': command<ProductGroup[]>('session')(
    s.empty,
    "The catalog's product groups with their product counts, by name (the bulk price change's choice).",
  ),
  'catalog.bulkPrice': command<BulkPriceResult>('session')(
    BulkPriceInput,
    'Changes the price of every product of a group by a percentage (shared/catalog/price-change.ts), in one ' +
      'transaction (audited with the group, the count and the percentage). A dry run counts and ' +
      'changes nothing. invalid_input at `group` for a group with no products; refused when a store hub owns ' +
      'the catalog. Needs approval unless a dry run (shared/contract/authz.ts).',
  ),
  'catalog.export': command<{ csv: string; products: number }>('session')(
    s.empty,
    "The whole catalog as CSV with the import's columns (code;name;barcode;price;label;unit;group;favourite), " +
      'so that importing it again changes nothing.',
  ),
  'catalog.import': command<ImportResult>('session')(
    z.strictObject({
      csv: z.string({ error: 'text' }).max(50_000_000, { error: 'too_long' }),
      /** Preview only: validates every row and writes nothing. */
      dryRun: z.boolean({ error: 'boolean' }).optional(),
      /** Remove every product before importing (the file becomes the catalog). */
      replace: z.boolean({ error: 'boolean' }).optional(),
    }),
    'Validates every CSV row (errors carry row, field and message); unless dryRun, upserts the valid rows by ' +
      'code in one transaction. Rows with a label missing from the current tax rates are imported and flagged.',
  ),
  'catalog.search': command<ProductView[]>('session')(
    z.strictObject({
      query: z.string({ error: 'text' }).max(100, { error: 'too_long' }),
      limit: z.number({ error: 'number' }).int({ error: 'integer' }).min(1).max(200).optional(),
    }),
    'Products whose name words start with the query words (Cyrillic/Latin and diacritics folded), or whose ' +
      'code starts with / barcode equals the query. Fast at 100,000 products.',
  ),
  'catalog.byBarcode': command<ScanResult>('session')(
    z.strictObject({
      code: z
        .string({ error: 'text' })
        .trim()
        .regex(/^\d{1,14}$/, { error: 'gtin' }),
    }),
    'Resolves a scanned code: an exact barcode first, then an in-store EAN-13 price/weight code (prefixes ' +
      'per catalog.barcodeRules), then the product code. not_found when nothing matches.',
  ),
  'catalog.byIds': command<ProductView[]>('session')(
    z.strictObject({ ids: z.array(s.id, { error: 'too_many' }).min(1).max(500, { error: 'too_many' }) }),
    "The products with these ids as the catalog has them now (ids it no longer has are left out): the cart's " +
      'lines follow a price changed under them (`catalog.changed`).',
  ),
  'catalog.favourites': command<ProductView[]>('session')(s.empty, 'Quick-key products, in name order (at most 48).'),
  'catalog.stats': command<CatalogStats>('session')(
    s.empty,
    'Catalog size and the products flagged for a missing label.',
  ),
  'catalog.loadSample': command<ImportResult>('approval')(
    s.empty,
    'Imports the bundled sample catalog (resources/catalog/sample.csv), upserting by code.',
  ),
  'catalog.barcodeRules': command<BarcodeRule[]>('session')(
    z.strictObject({ rules: z.array(BarcodeRuleSchema).max(10).optional() }),
    'Returns the price/weight barcode rules; with `rules`, replaces them first.',
  ),
  'parked.save': command<ParkedSaleSummary>('session')(
    z.strictObject({
      name: z.string({ error: 'text' }).trim().max(60, { error: 'too_long' }).optional(),
      cart: ParkedCart,
    }),
    'Stores a cart durably (survives restart) until it is taken or deleted.',
  ),
  'parked.list': command<ParkedSaleSummary[]>('session')(s.empty, 'Parked carts, oldest first.'),
  'parked.take': command<ParkedSaleView>('session')(
    z.strictObject({ id: s.id }),
    'Removes a parked cart and returns it, atomically: a cart is resumed at most once. not_found if gone.',
  ),
  'parked.delete': command<{ deleted: true }>('session')(z.strictObject({ id: s.id }), 'Discards a parked cart.'),
  'parked.remote': command<{ online: boolean; sales: RemoteParkedSale[] }>('session')(
    s.empty,
    "Carts parked on the shop's other tills (through the store hub once enrolled, else gateway drafts); `online: " +
      'false` when neither can be reached.',
  ),
  'parked.takeRemote': command<ParkedSaleView>('session')(
    z.strictObject({ draftId: s.id }),
    "Takes a cart parked on another till (`draftId`: the hub's cart id with a hub): deleted at the hub or the " +
      'gateway first, so it is resumed at most ' +
      'once (not_found when another till took it).',
  ),
} as const;

export const catalogEvents = {
  'catalog.changed': event<{ products: number }>(
    'The catalog was imported or changed, at this till or by a store hub pull: the counter reads its quick keys, ' +
      "search and cart lines' prices again.",
  ),
} as const;
