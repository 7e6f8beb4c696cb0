/**
 * The bookkeeper's export files as CSV (docs/exports.md describes every column). Serbian: `;` between cells, the
 * decimal comma without thousands separators, Serbian dates (28.11.2026.), CRLF, no BOM — the report CSVs' dialect
 * (shared/reports/csv-dialect.ts). English: `,`, the decimal point and ISO days, for scripts. The receipts list and
 * the KEP reuse their own CSVs (shared/reports/receipts.ts, shared/i18n/goods.ts).
 */
import type { Language } from '../domain.ts';
import type { ExportView, Posting } from '../contract/exports.ts';
import { csvDialect } from '../reports/csv-dialect.ts';
import { csvText } from '../reports/view.ts';
import { paymentName } from '../i18n/enums.ts';
import { EXPORT_WORDS } from '../i18n/exports.ts';
import { kepDate } from '../i18n/goods.ts';
import { dayIn } from '../i18n/time.ts';
import { ACCOUNT_KEYS, type AccountMap } from './accounts.ts';
import { journalTotals } from './journal.ts';

const lines = (rows: readonly (readonly string[])[], sep: string): string =>
  rows.map((r) => r.join(sep)).join('\r\n') + '\r\n';

const rateCell = (rate: number, lang: Language): string =>
  lang === 'en' ? String(rate) : String(rate).replace('.', ',');

/**
 * Turnover by day: per day one row per tax label and rate (gross, VAT, net) and one per payment type (net, sales,
 * refunds); then the period's totals the same way, dated by the period.
 */
export function turnoverCsv(view: ExportView, lang: Language): string {
  const w = EXPORT_WORDS[lang];
  const d = csvDialect(lang);
  const pay = (t: string): string => (lang === 'en' ? t : paymentName(lang, t));
  const rows: string[][] = [w.turnoverHeader.map(csvText)];
  const block = (
    date: string,
    byLabel: ExportView['days'][number]['byLabel'],
    byPayment: ExportView['days'][number]['byPayment'],
  ) => {
    for (const l of byLabel)
      rows.push([
        csvText(date),
        csvText(w.rateRow),
        csvText(l.label),
        rateCell(l.rate, lang),
        d.amount(l.grossPara),
        d.amount(l.taxPara),
        d.amount(l.grossPara - l.taxPara),
        '',
        '',
      ]);
    for (const p of byPayment)
      rows.push([
        csvText(date),
        csvText(w.paymentRow),
        csvText(pay(p.type)),
        '',
        d.amount(p.netPara),
        '',
        '',
        d.amount(p.salesPara),
        d.amount(p.refundsPara),
      ]);
  };
  for (const day of view.days) block(kepDate(day.day, lang), day.byLabel, day.byPayment);
  const t = view.total;
  block(
    `${w.total} ${kepDate(view.from, lang)} – ${kepDate(view.to, lang)}`,
    t.byLabel.map((l) => ({ label: l.label, rate: l.rate, grossPara: l.netPara, taxPara: l.taxPara })),
    t.byPayment,
  );
  return lines(rows, d.sep);
}

/** Goods receipts (and reversals) with their calculation's totals, price changes, and the stock value at the end. */
export function goodsCsv(view: ExportView, lang: Language): string {
  const w = EXPORT_WORDS[lang];
  const d = csvDialect(lang);
  const rows: string[][] = [w.goodsHeader.map(csvText)];
  for (const r of view.goodsReceipts)
    rows.push([
      csvText(kepDate(r.day, lang)),
      csvText(r.kind === 'receipt' ? w.receipt : w.reversal),
      csvText(r.number),
      csvText(r.supplier),
      csvText(r.supplierPib),
      csvText(r.invoiceNumber),
      d.amount(r.purchasePara),
      d.amount(r.retailPara),
      d.amount(r.vatPara),
      d.amount(r.marginPara),
    ]);
  for (const p of view.priceChanges)
    rows.push([
      csvText(kepDate(dayIn(new Date(p.at)), lang)),
      csvText(w.priceChange),
      csvText(p.number),
      csvText(`${p.code} ${p.name}`),
      '',
      '',
      '',
      d.amount(p.diffPara),
      '',
      '',
    ]);
  rows.push([
    csvText(kepDate(view.to, lang)),
    csvText(w.stockValue),
    '',
    '',
    '',
    '',
    '',
    d.amount(view.stockValuePara),
    '',
    '',
  ]);
  return lines(rows, d.sep);
}

/** The posting journal: entry, day, document, account, its name, description, debit, credit; then the totals. */
export function journalCsv(postings: readonly Posting[], accounts: AccountMap, lang: Language): string {
  const w = EXPORT_WORDS[lang];
  const d = csvDialect(lang);
  const nameOf = accountNames(accounts, lang);
  const rows: string[][] = [w.journalHeader.map(csvText)];
  for (const p of postings) {
    rows.push([
      String(p.entry),
      csvText(kepDate(p.day, lang)),
      csvText(p.document),
      csvText(p.account),
      csvText(nameOf(p.account)),
      csvText(p.description),
      d.amount(p.debitPara),
      d.amount(p.creditPara),
    ]);
  }
  const total = journalTotals(postings);
  rows.push(['', '', csvText(w.total), '', '', '', d.amount(total.debitPara), d.amount(total.creditPara)]);
  return lines(rows, d.sep);
}

/** An account number's name in the shop's map (the first role mapped to it), '' when none. */
export function accountNames(accounts: AccountMap, lang: Language): (account: string) => string {
  const w = EXPORT_WORDS[lang];
  const names = new Map<string, string>();
  for (const k of ACCOUNT_KEYS) if (!names.has(accounts[k])) names.set(accounts[k], w.accounts[k]);
  return (account) => names.get(account) ?? '';
}

/**
 * The journal in Minimax's import layout for postings („Knjiženja – uputstva za uvoz u Minimax (excel)“,
 * help.minimax.si/sr, docs/exports.md): the template's columns in its order — Datum (D.M.YYYY, no dot after the
 * year), Opis, Konto, Stranka, Analitika, Radnik — then the amounts Duguje and Potražuje with the decimal comma;
 * `;` between cells, one posting a row. Stranka, Analitika and Radnik stay empty (the default accounts need none).
 */
export const MINIMAX_COLUMNS = [
  'Datum',
  'Opis',
  'Konto',
  'Stranka',
  'Analitika',
  'Radnik',
  'Duguje',
  'Potražuje',
] as const;

export function minimaxCsv(postings: readonly Posting[]): string {
  const d = csvDialect('sr-Latn');
  const rows: string[][] = [[...MINIMAX_COLUMNS]];
  for (const p of postings) {
    const [y, m, day] = p.day.split('-').map(Number) as [number, number, number];
    rows.push([
      `${day}.${m}.${y}`,
      csvText(`${p.document}: ${p.description}`),
      p.account,
      '',
      '',
      '',
      d.amount(p.debitPara),
      d.amount(p.creditPara),
    ]);
  }
  return lines(rows, ';');
}
