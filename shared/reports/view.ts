/**
 * A report from its totals, as a view, slip lines and CSV: the same on the till (electron/manager/reports.ts)
 * and at the hub (hub/reports.ts). Pure: no database, no Node.
 */
import type { ReportView } from '../contract/reports.ts';
import type { Language } from '../domain.ts';
import { csvDialect } from './csv-dialect.ts';
import { slipNamed, slipRow } from './slip.ts';
import { reportCsvWords } from '../i18n/report-csv.ts';
import { formatRsd } from '../money.ts';
import { paymentName } from '../i18n/enums.ts';
import { addOrders, emptyTotals, type ReportTotals, type ReportOrder } from './totals.ts';

export type { OrderData, ReportOrder } from './totals.ts';
/**
 * The report from its totals. Gross and VAT by label follow shared/tax-summary.ts: the VAT is what the issued
 * receipts state (their taxItems, refunds subtracted), never recomputed from the cached rates; the gross by label
 * adds up to the gross. A label's rows at a rate no receipt stated (orders not signed yet) join the row of the
 * rate the period's receipts last stated for it, else of `rateOf` (the tax-rates cache), else 0.
 */
export function finishReport(
  t: ReportTotals,
  rateOf: (label: string) => number | undefined,
  head: { from: string; to: string; cashier?: string },
): ReportView {
  const taxes = t.taxes ?? [];
  const rateIn = (label: string): number | undefined => taxes.filter((x) => x[0] === label).at(-1)?.[1];
  const tax = taxes.reduce((s, x) => s + x[2], 0);
  const gross = t.sales.totalPara + t.advances.totalPara - t.refunds.totalPara;
  const byLabel: ReportView['byLabel'] = [];
  const row = (label: string, rate: number): ReportView['byLabel'][number] => {
    let e = byLabel.find((x) => x.label === label && x.rate === rate);
    if (!e) byLabel.push((e = { label, rate, netPara: 0, taxPara: 0 }));
    return e;
  };
  for (const [label, rate, para] of t.gross ?? []) {
    const e = row(label, rate ?? rateIn(label) ?? rateOf(label) ?? 0);
    e.netPara += para;
  }
  for (const [label, rate, para] of taxes) row(label, rate).taxPara += para;
  return {
    ...head,
    sales: { ...t.sales },
    refunds: { ...t.refunds },
    byPayment: t.payments.map(([type, e]) => ({
      type,
      salesPara: e.sales,
      refundsPara: e.refunds,
      netPara: e.sales - e.refunds,
    })),
    byLabel,
    advances: { ...t.advances },
    notFiscalized: t.notFiscalized,
    trainingExcluded: t.trainingExcluded,
    byTax: taxes.map(([label, rate, taxPara]) => ({ label, rate, taxPara })),
    taxPara: tax,
    taxGroupChanged: t.taxGroupChanged ?? 0,
    grossPara: gross,
    netPara: gross - tax,
    byHour: [...(t.hours ?? [])]
      .sort((a, b) => a[0] - b[0])
      .map(([hour, b]) => ({ hour, count: b.count, grossPara: b.para })),
    // By name (code point order: the same wherever the report is made), so two periods line up.
    byCashier: (t.cashiers ?? [])
      .filter(([, b]) => b.count > 0)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([cashier, b]) => ({ cashier, count: b.count, grossPara: b.para })),
  };
}

/** Sums orders into a report; `rateOf` gives a tax label's rate (for the VAT contained). */
export function summarizeOrders(
  rows: readonly ReportOrder[],
  rateOf: (label: string) => number | undefined,
  head: { from: string; to: string; cashier?: string },
): ReportView {
  return finishReport(addOrders(emptyTotals(), rows), rateOf, head);
}

