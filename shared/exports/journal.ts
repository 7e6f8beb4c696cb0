/**
 * The posting journal (налог за књижење) of a period: per Belgrade day one entry for the day's fiscal turnover, and
 * one per goods receipt (its calculation) and per price change (нивелација), on the accounts the shop mapped
 * (shared/exports/accounts.ts). Every entry balances, debit = credit, by construction (docs/exports.md):
 *
 * - the day: debit each payment type's account with what it took net of refunds; credit revenue and VAT per rate
 *   with the gross by label of the day's sales, final sales and refunds; credit advances received and the VAT on
 *   advances with the day's advance receipts (АП) net of their refunds. A final sale's advance refund (АР) closes the
 *   advances it cancels: debit advances and their VAT, credit revenue and VAT, so the final sale's revenue is the
 *   whole sale (the rules of docs/advances.md) while the takings are only the new money;
 * - a goods receipt: debit goods in retail with the retail value it brought in (the KEP's debit), credit the VAT
 *   and the margin within it and the supplier with the purchase value without VAT (a reversal: the same negated);
 * - a price change: debit (or credit, a decrease) goods in retail with the difference, against the VAT and the
 *   margin within it;
 * - goods out at purchase value (shared/exports/cost.ts): per day the sold goods (раздужење продавнице), per
 *   write-off and per stock-taking its goods: credit goods in retail with their retail value, debit the VAT and the
 *   margin within it, and the cost of goods sold, the write-offs' expense or the shortages (a surplus: credit the
 *   surpluses' income) with their purchase value; goods put back (a refund, a surplus) the same, negated.
 *
 * Pure: no database.
 */
import type { PaymentType, Language } from '../domain.ts';
import type { Posting } from '../contract/exports.ts';
import { paymentName } from '../i18n/enums.ts';
import { EXPORT_WORDS } from '../i18n/exports.ts';
import { kepDate } from '../i18n/goods.ts';
import { paymentAccountKey, rateClass, type AccountKey, type AccountMap } from './accounts.ts';

export interface LabelRow {
  label: string;
  rate: number;
  grossPara: number;
  taxPara: number;
}

export interface JournalDay {
  day: string;
  payments: readonly { type: PaymentType; netPara: number }[];
  /** Sales, final sales and refunds by label (a final sale's advance refund included, negative). */
  sales: readonly LabelRow[];
  /** Advance receipts net of their refunds, by label. */
  advances: readonly LabelRow[];
  /** The advance refunds (АР) of the day's final sales, by label, signed as the report counts them (negative). */
  advancesClosed: readonly LabelRow[];
}

export interface JournalReceipt {
  day: string;
  number: string;
  supplier: string;
  retailPara: number;
  vatPara: number;
  marginPara: number;
  purchasePara: number;
}

export interface JournalPriceChange {
  day: string;
  number: string;
  name: string;
  diffPara: number;
  vatPara: number;
}

/** Goods out of the shop at purchase value, per account: retail, VAT and purchase value signed out (+) or in (−). */
export interface JournalGoodsOut {
  day: string;
  kind: 'sales' | 'writeoff' | 'count';
  /** The write-off's or the count's number; for the day's sales the day. */
  number: string;
  lines: readonly {
    key: 'costOfGoods' | 'writeOffs' | 'shortages' | 'surpluses';
    retailPara: number;
    vatPara: number;
    purchasePara: number;
  }[];
}

const fill = (t: string, p: Record<string, string | number>): string =>
  t.replace(/\{(\w+)\}/g, (_m, k: string) => String(p[k] ?? ''));

