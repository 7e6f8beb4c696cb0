/** The product catalog and parked carts, in SQLite (migration 003). */
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/open.ts';
import { Settings } from '../settings/settings.ts';
import type {
  BarcodeRule,
  CatalogStats,
  ImportResult,
  ParkedCart,
  ProductGroup,
  ParkedSaleSummary,
  ParkedSaleView,
  ProductUnit,
  ProductView,
  ScanResult,
} from '../../shared/contract/catalog.ts';
import type { Language } from '../../shared/domain.ts';
import { formatMessage } from '../../shared/i18n/messages.ts';
import { lineTotal, roundDiv } from '../../shared/money.ts';
import { DEFAULT_BARCODE_RULES, parseInStoreCode } from './barcode.ts';
import { validateCatalogCsv } from './csv.ts';
import { catalogCsv } from '../../shared/catalog/csv-export.ts';
import { changePriceByPercent, type PriceRounding } from '../../shared/catalog/price-change.ts';
import { foldText } from '../../shared/catalog/fold.ts';
import { ftsPrefixQuery } from './normalize.ts';
import { priceChanged, type PriceChangeSource } from '../goods/ledger.ts';

/** Inserts or updates one product by its code (putProduct: a CSV row or one of the hub's). */
const PRODUCT_UPSERT_SQL = `INSERT INTO products
     (code, name, name_norm, price_para, label, unit, grp, favourite, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT(code) DO UPDATE SET name = excluded.name, name_norm = excluded.name_norm,
     price_para = excluded.price_para, label = excluded.label, unit = excluded.unit, grp = excluded.grp,
     favourite = excluded.favourite, updated_at = excluded.updated_at
   RETURNING id`;

export interface ImportOptions {
  dryRun?: boolean;
  replace?: boolean;
  /** Labels of the current tax rates: products with other labels are flagged. */
  currentLabels: readonly string[];
  lang?: Language;
}

/** Everything the counter needs from the catalog; every method is synchronous and transactional. */
export interface CatalogService {
  /** Validates a CSV; unless dryRun, upserts the valid rows by code in one transaction. */
  importCsv(csv: string, options: ImportOptions): ImportResult;
  /** Search-as-you-type by name words (folded prefixes), code prefix or exact barcode. */
  search(query: string, limit: number, currentLabels: readonly string[]): ProductView[];
  /** A scanned code: exact barcode, else an in-store price/weight EAN-13, else the product code; null when unknown. */
  byBarcode(code: string, currentLabels: readonly string[]): ScanResult | null;
  favourites(currentLabels: readonly string[]): ProductView[];
  stats(currentLabels: readonly string[]): CatalogStats;
  barcodeRules(): BarcodeRule[];
  setBarcodeRules(rules: readonly BarcodeRule[]): void;
  /** Stores a cart durably. */
  park(cart: ParkedCart, name?: string): ParkedSaleSummary;
  parkedList(): ParkedSaleSummary[];
  /** Removes and returns a parked cart; null when it no longer exists. */
  takeParked(id: number): ParkedSaleView | null;
  /** True when a cart was removed. */
  deleteParked(id: number): boolean;
  /** One page of products in code order after `after` (keyset on the code's unique index). */
  page(after: string, limit: number, currentLabels: readonly string[]): { products: ProductView[]; more: boolean };
  count(): number;
  /** One product by its own code, or null. */
  product(code: string, currentLabels: readonly string[]): ProductView | null;
  /** One product by its id (a checkout line names it so), or null. */
  productById(id: number, currentLabels: readonly string[]): ProductView | null;
  /** The product that owns a barcode, or null. */
  barcodeOwner(barcode: string): { code: string; name: string } | null;
  /**
   * Adds or replaces one product by its code (with its barcodes and search terms), in one transaction; `at` is the
   * moment a price change takes effect (a scheduled change applied late, electron/prices), now when absent.
   */
  put(p: Omit<HubProductChange, 'deleted'>, source?: PriceChangeSource, at?: string): void;
  /** Deletes one product by its code with its barcodes and search terms; false when it does not exist. */
  remove(code: string): boolean;
  /** The product groups with their product counts, by name. */
  groups(): ProductGroup[];
  /**
   * Changes every price of a group by `percentBp` hundredths of a percent in one transaction (nothing on a
   * dry run); returns how many products the group has. Prices that stay the same are left as they are.
   */
  bulkPrice(group: string, percentBp: number, options: { dryRun: boolean; rounding?: PriceRounding }): number;
  /** The whole catalog as CSV with the import's columns, in code order. */
  exportCsv(lang?: Language): { csv: string; products: number };
  /** Every product as the hub takes it (hub-client/sync.ts offers the catalog at enrolment), in code order. */
  all(): (HubProductChange & { unit: ProductUnit; barcodes: string[] })[];
  /** Deletes every product (the manager chose the hub's catalog at enrolment), in the caller's transaction. */
  clear(): void;
  /** The store hub's products (hub-client/sync.ts), in the caller's transaction: upserted by code, or deleted. */
  applyHubProducts(products: readonly HubProductChange[], at: string): void;
}

