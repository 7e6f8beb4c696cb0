/** End-of-day and shift reports: totals, CSV and the printed slip. */
import { z } from 'zod';
import { command } from './define.ts';
import * as s from './schemas.ts';
import type { PaymentType } from '../domain.ts';
import type { Para } from '../money.ts';

export interface ReportView {
  from: string;
  to: string;
  cashier?: string;
  sales: { count: number; totalPara: Para };
  refunds: { count: number; totalPara: Para };
  /** Net per payment type (sales minus refunds). */
  byPayment: { type: PaymentType; salesPara: Para; refundsPara: Para; netPara: Para }[];
  /**
   * Per tax label and rate (shared/tax-summary.ts): `netPara` is the gross (VAT included) net of refunds, the
   * receipts' totals split over their labels, so the rows add up to `grossPara`; `taxPara` the VAT the receipts
   * state, so the rows add up to `taxPara`.
   */
  byLabel: { label: string; rate: number; netPara: Para; taxPara: Para }[];
  advances: { count: number; totalPara: Para };
  /** Orders in the period not yet fiscalized (queued or needing attention). */
  notFiscalized: number;
  trainingExcluded: number;
  /**
   * VAT per label and rate: the sum of the issued receipts' taxItems, refunds subtracted (a label at two rates
   * across a change: two rows).
   */
  byTax: { label: string; rate: number; taxPara: Para }[];
  /** The VAT of the period: the sum of `byTax`. */
  taxPara: Para;
  /** Orders issued under another tax-rate group than the one in force at capture. */
  taxGroupChanged: number;
  /** Turnover with VAT (бруто): sales and advances less refunds. */
  grossPara: Para;
  /** Turnover without VAT (нето): `grossPara - taxPara`. */
  netPara: Para;
  /** Per hour of the day in the shop's zone (Europe/Belgrade), by hour: orders and their gross (refunds less). */
  byHour: { hour: number; count: number; grossPara: Para }[];
  /** Per cashier ('' for orders with none named): orders and their gross (refunds less). */
  byCashier: { cashier: string; count: number; grossPara: Para }[];
}

const reportRange = {
  /** ISO start (inclusive); default: today 00:00 local time. */
  from: s.isoDate.optional(),
  /** ISO end (exclusive); default: now. */
  to: s.isoDate.optional(),
  cashier: s.text(60).optional(),
};

export const reportsCommands = {
  'reports.summary': command<ReportView>('session')(
    z.strictObject(reportRange),
    'End-of-day or shift totals (training excluded).',
  ),
  'reports.print': command<{ jobId: number }>('session')(
    z.strictObject(reportRange),
    'Prints the report on the receipt printer; unavailable with no printer set.',
  ),
  'reports.csv': command<{ fileName: string; csv: string }>('session')(
    z.strictObject(reportRange),
    'The report as CSV.',
  ),
  'reports.receiptsCsv': command<{ fileName: string; csv: string }>('session')(
    z.strictObject(reportRange),
    'The receipts of the period for the accountant as CSV: one row per receipt the report counts (time on the ' +
      "shop's clock, invoice number, type, payment, cashier, till, gross, VAT, net; refunds negative), then the total.",
  ),
} as const;
