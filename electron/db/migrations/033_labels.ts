import type { Migration } from '../open.ts';

/**
 * Shelf labels (issue 42, docs/prices.md "Shelf labels"), one writer: electron/labels/service.ts.
 *
 * - label_products: what a label needs of a product beyond the catalog: its net quantity (thousandths of a kg or l)
 *   for the unit price, and whether its goods show a unit price at all (the Pravilnik names food, drinks,
 *   detergents, cosmetics …; gift packs and fruit sold by the piece are exempt). No row: required, not entered.
 * - label_prints: each product's last printed label, what it showed (`shown`: price, previous price, promotion's
 *   days, unit price) and when; a label is out of date when what it would show now differs, so "changed since the
 *   last print" is exact whatever changed the price (the catalog, a scheduled change, a promotion starting or ending).
 * - label_printer: the one label printer of this till: its address, preset, label size and media.
 */
export const m033: Migration = {
  name: 'labels',
  up(db) {
    db.exec(`
      CREATE TABLE label_products (
        product_code TEXT PRIMARY KEY,
        net_milli INTEGER CHECK (net_milli > 0),
        net_unit TEXT CHECK (net_unit IN ('kg', 'l')),
        unit_price_required INTEGER NOT NULL CHECK (unit_price_required IN (0, 1)),
        updated_at TEXT NOT NULL,
        CHECK ((net_milli IS NULL) = (net_unit IS NULL))
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE label_prints (
        product_code TEXT PRIMARY KEY,
        shown TEXT NOT NULL,
        price_para INTEGER NOT NULL,
        printed_at TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE label_printer (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        uri TEXT NOT NULL,
        preset TEXT NOT NULL,
        width_mm REAL NOT NULL,
        height_mm REAL NOT NULL,
        media TEXT NOT NULL CHECK (media IN ('gap', 'mark')),
        media_mm REAL NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
