/**
 * The KEP book of a period laid out for A4 (shared/node/a4.ts): the rulebook's columns with the running balance,
 * the opening balance first, the period's debit and credit sums and the closing balance last. The till's book
 * (electron/goods/documents.ts) and the hub's (hub/goods/documents.ts) print the same page.
 */
import type { KepView } from '../contract/goods.ts';
import type { Language } from '../domain.ts';
import { formatRsd } from '../money.ts';
import { GOODS_DOC_WORDS, kepDate, kepRows, kepWords } from '../i18n/goods.ts';
import { interpolate } from '../i18n/catalog.ts';
import type { A4Column, A4Input } from './a4.ts';

/** The KEP's title, period line, table and totals; the caller adds the shop, the language and the print time. */
export function kepA4(
  view: Pick<KepView, 'from' | 'to' | 'openingPara' | 'entries' | 'closingPara'>,
  lang: Language,
  extraLines: readonly string[] = [],
): Pick<A4Input, 'title' | 'lines' | 'columns' | 'rows' | 'totals'> {
  const w = GOODS_DOC_WORDS[lang];
  const k = kepWords(lang);
  const [no = '', date = '', description = '', debit = '', credit = '', balance = ''] = k.header;
  const columns: A4Column[] = [
    { header: no, width: 0.6, align: 'right' },
    { header: date, width: 1.3 },
    { header: description, width: 3.8 },
    { header: debit, width: 1.3, align: 'right' },
    { header: credit, width: 1.3, align: 'right' },
    { header: balance, width: 1.4, align: 'right' },
  ];
  const debitSum = view.entries.reduce((s, e) => s + e.debitPara, 0);
  const creditSum = view.entries.reduce((s, e) => s + e.creditPara, 0);
  const { opening, entries, closing } = kepRows(view, lang, formatRsd);
  return {
    title: w.kepTitle,
    lines: [...extraLines, interpolate(w.period, { from: kepDate(view.from, lang), to: kepDate(view.to, lang) })],
    columns,
    rows: [opening, ...entries],
    totals: [['', '', w.total, formatRsd(debitSum), formatRsd(creditSum), ''], closing],
  };
}
