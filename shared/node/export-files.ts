/**
 * The export files of a period (docs/exports.md), the same at the till and at the hub: the CSVs
 * (shared/exports/csv.ts, the receipts list's and the KEP's own), the journal in Minimax's layout, and the A4 PDF
 * of all of it (shared/node/a4.ts: one table, a section a block of rows under its title).
 */
import type { Language } from '../domain.ts';
import type { ExportFileKind, ExportView } from '../contract/exports.ts';
import type { PdfFile } from '../contract/goods.ts';
import type { AccountMap } from '../exports/accounts.ts';
import { goodsCsv, journalCsv, minimaxCsv, turnoverCsv } from '../exports/csv.ts';
import { receiptsCsv } from '../reports/receipts.ts';
import { kepCsv, kepDate } from '../i18n/goods.ts';
import { EXPORT_WORDS } from '../i18n/exports.ts';
import { receiptKindName, paymentName } from '../i18n/enums.ts';
import { dayIn, formatMoment } from '../i18n/time.ts';
import { formatRsd } from '../money.ts';
import { a4Pdf, type A4Input, type ShopIdentity } from './a4.ts';

export interface ExportFileDeps {
  language(): Language;
  accounts(): AccountMap;
  shop(): ShopIdentity;
  now(): Date;
}

/** An A4 document as a file (shared/node/a4.ts). */
export async function pdfFile(fileName: string, input: A4Input): Promise<PdfFile> {
  const bytes = await a4Pdf(input);
  return { fileName, base64: Buffer.from(bytes).toString('base64') };
}

const text = (name: string, body: string): PdfFile => ({
  fileName: name,
  base64: Buffer.from(body, 'utf8').toString('base64'),
});

/** The file of one kind for the period's view. */
export async function exportFile(view: ExportView, kind: ExportFileKind, deps: ExportFileDeps): Promise<PdfFile> {
  const lang = deps.language();
  const stem = `${view.from}_${view.to}`;
  switch (kind) {
    case 'turnover':
      return text(`promet_${stem}.csv`, turnoverCsv(view, lang));
    case 'documents':
      return text(`dokumenti_${stem}.csv`, receiptsCsv(view.documents, lang));
    case 'goods':
      return text(`roba_${stem}.csv`, goodsCsv(view, lang));
    case 'kep':
      return text(
        `KEP_${stem}.csv`,
        kepCsv(
          {
            from: view.from,
            to: view.to,
            openingPara: view.kep.openingPara,
            entries: view.kep.entries,
            closingPara: view.kep.closingPara,
          },
          lang,
        ),
      );
    case 'journal':
      return text(`nalog_${stem}.csv`, journalCsv(view.journal, deps.accounts(), lang));
    case 'minimax':
      return text(`minimax_knjizenja_${stem}.csv`, minimaxCsv(view.journal));
    case 'pdf':
      return exportPdf(view, lang, deps);
  }
}

