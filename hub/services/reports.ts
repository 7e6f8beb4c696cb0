/** The reports area: the consolidated report (hub/reports.ts), the accountant's receipts (hub/report-receipts.ts). */
import { hubReport, type HubReport } from '../reports.ts';
import { hubReceipts } from '../report-receipts.ts';
import type { ReceiptRow } from '../../shared/reports/receipts.ts';
import type { ReportInput } from '../../shared/hub/protocol.ts';
import type { HubDeps } from './shared.ts';

export function reportsService(deps: HubDeps) {
  const { db, zone } = deps;
  return {
    /** The consolidated report (hub/reports.ts). */
    report(input: ReportInput, now = Date.now()): Promise<HubReport> {
      return hubReport(db, input, now, zone);
    },

    /** The receipts list for the accountant (hub/report-receipts.ts). */
    receipts(input: ReportInput, now = Date.now()): Promise<ReceiptRow[]> {
      return hubReceipts(db, input, now);
    },
  };
}
