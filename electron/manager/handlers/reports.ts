/** The reports area's handlers (shared/contract/reports.ts): totals of a period, as CSV, or printed. */
import { areaHandlers, type AreaHandlers } from '../../dispatch.ts';
import type { StaffService } from '../../auth/staff.ts';
import type { Db } from '../../db/open.ts';
import type { PrintService } from '../../printer/service.ts';
import type { TaxRatesCache } from '../../sales/tax-rates.ts';
import { buildReport, reportPeriod } from '../reports.ts';
import { receiptRows } from '../report-days.ts';
import { receiptsCsv } from '../../../shared/reports/receipts.ts';
import { reportCsv, reportLines } from '../../../shared/reports/view.ts';
import type { Language } from '../../../shared/domain.ts';
import { periodName } from '../../../shared/i18n/time.ts';

export interface ReportsHandlerDeps {
  db: Db;
  taxRates: TaxRatesCache;
  printer: PrintService;
  staff: StaffService;
  now(): number;
  /** The UI language: the CSV's headers and names are in it. */
  language(): Language;
  /** The till's name in the receipts list (its terminal id). */
  till(): string;
}

export function reportsHandlers(deps: ReportsHandlerDeps): AreaHandlers<'reports'> {
  const { db, taxRates, now } = deps;
  return areaHandlers('reports', {
    'reports.summary': async (range) => buildReport(db, taxRates, range, now()),
    'reports.print': async (range) => {
      const report = buildReport(db, taxRates, range, now());
      const jobId = deps.printer.enqueueSlip(reportLines(report));
      deps.staff.audit(null, 'report.print', { from: report.from, to: report.to });
      return { jobId };
    },
    'reports.csv': async (range) => {
      const report = buildReport(db, taxRates, range, now());
      return { fileName: `presek-${periodName(report.from, report.to)}.csv`, csv: reportCsv(report, deps.language()) };
    },
    'reports.receiptsCsv': async (range) => {
      const { from, to } = reportPeriod(range, now());
      const rows = receiptRows(db, { from, to, cashier: range.cashier }, deps.till());
      return { fileName: `racuni-${periodName(from, to)}.csv`, csv: receiptsCsv(rows, deps.language()) };
    },
  });
}
