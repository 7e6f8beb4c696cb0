/**
 * The receipts list for the accountant: one row per receipt a report counts (training, proforma and copies are
 * not turnover and are left out, as in the report), with its own share of the report's figures, signed the same
 * way (a refund negative). The rows of a period add up to its report: gross, VAT and net. Pure: no database.
 */
import type { Language } from '../domain.ts';
import { receiptKindName, paymentName } from '../i18n/enums.ts';
import { reportCsvWords } from '../i18n/report-csv.ts';
import { addOrders, emptyTotals, type ReportOrder } from './totals.ts';
import { csvDialect } from './csv-dialect.ts';
import { csvText } from './view.ts';

export interface ReceiptRow {
  /** ISO creation time. */
  at: string;
  /** The fiscal invoice number; null while the order waits to be fiscalized. */
  invoiceNumber: string | null;
  invoiceType: string;
  transactionType: string;
  /** Payment types, in the order paid. */
  payments: string[];
  cashier: string;
  till: string;
  /** With VAT, refunds negative: the order's share of the report's gross. */
  grossPara: number;
  /** The VAT its receipts state, refunds negative. */
  taxPara: number;
}

/**
 * An order's receipt row as the report counts it (`addOrders` of the one order), or null when the report does not
 * count it (training, proforma, a copy).
 */
export function receiptRow(
  order: ReportOrder,
  meta: { at: string; invoiceNumber: string | null; cashier: string; till: string },
): ReceiptRow | null {
  const t = addOrders(emptyTotals(), [order]);
  const counted = t.sales.count + t.advances.count + t.refunds.count;
  if (counted === 0) return null;
  const refund = order.kind === 'refund' || order.kind === 'refund_full';
  return {
    ...meta,
    invoiceType: order.invoice_type,
    transactionType: refund ? 'refund' : order.kind === 'finalize' ? 'finalize' : 'sale',
    payments: [...new Set(order.data.payments.map((p) => p.type))],
    grossPara: t.sales.totalPara + t.advances.totalPara - t.refunds.totalPara,
    taxPara: (t.taxes ?? []).reduce((s, x) => s + x[2], 0),
  };
}

export const RECEIPT_COLUMNS = [
  'date_time',
  'invoice_number',
  'receipt_type',
  'payment_types',
  'cashier_name',
  'till_name',
  'gross_rsd',
  'tax_rsd',
  'net_rsd',
] as const;

/**
 * The receipts as CSV: headers and words in `lang` (English: machine names), times on the shop's clock
 * (`timeZone`, Europe/Belgrade by default); the dialect by language (shared/reports/csv-dialect.ts: Serbian
 * `;`, the decimal comma and `26.11.2026. 08:05`; English `,`, `1234.50` and `2026-11-26 08:05`). The last line
 * is the total.
 */
export function receiptsCsv(rows: readonly ReceiptRow[], lang: Language, timeZone = 'Europe/Belgrade'): string {
  const { word: w } = reportCsvWords(lang);
  const d = csvDialect(lang);
  const rsd = d.amount;
  const out = [RECEIPT_COLUMNS.map((c) => csvText(w(c))).join(d.sep)];
  let gross = 0;
  let tax = 0;
  for (const r of rows) {
    gross += r.grossPara;
    tax += r.taxPara;
    out.push(
      [
        csvText(d.moment(r.at, timeZone)),
        csvText(r.invoiceNumber ?? w('not_fiscalized')),
        csvText(
          lang === 'en'
            ? `${r.invoiceType}/${r.transactionType}`
            : receiptKindName(lang, r.invoiceType, r.transactionType),
        ),
        csvText(r.payments.map((p) => (lang === 'en' ? p : paymentName(lang, p))).join(' + ')),
        csvText(r.cashier),
        csvText(r.till),
        rsd(r.grossPara),
        rsd(r.taxPara),
        rsd(r.grossPara - r.taxPara),
      ].join(d.sep),
    );
  }
  out.push([csvText(w('total')), '', '', '', '', '', rsd(gross), rsd(tax), rsd(gross - tax)].join(d.sep));
  return out.join('\r\n') + '\r\n';
}
