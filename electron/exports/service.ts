/**
 * The bookkeeper's exports of a period (docs/exports.md): read from the owners' tables (orders through the report's
 * reader, the goods ledger's tables, the KEP through the goods service), computed with the report's arithmetic
 * (shared/reports/totals.ts) so that each total equals the report's and the fiscal documents' to the para, then the
 * posting journal (shared/exports/journal.ts). Reads only; the account map is a setting.
 */
import type { Db } from '../db/open.ts';
import type { Language } from '../../shared/domain.ts';
import type { ExportGoodsReceipt, ExportView } from '../../shared/contract/exports.ts';
import type { GoodsService } from '../goods/service.ts';
import { exportDays } from './days.ts';
import { kepPart, turnoverOf } from '../../shared/exports/days.ts';
import type { ReceiptRow } from '../../shared/reports/receipts.ts';
import { dayIn, dayStart } from '../../shared/i18n/time.ts';
import { exportReceipts, journalPriceChanges } from '../../shared/exports/goods.ts';
import { buildJournal, journalTotals } from '../../shared/exports/journal.ts';
import { accountsFrom, type AccountMap } from '../../shared/exports/accounts.ts';
import { goodsOut } from './cost.ts';

export interface ExportDeps {
  rateOf(label: string): number | undefined;
  language(): Language;
  accounts(): AccountMap;
  /** The till's id, named on each receipt row. */
  till(): string;
  /** Epoch ms: the days before today's (Belgrade) are closed and their sums kept. */
  now(): number;
}

/** The day after a YYYY-MM-DD day. */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** The period [from's midnight, the midnight after to) in Belgrade, as ISO UTC. */
export function exportRange(from: string, to: string): { from: string; to: string } {
  return { from: new Date(dayStart(from)).toISOString(), to: new Date(dayStart(nextDay(to))).toISOString() };
}

export type ExportService = ReturnType<typeof createExportService>;

export function createExportService(db: Db, goods: GoodsService, deps: ExportDeps) {
  const rateOr0 = (label: string): number => deps.rateOf(label) ?? 0;

  return {
    build(from: string, to: string): ExportView {
      const range = exportRange(from, to);
      // The period's Belgrade days and their instants (ISO UTC), each day's sums kept once it is closed.
      const starts: { day: string; from: string; to: string }[] = [];
      for (let day = from; day <= to; day = nextDay(day)) starts.push({ day, ...exportRange(day, day) });
      const byDay = exportDays(db, starts, dayIn(new Date(deps.now())));
      const turnover = turnoverOf(starts, byDay, deps.rateOf, range);
      const documents: ReceiptRow[] = turnover.documents.map((r) => ({ ...r, till: deps.till() }));
      const { days, journalDays } = turnover;
      const goodsReceipts = this.goodsReceipts(from, to);
      const priceChanges = goods.priceChanges(from, to);
      const labels = new Map(
        db
          .prepare<[string, string], { code: string; label: string }>(
            `SELECT DISTINCT p.code, p.label FROM products p JOIN price_changes c ON c.product_code = p.code
              WHERE c.day BETWEEN ? AND ?`,
          )
          .all(from, to)
          .map((r) => [r.code, r.label]),
      );
      const priceRows = journalPriceChanges(priceChanges, (code) => labels.get(code), rateOr0);
      const kep = goods.kep(from, to, false);
      const journal = buildJournal(
        {
          days: journalDays,
          receipts: goodsReceipts.map((r) => ({ ...r, number: r.number })),
          priceChanges: priceRows,
          goodsOut: goodsOut(db, from, to, rateOr0),
        },
        deps.accounts(),
        deps.language(),
      );
      return {
        from,
        to,
        days,
        total: turnover.total,
        documents,
        goodsReceipts,
        priceChanges,
        kep: kepPart(kep),
        stockValuePara: kep.closingPara,
        journal,
        journalTotals: journalTotals(journal),
      };
    },

    /**
     * The goods receipts and reversals whose goods moved in the period (the KEP's days), each with the retail value
     * its movements brought in (the KEP's debit), the VAT and margin within it, and the purchase value; signed.
     */
    goodsReceipts(from: string, to: string): ExportGoodsReceipt[] {
      const rows = db
        .prepare<
          [string, string],
          {
            id: number;
            kind: 'receipt' | 'reversal';
            number: number;
            year: number;
            invoice_number: string;
            purchase_para: number;
            supplier: string;
            pib: string;
            day: string;
            label: string;
            v: number;
          }
        >(
          `SELECT g.id, g.kind, g.number, g.year, g.invoice_number, g.purchase_para, s.name AS supplier, s.pib,
                  min(m.day) AS day, l.label, sum(m.value_para) AS v
             FROM stock_movements m
             JOIN goods_receipts g ON m.source = g.kind || ':' || g.id
             JOIN suppliers s ON s.id = g.supplier_id
             JOIN goods_receipt_lines l ON l.receipt_id = g.id AND l.line = m.line
            WHERE m.kind IN ('receipt', 'reversal') AND m.day BETWEEN ? AND ?
            GROUP BY g.id, l.label
            ORDER BY min(m.day), g.id`,
        )
        .all(from, to);
      return exportReceipts(
        rows.map((r) => ({
          id: r.id,
          kind: r.kind,
          number: `${r.number}/${r.year}`,
          day: r.day,
          supplier: r.supplier,
          pib: r.pib,
          invoiceNumber: r.invoice_number,
          purchasePara: r.purchase_para,
          label: r.label,
          valuePara: r.v,
        })),
        rateOr0,
      );
    },
  };
}

/** The account map stored as a setting (JSON), over the defaults. */
export function storedAccounts(raw: string | undefined): AccountMap {
  if (!raw) return accountsFrom({});
  try {
    const v: unknown = JSON.parse(raw);
    return accountsFrom(typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
  } catch {
    return accountsFrom({});
  }
}
