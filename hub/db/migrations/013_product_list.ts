import type { HubMigration } from './index.ts';

/**
 * The hub's product list and checks (#26): the manager's list pages a shop's live products in code order
 * (`products_live`, the keyset of GET /api/admin/products, well under 50 ms a page at 100,000 products), and
 * a barcode is looked up among the shop's products (`products_barcodes`) when a product is saved, so that
 * one barcode never names two products.
 */
export const h013: HubMigration = {
  name: 'product_list',
  statements: [
    `CREATE INDEX products_live ON products (shop_id, code) WHERE NOT deleted`,
    `CREATE INDEX products_barcodes ON products USING gin (barcodes)`,
  ],
};
