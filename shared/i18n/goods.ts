/**
 * The KEP book in words (docs/goods.md): its entries' descriptions and its CSV in the UI language. The CSV is for
 * the shop's accountant: `;` between columns, a decimal comma without thousands separators, Serbian dates
 * (28.11.2026.), the rulebook's columns (Pravilnik o evidenciji prometa: number, date, description, debit, credit)
 * and the running balance.
 */
import type { Language } from '../domain.ts';
import type { KepView, ReorderView } from '../contract/goods.ts';
import { formatQuantity } from '../money.ts';
import { A4_WORDS } from './documents.ts';
import { paymentName } from './enums.ts';

interface KepWords {
  countSurplus: string;
  countShortage: string;
  receipt: string;
  reversal: string;
  priceChange: string;
  writeOff: string;
  turnover: string;
  difference: string;
  header: readonly string[];
  opening: string;
  closing: string;
  transferOut: string;
  transferIn: string;
  /** A till's own book brought to the hub as the shop's opening stock (issue 40, part 8). */
  openingStock: string;
  payment(type: string): string;
}

const WORDS: Record<Language, Omit<KepWords, 'payment'>> = {
  'sr-Cyrl': {
    countSurplus: 'Попис бр. {number}: вишак',
    countShortage: 'Попис бр. {number}: мањак',
    receipt: 'Пријемница бр. {number}, {supplier}, рачун {invoice}',
    reversal: 'Сторно пријемнице бр. {number}, {supplier}, рачун {invoice}',
    priceChange: 'Нивелација бр. {number}: {name}',
    writeOff: 'Отпис бр. {number}: {name} ({reason})',
    turnover: 'Промет по фискалним рачунима: {payment}',
    difference: 'Разлика промета и продајне вредности робе (попусти, роба ван евиденције)',
    header: ['Ред. бр.', 'Датум', 'Опис', 'Задужење', 'Раздужење', 'Салдо'],
    opening: 'Почетно стање',
    closing: 'Стање на крају периода',
    transferOut: 'Пренос бр. {number}: послато у {shop}',
    transferIn: 'Пријем преноса бр. {number} из {shop}',
    openingStock: 'Почетно стање робе бр. {number}: из књиге касе {till}',
  },
  'sr-Latn': {
    countSurplus: 'Popis br. {number}: višak',
    countShortage: 'Popis br. {number}: manjak',
    receipt: 'Prijemnica br. {number}, {supplier}, račun {invoice}',
    reversal: 'Storno prijemnice br. {number}, {supplier}, račun {invoice}',
    priceChange: 'Nivelacija br. {number}: {name}',
    writeOff: 'Otpis br. {number}: {name} ({reason})',
    turnover: 'Promet po fiskalnim računima: {payment}',
    difference: 'Razlika prometa i prodajne vrednosti robe (popusti, roba van evidencije)',
    header: ['Red. br.', 'Datum', 'Opis', 'Zaduženje', 'Razduženje', 'Saldo'],
    opening: 'Početno stanje',
    closing: 'Stanje na kraju perioda',
    transferOut: 'Prenos br. {number}: poslato u {shop}',
    transferIn: 'Prijem prenosa br. {number} iz {shop}',
    openingStock: 'Početno stanje robe br. {number}: iz knjige kase {till}',
  },
  en: {
    countSurplus: 'Stock-taking no. {number}: surplus',
    countShortage: 'Stock-taking no. {number}: shortage',
    receipt: 'Goods receipt no. {number}, {supplier}, invoice {invoice}',
    reversal: 'Reversal of goods receipt no. {number}, {supplier}, invoice {invoice}',
    priceChange: 'Price change no. {number}: {name}',
    writeOff: 'Write-off no. {number}: {name} ({reason})',
    turnover: 'Fiscal turnover: {payment}',
    difference: 'Turnover vs. retail value of the goods sold (discounts, goods outside the book)',
    header: ['No.', 'Date', 'Description', 'Debit', 'Credit', 'Balance'],
    opening: 'Opening balance',
    closing: 'Closing balance',
    transferOut: 'Transfer no. {number}: sent to {shop}',
    transferIn: 'Transfer received no. {number} from {shop}',
    openingStock: "Opening stock no. {number}: from till {till}'s book",
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

/**
 * The KEP of a period in the rulebook's six columns (number, date, description, debit, credit, balance): the opening
 * balance, one row per entry and the closing balance, the amounts written by `money` (the CSV's plain decimal comma,
 * the A4 page's grouped amount).
 */
export function kepRows(
  view: Pick<KepView, 'from' | 'to' | 'openingPara' | 'entries' | 'closingPara'>,
  lang: Language,
  money: (para: number) => string,
): { opening: string[]; entries: string[][]; closing: string[] } {
  const w = WORDS[lang];
  return {
    opening: ['', kepDate(view.from, lang), w.opening, '', '', money(view.openingPara)],
    entries: view.entries.map((e) => [
      String(e.number),
      kepDate(e.day, lang),
      e.description,
      e.debitPara ? money(e.debitPara) : '',
      e.creditPara ? money(e.creditPara) : '',
      money(e.balancePara),
    ]),
    closing: ['', kepDate(view.to, lang), w.closing, '', '', money(view.closingPara)],
  };
}

/** The KEP of a period as CSV: a header, the opening balance, one line per entry, the closing balance. */
export function kepCsv(
  view: Pick<KepView, 'from' | 'to' | 'openingPara' | 'entries' | 'closingPara'>,
  lang: Language,
): string {
  const { opening, entries, closing } = kepRows(view, lang, csvAmount);
  const rows: string[][] = [[...WORDS[lang].header], opening, ...entries, closing];
  return rows.map((r) => r.map(cell).join(';')).join('\r\n') + '\r\n';
}

/** The words of the goods documents on A4 (electron/goods/documents.ts), per language. */
export interface GoodsDocWords {
  kepTitle: string;
  period: string;
  total: string;
  date: string;
  code: string;
  name: string;
  quantity: string;
  unitPrice: string;
  value: string;
  receiptTitle: string;
  draftTitle: string;
  reversalTitle: string;
  supplier: string;
  invoice: string;
  posted: string;
  receiptHeader: readonly string[];
  signatures: string;
  priceChangeTitle: string;
  priceChangeHeader: readonly string[];
  writeOffTitle: string;
  reason: string;
  countTitle: string;
  countScope: string;
  wholeShop: string;
  countStarted: string;
  countState: string;
  countHeader: readonly string[];
  surplus: string;
  shortage: string;
  notCounted: string;
  countSignatures: string;
  reorderTitle: string;
  reorderHeader: readonly string[];
  noSupplier: string;
  /** A reversal's line naming the receipt it reverses. */
  reverses: string;
}

export const GOODS_DOC_WORDS: Record<Language, GoodsDocWords> = {
  'sr-Cyrl': {
    kepTitle: 'Књига евиденције промета (КЕП)',
    period: 'Период: {from} – {to}',
    total: 'Укупно',
    date: 'Датум: {date}',
    code: 'Шифра',
    name: 'Назив',
    quantity: 'Количина',
    unitPrice: 'Цена',
    value: 'Вредност',
    receiptTitle: 'Пријемница са калкулацијом бр. {number}',
    draftTitle: 'Нацрт пријемнице (није прокњижена)',
    reversalTitle: 'Сторно пријемнице бр. {number}',
    supplier: 'Добављач: {name}, ПИБ {pib}',
    invoice: 'Рачун добављача: {number} од {date}',
    posted: 'Прокњижено: {at}, {person}',
    receiptHeader: [
      'Р. бр.',
      'Шифра',
      'Назив',
      'Кол.',
      'Набавна цена',
      'Рабат %',
      'Нето набавна',
      'Маржа %',
      'ПДВ %',
      'Продајна цена',
      'Набавна вредност',
      'Продајна вредност',
    ],
    signatures: 'Примио: ____________________          Одговорно лице: ____________________',
    priceChangeTitle: 'Нивелација бр. {number}',
    priceChangeHeader: [
      'Шифра',
      'Назив',
      'Количина',
      'Стара цена',
      'Нова цена',
      'Разлика по јед.',
      'Разлика вредности',
    ],
    writeOffTitle: 'Отпис робе бр. {number}',
    reason: 'Разлог: {reason}',
    countTitle: 'Пописна листа бр. {number}',
    countScope: 'Обухват: {scope}',
    wholeShop: 'цела продавница',
    countStarted: 'Почетак пописа: {at}',
    countState: 'Стање: {state}',
    countHeader: [
      'Шифра',
      'Назив',
      'Књижно на почетку',
      'Књижно при бројању',
      'Пописано',
      'Разлика',
      'Разлика (продајна)',
      'Разлика (набавна)',
    ],
    surplus: 'Вишак',
    shortage: 'Мањак',
    notCounted: 'није пописано',
    countSignatures: 'Пописна комисија: ____________________   ____________________   ____________________',
    reorderTitle: 'Списак за наручивање',
    reorderHeader: ['Шифра', 'Назив', 'На стању', 'Минимум', 'Наручити', 'Набавна цена'],
    noSupplier: 'Без добављача (артикал још није примљен пријемницом)',
    reverses: 'Сторнира пријемницу бр. {number}',
  },
  'sr-Latn': {
    kepTitle: 'Knjiga evidencije prometa (KEP)',
    period: 'Period: {from} – {to}',
    total: 'Ukupno',
    date: 'Datum: {date}',
    code: 'Šifra',
    name: 'Naziv',
    quantity: 'Količina',
    unitPrice: 'Cena',
    value: 'Vrednost',
    receiptTitle: 'Prijemnica sa kalkulacijom br. {number}',
    draftTitle: 'Nacrt prijemnice (nije proknjižena)',
    reversalTitle: 'Storno prijemnice br. {number}',
    supplier: 'Dobavljač: {name}, PIB {pib}',
    invoice: 'Račun dobavljača: {number} od {date}',
    posted: 'Proknjiženo: {at}, {person}',
    receiptHeader: [
      'R. br.',
      'Šifra',
      'Naziv',
      'Kol.',
      'Nabavna cena',
      'Rabat %',
      'Neto nabavna',
      'Marža %',
      'PDV %',
      'Prodajna cena',
      'Nabavna vrednost',
      'Prodajna vrednost',
    ],
    signatures: 'Primio: ____________________          Odgovorno lice: ____________________',
    priceChangeTitle: 'Nivelacija br. {number}',
    priceChangeHeader: [
      'Šifra',
      'Naziv',
      'Količina',
      'Stara cena',
      'Nova cena',
      'Razlika po jed.',
      'Razlika vrednosti',
    ],
    writeOffTitle: 'Otpis robe br. {number}',
    reason: 'Razlog: {reason}',
    countTitle: 'Popisna lista br. {number}',
    countScope: 'Obuhvat: {scope}',
    wholeShop: 'cela prodavnica',
    countStarted: 'Početak popisa: {at}',
    countState: 'Stanje: {state}',
    countHeader: [
      'Šifra',
      'Naziv',
      'Knjižno na početku',
      'Knjižno pri brojanju',
      'Popisano',
      'Razlika',
      'Razlika (prodajna)',
      'Razlika (nabavna)',
    ],
    surplus: 'Višak',
    shortage: 'Manjak',
    notCounted: 'nije popisano',
    countSignatures: 'Popisna komisija: ____________________   ____________________   ____________________',
    reorderTitle: 'Spisak za naručivanje',
    reorderHeader: ['Šifra', 'Naziv', 'Na stanju', 'Minimum', 'Naručiti', 'Nabavna cena'],
    noSupplier: 'Bez dobavljača (artikal još nije primljen prijemnicom)',
    reverses: 'Stornira prijemnicu br. {number}',
  },
  en: {
    kepTitle: 'Book of turnover records (KEP)',
    period: 'Period: {from} – {to}',
    total: 'Total',
    date: 'Date: {date}',
    code: 'Code',
    name: 'Name',
    quantity: 'Quantity',
    unitPrice: 'Price',
    value: 'Value',
    receiptTitle: 'Goods receipt with calculation no. {number}',
    draftTitle: 'Draft goods receipt (not posted)',
    reversalTitle: 'Reversal of goods receipt no. {number}',
    supplier: 'Supplier: {name}, PIB {pib}',
    invoice: "Supplier's invoice: {number} of {date}",
    posted: 'Posted: {at}, {person}',
    receiptHeader: [
      'No.',
      'Code',
      'Name',
      'Qty',
      'Purchase price',
      'Discount %',
      'Net purchase',
      'Margin %',
      'VAT %',
      'Retail price',
      'Purchase value',
      'Retail value',
    ],
    signatures: 'Received by: ____________________          Responsible person: ____________________',
    priceChangeTitle: 'Price change no. {number}',
    priceChangeHeader: [
      'Code',
      'Name',
      'Quantity',
      'Old price',
      'New price',
      'Difference per unit',
      'Value difference',
    ],
    writeOffTitle: 'Write-off no. {number}',
    reason: 'Reason: {reason}',
    countTitle: 'Stock-taking list no. {number}',
    countScope: 'Scope: {scope}',
    wholeShop: 'the whole shop',
    countStarted: 'Count started: {at}',
    countState: 'State: {state}',
    countHeader: [
      'Code',
      'Name',
      'Book at start',
      'Book when counted',
      'Counted',
      'Difference',
      'Difference (retail)',
      'Difference (purchase)',
    ],
    surplus: 'Surplus',
    shortage: 'Shortage',
    notCounted: 'not counted',
    countSignatures: 'Counting committee: ____________________   ____________________   ____________________',
    reorderTitle: 'Reorder list',
    reorderHeader: ['Code', 'Name', 'On hand', 'Minimum', 'To order', 'Purchase price'],
    noSupplier: 'No supplier (the product was never received)',
    reverses: 'Reverses goods receipt no. {number}',
  },
};

/** Basis points as a percentage with a decimal comma (1250 → 12,5). */
export function percentText(bp: number): string {
  return (bp / 100)
    .toFixed(2)
    .replace(/\.?0+$/, '')
    .replace('.', ',');
}

/** The reorder list as CSV for the supplier's order: supplier, PIB, code, name, on hand, minimum, to order. */
export function reorderCsv(view: Omit<ReorderView, 'csv'>, lang: Language): string {
  const w = GOODS_DOC_WORDS[lang];
  const supplierWord = { 'sr-Cyrl': 'Добављач', 'sr-Latn': 'Dobavljač', en: 'Supplier' }[lang];
  const rows: string[][] = [[supplierWord, A4_WORDS[lang].pib, ...w.reorderHeader]];
  for (const g of view.suppliers)
    for (const i of g.items)
      rows.push([
        g.supplier?.name ?? w.noSupplier,
        g.supplier?.pib ?? '',
        i.code,
        i.name,
        formatQuantity(i.onHandMilli),
        formatQuantity(i.minimumMilli),
        formatQuantity(i.orderMilli),
        i.purchasePara === null ? '' : csvAmount(i.purchasePara),
      ]);
  return rows.map((r) => r.map(cell).join(';')).join('\r\n') + '\r\n';
}

const COUNT_STATES: Record<Language, Record<'open' | 'posted' | 'cancelled', string>> = {
  'sr-Cyrl': { open: 'у току', posted: 'прокњижен', cancelled: 'отказан' },
  'sr-Latn': { open: 'u toku', posted: 'proknjižen', cancelled: 'otkazan' },
  en: { open: 'open', posted: 'posted', cancelled: 'cancelled' },
};

/** A stock-taking's state in words. */
export function countStateName(lang: Language, state: 'open' | 'posted' | 'cancelled'): string {
  return COUNT_STATES[lang][state];
}

/** The words of a transfer between shops on A4 (hub/goods/documents.ts), per language. */
export interface TransferWords {
  title: string;
  from: string;
  to: string;
  sent: string;
  received: string;
  notReceived: string;
  header: readonly string[];
  signatures: string;
}

export const TRANSFER_WORDS: Record<Language, TransferWords> = {
  'sr-Cyrl': {
    title: 'Пренос робе бр. {number}',
    from: 'Из продавнице: {shop}',
    to: 'У продавницу: {shop}',
    sent: 'Послато: {at}',
    received: 'Примљено: {at} (пријем бр. {number})',
    notReceived: 'Још није примљено',
    header: ['Р. бр.', 'Шифра', 'Назив', 'Послато', 'Примљено', 'Разлика'],
    signatures: 'Издао: ____________________        Превезао: ____________________        Примио: ____________________',
  },
  'sr-Latn': {
    title: 'Prenos robe br. {number}',
    from: 'Iz prodavnice: {shop}',
    to: 'U prodavnicu: {shop}',
    sent: 'Poslato: {at}',
    received: 'Primljeno: {at} (prijem br. {number})',
    notReceived: 'Još nije primljeno',
    header: ['R. br.', 'Šifra', 'Naziv', 'Poslato', 'Primljeno', 'Razlika'],
    signatures: 'Izdao: ____________________        Prevezao: ____________________        Primio: ____________________',
  },
  en: {
    title: 'Goods transfer no. {number}',
    from: 'From shop: {shop}',
    to: 'To shop: {shop}',
    sent: 'Sent: {at}',
    received: 'Received: {at} (receipt no. {number})',
    notReceived: 'Not received yet',
    header: ['No.', 'Code', 'Name', 'Sent', 'Received', 'Difference'],
    signatures:
      'Issued by: ____________________        Carried by: ____________________        Received by: ____________________',
  },
};
