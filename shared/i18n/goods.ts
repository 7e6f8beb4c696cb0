/**
 * The KEP book in words (docs/goods.md): its entries' descriptions and its CSV in the UI language. The CSV is for
 * the shop's accountant: `;` between columns, a decimal comma without thousands separators, Serbian dates
 * (28.11.2026.), the rulebook's columns (Pravilnik o evidenciji prometa: number, date, description, debit, credit)
 * and the running balance.
 */
import type { Language } from '../domain.ts';
import type { KepView } from '../contract/goods.ts';
import { paymentName } from './enums.ts';

interface KepWords {
  receipt: string;
  reversal: string;
  priceChange: string;
  writeOff: string;
  turnover: string;
  difference: string;
  header: readonly string[];
  opening: string;
  closing: string;
  payment(type: string): string;
}

const WORDS: Record<Language, Omit<KepWords, 'payment'>> = {
  'sr-Cyrl': {
    receipt: 'Пријемница бр. {number}, {supplier}, рачун {invoice}',
    reversal: 'Сторно пријемнице бр. {number}, {supplier}, рачун {invoice}',
    priceChange: 'Нивелација бр. {number}: {name}',
    writeOff: 'Отпис бр. {number}: {name} ({reason})',
    turnover: 'Промет по фискалним рачунима: {payment}',
    difference: 'Разлика промета и продајне вредности робе (попусти, роба ван евиденције)',
    header: ['Ред. бр.', 'Датум', 'Опис', 'Задужење', 'Раздужење', 'Салдо'],
    opening: 'Почетно стање',
    closing: 'Стање на крају периода',
  },
  'sr-Latn': {
    receipt: 'Prijemnica br. {number}, {supplier}, račun {invoice}',
    reversal: 'Storno prijemnice br. {number}, {supplier}, račun {invoice}',
    priceChange: 'Nivelacija br. {number}: {name}',
    writeOff: 'Otpis br. {number}: {name} ({reason})',
    turnover: 'Promet po fiskalnim računima: {payment}',
    difference: 'Razlika prometa i prodajne vrednosti robe (popusti, roba van evidencije)',
    header: ['Red. br.', 'Datum', 'Opis', 'Zaduženje', 'Razduženje', 'Saldo'],
    opening: 'Početno stanje',
    closing: 'Stanje na kraju perioda',
  },
  en: {
    receipt: 'Goods receipt no. {number}, {supplier}, invoice {invoice}',
    reversal: 'Reversal of goods receipt no. {number}, {supplier}, invoice {invoice}',
    priceChange: 'Price change no. {number}: {name}',
    writeOff: 'Write-off no. {number}: {name} ({reason})',
    turnover: 'Fiscal turnover: {payment}',
    difference: 'Turnover vs. retail value of the goods sold (discounts, goods outside the book)',
    header: ['No.', 'Date', 'Description', 'Debit', 'Credit', 'Balance'],
    opening: 'Opening balance',
    closing: 'Closing balance',
  },
};

export function kepWords(lang: Language): KepWords {
  return { ...WORDS[lang], payment: (type) => paymentName(lang, type) };
}

/** 2026-11-28 → 28.11.2026. (the Serbian way; English keeps the ISO day). */
export function kepDate(day: string, lang: Language): string {
  if (lang === 'en') return day;
  const [y, m, d] = day.split('-');
  return `${d}.${m}.${y}.`;
}

/** Para as a CSV amount: a decimal comma, no thousands separators (1234,56; −5,00 as -5,00). */
export function csvAmount(para: number): string {
  const abs = Math.abs(para);
  return `${para < 0 ? '-' : ''}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

const cell = (v: string): string => (/[;"\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The KEP of a period as CSV: a header, the opening balance, one line per entry, the closing balance. */
export function kepCsv(view: Omit<KepView, 'csv'>, lang: Language): string {
  const w = WORDS[lang];
  const rows: string[][] = [
    [...w.header],
    ['', kepDate(view.from, lang), w.opening, '', '', csvAmount(view.openingPara)],
    ...view.entries.map((e) => [
      String(e.number),
      kepDate(e.day, lang),
      e.description,
      e.debitPara ? csvAmount(e.debitPara) : '',
      e.creditPara ? csvAmount(e.creditPara) : '',
      csvAmount(e.balancePara),
    ]),
    ['', kepDate(view.to, lang), w.closing, '', '', csvAmount(view.closingPara)],
  ];
  return rows.map((r) => r.map(cell).join(';')).join('\r\n') + '\r\n';
}
