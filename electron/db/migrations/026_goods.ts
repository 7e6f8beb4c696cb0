import type { Migration } from '../open.ts';

/**
 * Goods and the KEP book (issue 40, docs/goods.md): the shop's stock as a ledger of movements, suppliers, goods
 * receipts, price change records (нивелација), write-offs and the document numbers per year. One till's
 * database is one shop, so "per shop" is this database. Quantities are thousandths, money para.
 *
 * - stock: one row per product code (codes, not catalog ids: a catalog replaced by a CSV or the hub gets new ids)
 *   with the quantity on hand and the retail price the book holds it at. It is never set as a bare number: the
 *   goods ledger (electron/goods/ledger.ts) changes it only together with a movement or a price change record, in
 *   one transaction, so that quantity = Σ movements and the book's balance = Σ round(quantity × price).
 * - stock_movements: every change of a quantity, signed. `value_para` is the change of the product's retail
 *   value it made. UNIQUE (source, line): a fiscalized order, a receipt or a write-off moves each line once.
 * - stock_sales: one row per fiscalized order that is turnover (a normal sale, refund or final sale): the day of
 *   its fiscal document and its payments, the KEP's credit by payment type. The order's id is its key, so a
 *   fiscal result recorded twice cannot count twice.
 * - goods_numbers: the last number given per kind of document and year.
 */
export const m026: Migration = {
  name: 'goods',
  up(db) {
    db.exec(`
      CREATE TABLE stock (
        product_code TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        qty_milli INTEGER NOT NULL,
        price_para INTEGER NOT NULL CHECK (price_para >= 0),
        -- The last purchase price per unit without VAT (para), from the newest posted goods receipt.
        purchase_para INTEGER,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE stock_movements (
        id INTEGER PRIMARY KEY,
        product_code TEXT NOT NULL,
        at TEXT NOT NULL,
        -- The Belgrade calendar day the KEP enters it on.
        day TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN
          ('sale', 'refund', 'receipt', 'reversal', 'writeoff', 'count', 'transfer_in', 'transfer_out')),
        source TEXT NOT NULL,
        line INTEGER NOT NULL,
        qty_milli INTEGER NOT NULL,
        price_para INTEGER NOT NULL,
        value_para INTEGER NOT NULL,
        UNIQUE (source, line)
      ) STRICT;
      CREATE INDEX stock_movements_day ON stock_movements(day);
      CREATE INDEX stock_movements_product ON stock_movements(product_code);

      CREATE TABLE stock_sales (
        order_id INTEGER PRIMARY KEY REFERENCES orders(id),
        day TEXT NOT NULL,
        at TEXT NOT NULL,
        invoice_number TEXT NOT NULL,
        -- Signed: a refund is negative.
        turnover_para INTEGER NOT NULL,
        -- JSON [{type, amountPara}], signed like the turnover.
        payments TEXT NOT NULL
      ) STRICT;
      CREATE INDEX stock_sales_day ON stock_sales(day);

      CREATE TABLE suppliers (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        pib TEXT NOT NULL UNIQUE,
        address TEXT,
        account TEXT,
        contact TEXT,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE goods_receipts (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('receipt', 'reversal')),
        state TEXT NOT NULL CHECK (state IN ('draft', 'posted', 'reversed')),
        -- Given when posted: number/year.
        number INTEGER,
        year INTEGER,
        supplier_id INTEGER NOT NULL REFERENCES suppliers(id),
        invoice_number TEXT NOT NULL,
        invoice_date TEXT NOT NULL,
        -- A reversal names the receipt it reverses.
        reverses INTEGER REFERENCES goods_receipts(id),
        created_at TEXT NOT NULL,
        posted_at TEXT,
        posted_by TEXT,
        purchase_para INTEGER NOT NULL DEFAULT 0,
        retail_para INTEGER NOT NULL DEFAULT 0,
        UNIQUE (kind, year, number)
      ) STRICT;
      -- A supplier's invoice is received once (a reversed one may be received again, corrected).
      CREATE UNIQUE INDEX goods_receipts_invoice ON goods_receipts(supplier_id, invoice_number)
        WHERE kind = 'receipt' AND state = 'posted';

      CREATE TABLE goods_receipt_lines (
        receipt_id INTEGER NOT NULL REFERENCES goods_receipts(id) ON DELETE CASCADE,
        line INTEGER NOT NULL,
        product_code TEXT NOT NULL,
        name TEXT NOT NULL,
        label TEXT NOT NULL,
        -- For a product made by the receipt (its code unknown to the catalog): its unit, group and barcode.
        unit TEXT,
        grp TEXT,
        barcode TEXT,
        qty_milli INTEGER NOT NULL,
        -- The supplier's price per unit without VAT, before their discount.
        purchase_para INTEGER NOT NULL,
        discount_bp INTEGER NOT NULL,
        margin_bp INTEGER NOT NULL,
        -- The retail price per unit with VAT.
        retail_para INTEGER NOT NULL,
        PRIMARY KEY (receipt_id, line)
      ) STRICT;

      CREATE TABLE price_changes (
        id INTEGER PRIMARY KEY,
        number INTEGER NOT NULL,
        year INTEGER NOT NULL,
        at TEXT NOT NULL,
        day TEXT NOT NULL,
        product_code TEXT NOT NULL,
        name TEXT NOT NULL,
        old_para INTEGER NOT NULL,
        new_para INTEGER NOT NULL,
        qty_milli INTEGER NOT NULL,
        diff_para INTEGER NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('catalog', 'bulk', 'import', 'hub', 'receipt')),
        UNIQUE (year, number)
      ) STRICT;
      CREATE INDEX price_changes_day ON price_changes(day);

      CREATE TABLE write_offs (
        id INTEGER PRIMARY KEY,
        number INTEGER NOT NULL,
        year INTEGER NOT NULL,
        at TEXT NOT NULL,
        day TEXT NOT NULL,
        product_code TEXT NOT NULL,
        name TEXT NOT NULL,
        qty_milli INTEGER NOT NULL CHECK (qty_milli > 0),
        price_para INTEGER NOT NULL,
        value_para INTEGER NOT NULL,
        reason TEXT NOT NULL,
        actor TEXT,
        UNIQUE (year, number)
      ) STRICT;

      CREATE TABLE goods_numbers (
        kind TEXT NOT NULL,
        year INTEGER NOT NULL,
        last INTEGER NOT NULL,
        PRIMARY KEY (kind, year)
      ) STRICT;
    `);
  },
};
