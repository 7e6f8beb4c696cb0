/**
 * A stock-taking's list (пописна листа) laid out for A4 (shared/node/a4.ts): its scope, start and state, each
 * product's book quantity at the start and at its entry, what was counted, the difference and its value at retail
 * and purchase price, the surplus and shortage totals and the commission's signatures. The till's count
 * (electron/goods/documents.ts) and the hub's (hub/goods/documents.ts) print the same page.
 */
import type { CountView } from '../contract/goods.ts';
import type { Language } from '../domain.ts';
import { formatQuantity, formatRsd } from '../money.ts';
import { GOODS_DOC_WORDS, countStateName } from '../i18n/goods.ts';
import { formatMoment } from '../i18n/time.ts';
import { interpolate } from '../i18n/catalog.ts';
import type { A4Input } from './a4.ts';

/** The count's title, lines, table, totals and signatures; the caller adds the shop, language and print time. */
export function countA4(
  c: CountView,
  lang: Language,
): Pick<A4Input, 'landscape' | 'title' | 'lines' | 'columns' | 'rows' | 'totals' | 'after'> {
  const w = GOODS_DOC_WORDS[lang];
  const widths = [0.9, 2.6, 1, 1, 1, 1, 1.15, 1.15];
  const t = c.totals;
  return {
    landscape: true,
    title: interpolate(w.countTitle, { number: c.number }),
    lines: [
      interpolate(w.countScope, { scope: c.groups ? c.groups.join(', ') : w.wholeShop }),
      interpolate(w.countStarted, { at: formatMoment(c.startedAt, lang) }),
      interpolate(w.countState, { state: countStateName(lang, c.state) }),
    ],
    columns: w.countHeader.map((header, i) => ({ header, width: widths[i] ?? 1, align: i < 2 ? 'left' : 'right' })),
    rows: c.lines.map((l) => [
      l.code,
      l.name,
      formatQuantity(l.bookMilli),
      l.bookAtEntryMilli === null ? '' : formatQuantity(l.bookAtEntryMilli),
      l.countedMilli === null ? w.notCounted : formatQuantity(l.countedMilli),
      l.differenceMilli === null ? '' : formatQuantity(l.differenceMilli),
      l.differenceMilli ? formatRsd(l.retailDiffPara) : '',
      l.differenceMilli ? formatRsd(l.purchaseDiffPara ?? 0) : '',
    ]),
    totals: [
      [w.surplus, '', '', '', '', '', formatRsd(t.surplusRetailPara), formatRsd(t.surplusPurchasePara ?? 0)],
      [w.shortage, '', '', '', '', '', formatRsd(t.shortageRetailPara), formatRsd(t.shortagePurchasePara ?? 0)],
    ],
    after: [w.countSignatures],
  };
}