function exportPdf(view: ExportView, lang: Language, deps: ExportFileDeps): Promise<PdfFile> {
  const w = EXPORT_WORDS[lang];
  const rsd = (p: number): string => formatRsd(p);
  const rows: string[][] = [];
  /** A section: its title, then its columns' names (six cells). */
  const section = (title: string, header: readonly string[]): void => {
    rows.push(['', '', `— ${title} —`, '', '', '']);
    if (header.some((h) => h)) rows.push(header.map((h) => h.toUpperCase()));
  };
  /**
   * A section's six column names taken from its CSV's header (the PDF has fewer columns): a cell is one name by its
   * index, several names joined by `join`, or null for an empty cell.
   */
  type Cell = number | readonly number[] | null;
  const headerOf = (names: readonly string[], cells: readonly Cell[], join = ' / '): string[] =>
    cells.map((c) => (c === null ? '' : typeof c === 'number' ? (names[c] ?? '') : c.map((i) => names[i]).join(join)));
  section(w.sectionDays, headerOf(w.daysHeader, [0, [1, 2, 3], null, 4, 5, 6]));
  for (const d of view.days)
    rows.push([
      kepDate(d.day, lang),
      `${rsd(d.salesPara)} / ${rsd(d.advancesPara)} / ${rsd(d.refundsPara)}`,
      [
        ...d.byPayment.map((p) => `${paymentName(lang, p.type)} ${rsd(p.netPara)}`),
        ...d.byLabel.map((l) => `${l.label} ${String(l.rate).replace('.', ',')} %: ${rsd(l.grossPara)}`),
      ].join('; '),
      rsd(d.grossPara),
      rsd(d.taxPara),
      rsd(d.grossPara - d.taxPara),
    ]);
  section(w.sectionDocuments, headerOf(w.documentsHeader, [0, 1, [2, 3], 4, 5, null]));
  for (const r of view.documents)
    rows.push([
      formatMoment(r.at, lang),
      r.invoiceNumber ?? '',
      `${receiptKindName(lang, r.invoiceType, r.transactionType)} / ${r.payments.map((p) => paymentName(lang, p)).join(' + ')}`,
      rsd(r.grossPara),
      rsd(r.taxPara),
      '',
    ]);
  section(w.sectionGoods, headerOf(w.goodsHeader, [0, 2, 3, 6, 7, 9]));
  for (const g of view.goodsReceipts)
    rows.push([
      kepDate(g.day, lang),
      `${g.kind === 'receipt' ? w.receipt : w.reversal} ${g.number}`,
      `${g.supplier} (${g.supplierPib}), ${g.invoiceNumber}`,
      rsd(g.purchasePara),
      rsd(g.retailPara),
      rsd(g.marginPara),
    ]);
  for (const p of view.priceChanges)
    rows.push([
      kepDate(dayIn(new Date(p.at)), lang),
      `${w.priceChange} ${p.number}`,
      `${p.code} ${p.name}`,
      '',
      rsd(p.diffPara),
      '',
    ]);
  section(w.sectionKep, ['', '', '', '', '', '']);
  rows.push([kepDate(view.from, lang), '', w.kepLines.opening, '', '', rsd(view.kep.openingPara)]);
  rows.push(['', '', w.kepLines.debit, rsd(view.kep.debitPara), '', '']);
  rows.push(['', '', w.kepLines.credit, '', rsd(view.kep.creditPara), '']);
  rows.push([kepDate(view.to, lang), '', w.kepLines.closing, '', '', rsd(view.kep.closingPara)]);
  rows.push([kepDate(view.to, lang), '', w.stockValue, '', '', rsd(view.stockValuePara)]);
  section(w.sectionJournal, headerOf(w.journalHeader, [1, 2, [3, 5], 6, 7, null], ' — '));
  for (const p of view.journal)
    rows.push([
      kepDate(p.day, lang),
      p.document,
      `${p.account} — ${p.description}`,
      p.debitPara ? rsd(p.debitPara) : '',
      p.creditPara ? rsd(p.creditPara) : '',
      '',
    ]);
  rows.push(['', w.total, '', rsd(view.journalTotals.debitPara), rsd(view.journalTotals.creditPara), '']);
  return pdfFile(`izvoz_${view.from}_${view.to}.pdf`, {
    language: lang,
    shop: deps.shop(),
    printedAt: deps.now(),
    title: w.title,
    lines: [w.period.replace('{from}', kepDate(view.from, lang)).replace('{to}', kepDate(view.to, lang))],
    columns: w.pdfHeader.map((header, i) => ({
      header,
      width: [1.2, 1.8, 4, 1.3, 1.3, 1.3][i] ?? 1,
      ...(i >= 3 ? { align: 'right' as const } : {}),
    })),
    rows,
    totals: [[w.total, '', '', rsd(view.total.grossPara), rsd(view.total.taxPara), rsd(view.total.netPara)]],
    landscape: true,
  });
}
