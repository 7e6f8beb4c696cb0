/**
 * The goods that left (or came back to) the shop in a period at purchase value, for the posting journal
 * (docs/exports.md, "The purchase value"): the goods ledger's movements from the first up to the period's end, in
 * their order, priced by each product's weighted average purchase price (shared/exports/cost.ts) from the goods
 * receipts' net purchase prices; then the period's sales and refunds per day (раздужење продавнице), and its
 * write-offs and stock-taking differences per document, by tax label. Reads only the ledger's tables.
 */
import type { Db } from '../db/open.ts';
import { netPurchase } from '../../shared/goods/calc.ts';
import { costMovements, goodsOutOf, type LedgerRow } from '../../shared/exports/cost.ts';
import type { JournalGoodsOut } from '../../shared/exports/journal.ts';

interface Row extends LedgerRow {
  purchase: number | null;
  discount: number | null;
}

/** The ledger's movements up to `to` (a Belgrade day, included), each with its purchase price and value. */
export function costedMovements(db: Db, to: string) {
  const rows = db
    .prepare<[string], Row>(
      `SELECT m.id, m.product_code AS code, m.day, m.kind, m.source, m.qty_milli AS qtyMilli,
              m.value_para AS valuePara, p.label, l.purchase_para AS purchase, l.discount_bp AS discount
         FROM stock_movements m
         LEFT JOIN products p ON p.code = m.product_code
         LEFT JOIN goods_receipt_lines l ON m.kind IN ('receipt', 'reversal')
              AND l.receipt_id = CAST(substr(m.source, instr(m.source, ':') + 1) AS INTEGER) AND l.line = m.line
        WHERE m.day <= ?
        ORDER BY m.id`,
    )
    .all(to);
  const last = new Map(
    db
      .prepare<[], { code: string; purchase: number }>(
        'SELECT product_code AS code, purchase_para AS purchase FROM stock WHERE purchase_para IS NOT NULL',
      )
      .all()
      .map((r) => [r.code, r.purchase]),
  );
  return costMovements(
    rows.map((r) => ({
      ...r,
      linePurchasePara: r.purchase === null ? undefined : netPurchase(r.purchase, r.discount ?? 0),
    })),
    (code) => last.get(code),
  );
}

/** The period's goods out at purchase value, one document per day's sales, per write-off and per count. */
export function goodsOut(db: Db, from: string, to: string, rateOf: (label: string) => number): JournalGoodsOut[] {
  const numbers = new Map<string, string>();
  const numbered = (table: 'write_offs' | 'stock_counts', prefix: string): void => {
    for (const r of db
      .prepare<[], { id: number; number: number; year: number }>(`SELECT id, number, year FROM ${table}`)
      .all())
      numbers.set(`${prefix}:${r.id}`, `${r.number}/${r.year}`);
  };
  numbered('write_offs', 'writeoff');
  numbered('stock_counts', 'count');
  return goodsOutOf(costedMovements(db, to), from, (source) => numbers.get(source), rateOf);
}
