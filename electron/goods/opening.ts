/**
 * This till's own book as the lines of an opening stock at its hub (docs/goods.md "A till enrolled later brings its
 * book"): every product the book holds on hand (below zero too; zero left out), with its last purchase price where
 * a posted receipt gave one. Read only: the till's book is written by electron/goods/ledger.ts alone.
 */
import type { Db } from '../db/open.ts';

export interface OwnStockLine {
  code: string;
  qtyMilli: number;
  purchasePara: number | null;
}

export function ownStockLines(db: Db): OwnStockLine[] {
  return db
    .prepare<[], OwnStockLine>(
      `SELECT product_code AS code, qty_milli AS qtyMilli, purchase_para AS purchasePara FROM stock
        WHERE qty_milli != 0 ORDER BY product_code`,
    )
    .all();
}
