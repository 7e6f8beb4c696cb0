/**
 * What a hub receipt's form and the KEP's warnings ask besides the receipt itself (docs/goods.md "At the hub"):
 * lines read from a supplier's CSV by the till's format and reader (shared/goods/receipt-csv.ts), and the days not
 * entered in the KEP by the next day because a receipt of that invoice date is still a draft (the till's
 * `goods.kep` `late.days`; Pravilnik o evidenciji prometa: every change by the next day).
 */
import { CountCsvRefusal, csvRows } from '../../shared/goods/stocktake-rules.ts';
import { parseReceiptCsv } from '../../shared/goods/receipt-csv.ts';
import type { HubLateDay, HubReceiptLine } from '../../shared/hub/goods-protocol.ts';
import { HubError } from '../../shared/hub/protocol.ts';
import { dayIn, dayStart } from '../../shared/i18n/time.ts';
import type { HubDeps } from './shared.ts';

/** At most this many lines from one file: a receipt's own limit (shared/hub/goods-protocol.ts). */
const MAX_CSV_LINES = 5000;

export function goodsReceiptExtrasService(deps: HubDeps) {
  const { db, now, zone } = deps;
  return {
    /**
     * A supplier's CSV as lines of the shop's products for the receipt on the screen: each a product found by its
     * code or one of its barcodes, at its quantity, purchase price and discount, keeping the product's retail price.
     * A bad row (no code, a product the shop does not carry, a quantity or amount that is none) refuses the file
     * at `csv` with its row and column (the till's words, shared/messages.ts); nothing is added.
     */
    async receiptCsvLines(shopId: number, csv: string): Promise<HubReceiptLine[]> {
      const codes = [...new Set(csvRows(csv).map((r) => r.cells[0] ?? ''))];
      const rows = await db.query<{ code: string; price_para: number; barcodes: string[] }>(
        `SELECT code, price_para, barcodes FROM products
          WHERE shop_id = $1 AND NOT deleted AND (code = ANY($2::text[]) OR barcodes ?| $2::text[])`,
        [shopId, codes],
      );
      const byCode = new Map<string, { code: string; price: number }>();
      for (const r of rows) for (const b of r.barcodes) byCode.set(b, { code: r.code, price: Number(r.price_para) });
      for (const r of rows) byCode.set(r.code, { code: r.code, price: Number(r.price_para) });
      try {
        return parseReceiptCsv(csv, (code) => byCode.get(code), MAX_CSV_LINES).map((l) => ({
          code: l.product.code,
          qtyMilli: l.qtyMilli,
          purchasePara: l.purchasePara,
          ...(l.discountBp ? { discountBp: l.discountBp } : {}),
          pricePara: l.product.price,
        }));
      } catch (e) {
        if (e instanceof CountCsvRefusal)
          throw new HubError(400, e.key, 'a row of the CSV is refused', 'csv', e.params);
        throw e;
      }
    },

    /**
     * The days not entered in the shop's KEP by the next day: a day before yesterday (the shop's zone) with a
     * receipt still a draft, by its supplier's invoice date, with how many; newest first, a month at most. Empty
     * while every day is entered.
     */
    async lateReceiptDays(shopId: number): Promise<HubLateDay[]> {
      const today = dayIn(now(), zone);
      const yesterday = dayIn(new Date(dayStart(today, zone) - 1), zone);
      const rows = await db.query<{ day: string; n: number }>(
        `SELECT input->>'invoiceDate' AS day, count(*)::int AS n FROM hub_receipts
          WHERE shop_id = $1 AND state = 'draft' AND input->>'invoiceDate' < $2
          GROUP BY 1 ORDER BY 1 DESC LIMIT 31`,
        [shopId, yesterday],
      );
      return rows.map((r) => ({ day: r.day, draftReceipts: Number(r.n) }));
    },
  };
}
