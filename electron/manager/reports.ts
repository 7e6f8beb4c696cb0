/**
 * End-of-day and shift reports from the local orders: totals per payment type and tax label, refunds,
 * advances, orders not yet fiscalized. Training, proforma and copy receipts are not turnover and are left
 * out (training ones are counted as excluded). Money in para; text and CSV formatting at the edge.
 */
import { dayIn, dayStart } from '../../shared/i18n/time.ts';
import type { ReportView } from '../../shared/contract/reports.ts';
import type { Db } from '../db/open.ts';
import type { TaxRatesCache } from '../sales/tax-rates.ts';
import { reportTotals } from './report-days.ts';
import { finishReport } from '../../shared/reports/view.ts';

export interface ReportRange {
  from?: string | undefined;
  to?: string | undefined;
  cashier?: string | undefined;
}

/** The period [from, to) as ISO UTC (default: the shop's midnight today, in Belgrade, to now). */
export function reportPeriod(range: ReportRange, now: number): { from: string; to: string } {
  const start = new Date(dayStart(dayIn(new Date(now))));
  const from = range.from ? new Date(range.from).toISOString() : start.toISOString();
  const to = range.to ? new Date(range.to).toISOString() : new Date(now + 1).toISOString();
  return { from, to };
}

/** Computes the report for [from, to) (default: the shop's midnight today to now); see report-days.ts. */
export function buildReport(db: Db, taxRates: TaxRatesCache, range: ReportRange, now: number): ReportView {
  const { from, to } = reportPeriod(range, now);
  const totals = reportTotals(db, { from, to, cashier: range.cashier }, now);
  return finishReport(totals, (label) => taxRates.rateOf(label), {
    from,
    to,
    ...(range.cashier ? { cashier: range.cashier } : {}),
  });
}