/** The report as slip lines (at most 32 columns: fits 58 mm paper), Serbian Cyrillic. */
export function reportLines(r: ReportView): string[] {
  const lines = [
    'ПРЕСЕК СТАЊА',
    `Од: ${r.from.slice(0, 16).replace('T', ' ')}`,
    `До: ${r.to.slice(0, 16).replace('T', ' ')}`,
    ...(r.cashier ? [`Касир: ${r.cashier}`] : []),
    '-'.repeat(32),
    slipRow(`Продаје (${r.sales.count})`, formatRsd(r.sales.totalPara)),
    slipRow(`Аванси (${r.advances.count})`, formatRsd(r.advances.totalPara)),
    slipRow(`Рефундације (${r.refunds.count})`, formatRsd(-r.refunds.totalPara)),
    slipRow('Бруто (са ПДВ):', formatRsd(r.grossPara)),
    slipRow('ПДВ:', formatRsd(r.taxPara)),
    slipRow('Нето (без ПДВ):', formatRsd(r.netPara)),
    '-'.repeat(32),
    'Начин плаћања (нето):',
    // The payment's one name (shared/i18n/enums.ts), as on the receipt; a name too long for the line sits above it.
    ...r.byPayment.flatMap((p) => slipNamed(paymentName('sr-Cyrl', p.type), formatRsd(p.netPara))),
    '-'.repeat(32),
    'Пореске ознаке (бруто / ПДВ):',
    ...r.byLabel.map((l) => slipRow(`${l.label} ${l.rate}%`, `${formatRsd(l.netPara)} / ${formatRsd(l.taxPara)}`)),
    '-'.repeat(32),
    'ПДВ по стопама (из рачуна):',
    ...r.byTax.map((x) => slipRow(`${x.label} ${x.rate}%`, formatRsd(x.taxPara))),
    slipRow('Укупно ПДВ:', formatRsd(r.taxPara)),
    '-'.repeat(32),
    slipRow('Нефискализовано:', String(r.notFiscalized)),
    slipRow('Обука (изузето):', String(r.trainingExcluded)),
    slipRow('Друга пореска група:', String(r.taxGroupChanged)),
    'ОВО НИЈЕ ФИСКАЛНИ РАЧУН',
  ];
  return lines;
}

/** An hour of the day as a span on a 24-hour clock: `08:00–09:00`. */
export const hourSpan = (hour: number): string =>
  `${String(hour).padStart(2, '0')}:00–${String((hour + 1) % 24).padStart(2, '0')}:00`;

/**
 * One quoted CSV text cell, safe to open in a spreadsheet: a cell that starts like a formula (`=`, `+`,
 * `-`, `@`, tab, CR) gets a leading apostrophe, so `=HYPERLINK(…)` from a gateway label or a name shows
 * as text instead of running.
 */
export function csvText(s: string): string {
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return `"${safe.replace(/"/g, '""')}"`;
}

/**
 * The report as CSV; `lang` names columns, sections and payment types (English: the machine names) and sets the
 * dialect (shared/reports/csv-dialect.ts: `;` and the decimal comma in Serbian, the period in the shop's format).
 */
export function reportCsv(r: ReportView, lang: Language = 'en'): string {
  const q = csvText;
  const { word: w, payment } = reportCsvWords(lang);
  const d = csvDialect(lang);
  const out: string[] = [['section', 'key', 'count', 'amount_rsd', 'tax_rsd'].map(w).join(d.sep)];
  const line = (section: string, key: string, count: number | '', amount: number, tax: number | '' = ''): void => {
    out.push([q(w(section)), q(key), count, d.amount(amount), tax === '' ? '' : d.amount(tax)].join(d.sep));
  };
  line('period', d.period(r.from, r.to), '', 0);
  line('sales', w('total'), r.sales.count, r.sales.totalPara);
  line('advances', w('total'), r.advances.count, r.advances.totalPara);
  // Refunds take money back: negative, as the screen shows them, so the column adds up to the gross.
  line('refunds', w('total'), r.refunds.count, -r.refunds.totalPara);
  line('gross', w('total'), r.sales.count + r.advances.count + r.refunds.count, r.grossPara, r.taxPara);
  line('net', w('total'), '', r.netPara);
  for (const p of r.byPayment) line('payment', payment(p.type), '', p.netPara);
  for (const l of r.byLabel) line('label', `${l.label} ${l.rate}%`, '', l.netPara, l.taxPara);
  line('not_fiscalized', w('orders'), r.notFiscalized, 0);
  line('training_excluded', w('orders'), r.trainingExcluded, 0);
  for (const x of r.byTax) line('tax', `${x.label} ${x.rate}%`, '', 0, x.taxPara);
  line('tax', w('total'), '', 0, r.taxPara);
  line('tax_group_changed', w('orders'), r.taxGroupChanged, 0);
  for (const h of r.byHour) line('hour', hourSpan(h.hour), h.count, h.grossPara);
  for (const c of r.byCashier) line('cashier', c.cashier, c.count, c.grossPara);
  return out.join('\r\n') + '\r\n';
}
