import type { Migration } from '../open.ts';

/**
 * The product catalog (electron/catalog): products, their barcodes (several per product), an FTS5 index
 * over the folded name and code for search-as-you-type, and parked carts that survive a restart.
 */
export const m003: Migration = {
  name: 'catalog',
  up(db) {
    db.exec(`
      CREATE TABLE products (
        id INTEGER PRIMARY KEY,
        code TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        -- name folded to lowercase ASCII Latin (Cyrillic transliterated, diacritics removed)
        name_norm TEXT NOT NULL,
        price_para INTEGER NOT NULL CHECK (price_para >= 0),
        label TEXT NOT NULL,
        unit TEXT NOT NULL CHECK (unit IN ('piece','kg','l')),
        grp TEXT,
        favourite INTEGER NOT NULL DEFAULT 0 CHECK (favourite IN (0,1)),
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX products_favourite ON products(favourite) WHERE favourite = 1;
      CREATE INDEX products_label ON products(label);

      CREATE TABLE product_barcodes (
        barcode TEXT PRIMARY KEY,
        product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX product_barcodes_product ON product_barcodes(product_id);

      -- rowid = products.id; kept in step by the catalog service.
      CREATE VIRTUAL TABLE products_fts USING fts5(
        terms,
        tokenize = 'unicode61 remove_diacritics 2',
        prefix = '1 2 3'
      );

      CREATE TABLE parked_sales (
        id INTEGER PRIMARY KEY,
        created_at TEXT NOT NULL,
        name TEXT,
        cart TEXT NOT NULL
      ) STRICT;
    `);
  },
};