export function buildJournal(
  input: {
    days: readonly JournalDay[];
    receipts: readonly JournalReceipt[];
    priceChanges: readonly JournalPriceChange[];
    goodsOut?: readonly JournalGoodsOut[];
  },
  accounts: AccountMap,
  lang: Language,
): Posting[] {
  const w = EXPORT_WORDS[lang];
  const out: Posting[] = [];
  let entry = 0;
  const rateText = (rate: number): string => String(rate).replace('.', lang === 'en' ? '.' : ',');

  /** One entry: lines netted per account and description, debit positive. */
  const post = (
    day: string,
    document: string,
    fillLines: (add: (key: AccountKey, text: string, v: number) => void) => void,
  ) => {
    const lines = new Map<string, { account: string; description: string; v: number }>();
    fillLines((key, description, v) => {
      if (v === 0) return;
      const account = accounts[key];
      const k = `${account}\u0000${description}`;
      const e = lines.get(k);
      if (e) e.v += v;
      else lines.set(k, { account, description, v });
    });
    const kept = [...lines.values()].filter((l) => l.v !== 0);
    if (!kept.length) return;
    entry++;
    for (const l of kept)
      out.push({
        entry,
        day,
        document,
        account: l.account,
        description: l.description,
        debitPara: l.v > 0 ? l.v : 0,
        creditPara: l.v < 0 ? -l.v : 0,
      });
  };

  const revenue = (add: (key: AccountKey, text: string, v: number) => void, r: LabelRow, sign: 1 | -1): void => {
    const cls = rateClass(r.rate);
    add(`revenue${cls}`, fill(w.revenue, { rate: rateText(r.rate) }), -sign * (r.grossPara - r.taxPara));
    if (cls !== 'Exempt') add(`vat${cls}`, fill(w.vat, { rate: rateText(r.rate) }), -sign * r.taxPara);
    else add('revenueExempt', fill(w.revenue, { rate: rateText(r.rate) }), -sign * r.taxPara);
  };
  const advance = (add: (key: AccountKey, text: string, v: number) => void, r: LabelRow, sign: 1 | -1): void => {
    const cls = rateClass(r.rate);
    add('advances', w.advances, -sign * (r.grossPara - r.taxPara));
    if (cls !== 'Exempt') add(`advanceVat${cls}`, fill(w.advanceVat, { rate: rateText(r.rate) }), -sign * r.taxPara);
    else add('advances', w.advances, -sign * r.taxPara);
  };

  const documents = [
    ...input.days.map((d) => ({ day: d.day, order: 0, run: () => dayEntry(d) })),
    ...input.receipts.map((r) => ({ day: r.day, order: 1, run: () => receiptEntry(r) })),
    ...input.priceChanges.map((p) => ({ day: p.day, order: 2, run: () => priceEntry(p) })),
    ...(input.goodsOut ?? []).map((g) => ({ day: g.day, order: 3, run: () => goodsOutEntry(g) })),
  ].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.order - b.order));

  function dayEntry(d: JournalDay): void {
    post(d.day, fill(w.dayEntry, { day: kepDate(d.day, lang) }), (add) => {
      for (const p of d.payments)
        add(
          paymentAccountKey(p.type),
          fill(w.takings, { payment: lang === 'en' ? p.type : paymentName(lang, p.type) }),
          p.netPara,
        );
      for (const r of d.sales) revenue(add, r, 1);
      for (const r of d.advances) advance(add, r, 1);
      // The АР closes the advances (debit them) and moves their money into the final sale's revenue.
      for (const r of d.advancesClosed) {
        advance(add, r, 1);
        revenue(add, r, -1);
      }
    });
  }
  function receiptEntry(r: JournalReceipt): void {
    post(r.day, fill(w.receiptEntry, { number: r.number }), (add) => {
      add('goodsRetail', w.goodsIn, r.retailPara);
      add('goodsVat', w.goodsVat, -r.vatPara);
      add('goodsMargin', w.goodsMargin, -r.marginPara);
      add('suppliers', fill(w.supplier, { supplier: r.supplier }), -r.purchasePara);
    });
  }
  function priceEntry(p: JournalPriceChange): void {
    post(p.day, fill(w.priceEntry, { number: p.number }), (add) => {
      add('goodsRetail', `${w.goodsIn}: ${p.name}`, p.diffPara);
      add('goodsVat', w.goodsVat, -p.vatPara);
      add('goodsMargin', w.goodsMargin, -(p.diffPara - p.vatPara));
    });
  }
  function goodsOutEntry(g: JournalGoodsOut): void {
    const title = { sales: w.salesOutEntry, writeoff: w.writeOffEntry, count: w.countEntry }[g.kind];
    post(g.day, fill(title, { number: g.kind === 'sales' ? kepDate(g.number, lang) : g.number }), (add) => {
      for (const l of g.lines) {
        add('goodsRetail', w.goodsIn, -l.retailPara);
        add('goodsVat', w.goodsVat, l.vatPara);
        add('goodsMargin', w.goodsMargin, l.retailPara - l.vatPara - l.purchasePara);
        add(l.key, w.accounts[l.key], l.purchasePara);
      }
    });
  }
  for (const d of documents) d.run();
  return out;
}

/** Σ debit and Σ credit of postings. */
export function journalTotals(postings: readonly Posting[]): { debitPara: number; creditPara: number } {
  let debitPara = 0;
  let creditPara = 0;
  for (const p of postings) {
    debitPara += p.debitPara;
    creditPara += p.creditPara;
  }
  return { debitPara, creditPara };
}