/** A product as the store hub sends it: the whole product by its code, or `deleted`. */
export interface HubProductChange {
  code: string;
  name: string;
  pricePara: number;
  label: string;
  unit: string;
  group: string | null;
  favourite: boolean;
  barcodes: readonly string[];
  deleted?: boolean;
}

interface ProductRow {
  id: number;
  code: string;
  name: string;
  price_para: number;
  label: string;
  unit: ProductUnit;
  grp: string | null;
  favourite: number;
}

/** A row of parked_sales (this module writes it; the hub mirrors read it). */
export interface ParkedRow {
  id: number;
  created_at: string;
  name: string | null;
  cart: string;
}

const RULES_KEY = 'catalog.barcodeRules';
const PRODUCT_COLUMNS = 'id, code, name, price_para, label, unit, grp, favourite';

/**
 * Drops a parked cart this till no longer has: another till took it (through the hub or the gateway
 * drafts). The catalog owns the parked carts, so the hub client removes one through here.
 */
export function dropParked(db: Db, parkedId: number): void {
  db.prepare('DELETE FROM parked_sales WHERE id = ?').run(parkedId);
}

/** Creates the catalog service over an open, migrated database. */
export function createCatalogService(
  db: Db,
  now: () => Date = () => new Date(),
  hubStock: () => { asOf: string | null } | null = () => null,
): CatalogService {
  // The barcode rules are a setting: written through the settings' owner.
  const settings = new Settings(db);
  const st = {
    byIds: db.prepare<[string], ProductRow>(
      `SELECT ${PRODUCT_COLUMNS} FROM products WHERE id IN (SELECT value FROM json_each(?))`,
    ),
    barcodesOf: db.prepare<[string], { barcode: string; product_id: number }>(
      'SELECT barcode, product_id FROM product_barcodes WHERE product_id IN (SELECT value FROM json_each(?)) ORDER BY barcode',
    ),
    barcodeOwner: db.prepare<[string], { product_id: number; code: string; name: string }>(
      'SELECT b.product_id, p.code, p.name FROM product_barcodes b JOIN products p ON p.id = b.product_id WHERE b.barcode = ?',
    ),
    byCode: db.prepare<[string], ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE code = ?`),
    byId: db.prepare<[number], ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE id = ?`),
    codePrefix: db.prepare<[string, string, number], { id: number }>(
      'SELECT id FROM products WHERE code >= ? AND code < ? ORDER BY code LIMIT ?',
    ),
    fts: db.prepare<[string, number], { id: number }>(
      'SELECT rowid AS id FROM products_fts WHERE products_fts MATCH ? LIMIT ?',
    ),
    favourites: db.prepare<[], ProductRow>(
      `SELECT ${PRODUCT_COLUMNS} FROM products WHERE favourite = 1 ORDER BY name LIMIT 48`,
    ),
    upsert: db.prepare<[string, string, string, number, string, string, string | null, number, string], { id: number }>(
      PRODUCT_UPSERT_SQL,
    ),
    deleteBarcodes: db.prepare<[number]>('DELETE FROM product_barcodes WHERE product_id = ?'),
    insertBarcode: db.prepare<[string, number]>(
      'INSERT OR REPLACE INTO product_barcodes (barcode, product_id) VALUES (?, ?)',
    ),
    deleteFts: db.prepare<[number]>('DELETE FROM products_fts WHERE rowid = ?'),
    insertFts: db.prepare<[number, string]>('INSERT INTO products_fts (rowid, terms) VALUES (?, ?)'),
    count: db.prepare<[], { products: number; favourites: number }>(
      'SELECT count(*) AS products, coalesce(sum(favourite), 0) AS favourites FROM products',
    ),
    labelCounts: db.prepare<[], { label: string; n: number }>(
      'SELECT label, count(*) AS n FROM products GROUP BY label',
    ),
    page: db.prepare<[string, number], ProductRow>(
      `SELECT ${PRODUCT_COLUMNS} FROM products WHERE code > ? ORDER BY code LIMIT ?`,
    ),
    deleteProduct: db.prepare<[number]>('DELETE FROM products WHERE id = ?'),
    // count(*) alone walks the smallest index (products_label), not the table: the list asks it every page.
    total: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM products'),
    groups: db.prepare<[], { name: string; n: number }>(
      'SELECT grp AS name, count(*) AS n FROM products WHERE grp IS NOT NULL GROUP BY grp ORDER BY grp',
    ),
    groupPrices: db.prepare<[string], { id: number; code: string; name: string; price_para: number }>(
      'SELECT id, code, name, price_para FROM products WHERE grp = ?',
    ),
    setPrice: db.prepare<[number, string, number]>('UPDATE products SET price_para = ?, updated_at = ? WHERE id = ?'),
    allForExport: db.prepare<[], ProductRow & { barcodes: string | null }>(
      `SELECT ${PRODUCT_COLUMNS}, (SELECT group_concat(barcode, ' ') FROM (SELECT barcode FROM product_barcodes b
         WHERE b.product_id = products.id ORDER BY barcode)) AS barcodes FROM products ORDER BY code`,
    ),
    parkInsert: db.prepare<[string, string | null, string], { id: number }>(
      'INSERT INTO parked_sales (created_at, name, cart) VALUES (?, ?, ?) RETURNING id',
    ),
    parkList: db.prepare<[], ParkedRow>('SELECT id, created_at, name, cart FROM parked_sales ORDER BY id'),
    parkTake: db.prepare<[number], ParkedRow>(
      'DELETE FROM parked_sales WHERE id = ? RETURNING id, created_at, name, cart',
    ),
  };

  let onHand: Statement<[string], { product_code: string; qty_milli: number }> | undefined;
  let onHandAtHub: Statement<[string], { product_code: string; qty_milli: number }> | undefined;
  function views(rows: ProductRow[], currentLabels: readonly string[]): ProductView[] {
    if (rows.length === 0) return [];
    const labels = new Set(currentLabels);
    const ids = JSON.stringify(rows.map((r) => r.id));
    const codes = new Map<number, string[]>();
    for (const b of st.barcodesOf.all(ids)) {
      const list = codes.get(b.product_id);
      if (list) list.push(b.barcode);
      else codes.set(b.product_id, [b.barcode]);
    }
    // What the goods ledger holds on hand (electron/goods/ledger.ts writes it; read here for the counter), or on a
    // till enrolled at a hub the snapshot of the hub's book (electron/goods/hub-stock.ts), with the time it is as of
    // while the hub is away. Prepared at first use: the catalog also runs on a database migrated only as far as its
    // own tables (migration 003).
    const atHub = hubStock();
    const read = atHub
      ? (onHandAtHub ??= db.prepare<[string], { product_code: string; qty_milli: number }>(
          'SELECT product_code, qty_milli FROM hub_stock_seen WHERE product_code IN (SELECT value FROM json_each(?))',
        ))
      : (onHand ??= db.prepare<[string], { product_code: string; qty_milli: number }>(
          'SELECT product_code, qty_milli FROM stock WHERE product_code IN (SELECT value FROM json_each(?))',
        ));
    const held = new Map(read.all(JSON.stringify(rows.map((r) => r.code))).map((h) => [h.product_code, h.qty_milli]));
    const asOf = atHub?.asOf ? { onHandAsOf: atHub.asOf } : {};
    return rows.map((r) => ({
      id: r.id,
      code: r.code,
      name: r.name,
      barcodes: codes.get(r.id) ?? [],
      ...(held.has(r.code) ? { onHandMilli: held.get(r.code), ...asOf } : {}),
      pricePara: r.price_para,
      label: r.label,
      unit: r.unit,
      group: r.grp,
      favourite: r.favourite === 1,
      // Without tax rates (never fetched) nothing can be judged: the core checks again at checkout.
      labelMissing: labels.size > 0 && !labels.has(r.label),
    }));
  }

  function productsByIds(ids: number[]): Map<number, ProductRow> {
    const rows = st.byIds.all(JSON.stringify(ids));
    return new Map(rows.map((r) => [r.id, r]));
  }

  function summary(row: ParkedRow, cart: ParkedCart): ParkedSaleSummary {
    return {
      id: row.id,
      createdAt: row.created_at,
      name: row.name,
      lines: cart.lines.length,
      totalPara: cart.lines.reduce((sum, l) => sum + lineTotal(l.unitPricePara, l.quantityMilli, l.discountPara), 0),
    };
  }

  /** Upserts one product by its code with its barcodes and its search terms (a CSV row or the hub's). */
  function putProduct(p: Omit<HubProductChange, 'deleted'>, stamp: string, source: PriceChangeSource): void {
    const norm = foldText(p.name);
    // A price change of goods on hand is recorded (нивелација) in this transaction (docs/goods.md).
    priceChanged(db, { code: p.code, name: p.name, newPara: p.pricePara, at: stamp, source });
    const row = st.upsert.get(p.code, p.name, norm, p.pricePara, p.label, p.unit, p.group, p.favourite ? 1 : 0, stamp);
    if (!row) throw new Error('upsert returned no row');
    st.deleteBarcodes.run(row.id);
    for (const b of p.barcodes) st.insertBarcode.run(b, row.id);
    st.deleteFts.run(row.id);
    st.insertFts.run(row.id, `${norm} ${foldText(p.code)}`);
  }

  /** Deletes a product by its code; its barcodes go with it (ON DELETE CASCADE), its search terms here. */
  function deleteProduct(code: string): boolean {
    const row = st.byCode.get(code);
    if (!row) return false;
    st.deleteFts.run(row.id);
    st.deleteProduct.run(row.id);
    return true;
  }

  const service: CatalogService = {
    importCsv(csv, options) {
      const lang = options.lang ?? 'sr-Cyrl';
      const checked = validateCatalogCsv(csv, options.currentLabels, lang);
      const fileCodes = new Set(checked.products.map((p) => p.code));
      const products = checked.products.filter((p) => {
        if (options.replace) return true;
        for (const b of p.barcodes) {
          const owner = st.barcodeOwner.get(b);
          if (owner && owner.code !== p.code && !fileCodes.has(owner.code)) {
            const params = { value: b, other: owner.name };
            checked.errors.push({
              row: p.row,
              field: 'barcode',
              code: 'csv.barcode_taken',
              params,
              message: formatMessage(lang, 'csv.barcode_taken', params),
            });
            return false;
          }
        }
        return true;
      });
      checked.errors.sort((a, b) => a.row - b.row);
      let imported = 0;
      if (!options.dryRun && products.length > 0) {
        const stamp = now().toISOString();
        db.transaction(() => {
          if (options.replace) {
            db.exec('DELETE FROM product_barcodes; DELETE FROM products; DELETE FROM products_fts;');
          }
          for (const p of products) {
            putProduct(p, stamp, 'import');
            imported++;
          }
        })();
      }
      return {
        dryRun: options.dryRun === true,
        rows: checked.rows,
        valid: products.length,
        imported,
        errors: checked.errors,
        warnings: checked.warnings,
        preview: products.slice(0, 50),
      };
    },

    search(query, limit, currentLabels) {
      const q = query.trim();
      if (q === '') return [];
      const ids: number[] = [];
      const seen = new Set<number>();
      const add = (id: number) => {
        if (!seen.has(id)) {
          seen.add(id);
          ids.push(id);
        }
      };
      if (/^\d{8,14}$/.test(q)) {
        const owner = st.barcodeOwner.get(q);
        if (owner) add(owner.product_id);
      }
      for (const r of st.codePrefix.all(q, `${q}\uffff`, limit)) add(r.id);
      const match = ftsPrefixQuery(q);
      // Candidates beyond `limit` let the best names come first; the FTS LIMIT keeps one letter cheap.
      const ftsIds = match ? st.fts.all(match, Math.max(limit * 10, 200)).map((r) => r.id) : [];
      const rows = productsByIds([...ids, ...ftsIds]);
      const folded = foldText(q);
      const ranked = ftsIds
        .filter((id) => !seen.has(id))
        .map((id) => rows.get(id))
        .filter((r): r is ProductRow => r !== undefined)
        .map((r) => ({ r, norm: foldText(r.name) }))
        .sort(
          (a, b) =>
            Number(b.norm.startsWith(folded)) - Number(a.norm.startsWith(folded)) ||
            a.norm.length - b.norm.length ||
            a.norm.localeCompare(b.norm),
        )
        .map((x) => x.r);
      const first = ids.map((id) => rows.get(id)).filter((r): r is ProductRow => r !== undefined);
      return views([...first, ...ranked].slice(0, limit), currentLabels);
    },

    byBarcode(code, currentLabels) {
      const candidates = [code];
      if (code.length === 12) candidates.push(`0${code}`);
      if (code.length === 13 && code.startsWith('0')) candidates.push(code.slice(1));
      for (const c of candidates) {
        const owner = st.barcodeOwner.get(c);
        if (!owner) continue;
        const [product] = views([...productsByIds([owner.product_id]).values()], currentLabels);
        if (product) return { product, kind: 'exact', quantityMilli: 1000, unitPricePara: product.pricePara, code };
      }
      const parsed = parseInStoreCode(code, service.barcodeRules());
      if (!parsed) {
        const own = st.byCode.get(code);
        const [product] = own ? views([own], currentLabels) : [];
        return product ? { product, kind: 'code', quantityMilli: 1000, unitPricePara: product.pricePara, code } : null;
      }
      const row = st.byCode.get(parsed.itemCode) ?? st.byCode.get(String(Number(parsed.itemCode)));
      if (!row) return null;
      const [product] = views([row], currentLabels);
      if (!product) return null;
      if (parsed.kind === 'weight') {
        if (parsed.value <= 0) return null;
        return { product, kind: 'weight', quantityMilli: parsed.value, unitPricePara: product.pricePara, code };
      }
      // A price label: keep the catalog unit price when the sticker's price is an exact quantity of it,
      // else sell one unit at the sticker's price (the customer pays what the label says).
      if (product.unit !== 'piece' && product.pricePara > 0) {
        const q = roundDiv(parsed.value * 1000, product.pricePara);
        if (q > 0 && lineTotal(product.pricePara, q) === parsed.value) {
          return { product, kind: 'price', quantityMilli: q, unitPricePara: product.pricePara, code };
        }
      }
      return { product, kind: 'price', quantityMilli: 1000, unitPricePara: parsed.value, code };
    },

    favourites(currentLabels) {
      return views(st.favourites.all(), currentLabels);
    },

    stats(currentLabels) {
      const labels = new Set(currentLabels);
      const { products, favourites } = st.count.get() ?? { products: 0, favourites: 0 };
      const missing = labels.size === 0 ? [] : st.labelCounts.all().filter((r) => !labels.has(r.label));
      return {
        products,
        favourites,
        labelMissing: missing.reduce((s, r) => s + r.n, 0),
        missingLabels: missing.map((r) => r.label),
      };
    },

    barcodeRules() {
      const stored = settings.get(RULES_KEY);
      if (stored === undefined) return [...DEFAULT_BARCODE_RULES];
      return JSON.parse(stored) as BarcodeRule[];
    },

    setBarcodeRules(rules) {
      settings.set(RULES_KEY, JSON.stringify(rules));
    },

    park(cart, name) {
      const createdAt = now().toISOString();
      const trimmed = name?.trim() || null;
      const row = st.parkInsert.get(createdAt, trimmed, JSON.stringify(cart));
      if (!row) throw new Error('park insert returned no row');
      return summary({ id: row.id, created_at: createdAt, name: trimmed, cart: '' }, cart);
    },

    parkedList() {
      return st.parkList.all().map((r) => summary(r, JSON.parse(r.cart) as ParkedCart));
    },

    takeParked(id) {
      const row = st.parkTake.get(id);
      if (!row) return null;
      const cart = JSON.parse(row.cart) as ParkedCart;
      return { ...summary(row, cart), cart };
    },

    deleteParked(id) {
      return st.parkTake.get(id) !== undefined;
    },

    page(after, limit, currentLabels) {
      const rows = st.page.all(after, limit + 1);
      return { products: views(rows.slice(0, limit), currentLabels), more: rows.length > limit };
    },

    count() {
      return st.total.get()?.n ?? 0;
    },

    product(code, currentLabels) {
      const row = st.byCode.get(code);
      return row ? (views([row], currentLabels)[0] ?? null) : null;
    },

    productById(id, currentLabels) {
      const row = st.byId.get(id);
      return row ? (views([row], currentLabels)[0] ?? null) : null;
    },

    barcodeOwner(barcode) {
      const owner = st.barcodeOwner.get(barcode);
      return owner ? { code: owner.code, name: owner.name } : null;
    },

    put(p, source = 'catalog', at) {
      db.transaction(() => putProduct(p, at ?? now().toISOString(), source))();
    },

    remove(code) {
      return db.transaction(() => deleteProduct(code))();
    },

    groups() {
      return st.groups.all().map((g) => ({ name: g.name, products: g.n }));
    },

    bulkPrice(group, percentBp, { dryRun, rounding = 'para' }) {
      return db.transaction(() => {
        const rows = st.groupPrices.all(group);
        if (dryRun) return rows.length;
        const stamp = now().toISOString();
        for (const r of rows) {
          const price = changePriceByPercent(r.price_para, percentBp, rounding);
          if (price === r.price_para) continue;
          st.setPrice.run(price, stamp, r.id);
          priceChanged(db, { code: r.code, name: r.name, newPara: price, at: stamp, source: 'bulk' });
        }
        return rows.length;
      })();
    },

    all() {
      return st.allForExport.all().map((r) => ({
        code: r.code,
        name: r.name,
        pricePara: r.price_para,
        label: r.label,
        unit: r.unit,
        group: r.grp,
        favourite: r.favourite === 1,
        barcodes: r.barcodes ? r.barcodes.split(' ') : [],
      }));
    },

    clear() {
      db.exec('DELETE FROM product_barcodes; DELETE FROM products; DELETE FROM products_fts;');
    },

    exportCsv(lang) {
      const rows = st.allForExport.all();
      return {
        csv: catalogCsv(
          rows.map((r) => ({
            code: r.code,
            name: r.name,
            barcodes: r.barcodes ? r.barcodes.split(' ') : [],
            pricePara: r.price_para,
            label: r.label,
            unit: r.unit,
            group: r.grp,
            favourite: r.favourite === 1,
          })),
          lang,
        ),
        products: rows.length,
      };
    },

    applyHubProducts(products, at) {
      for (const p of products) {
        if (!p.deleted) putProduct(p, at, 'hub');
        else deleteProduct(p.code);
      }
    },
  };
  return service;
}
