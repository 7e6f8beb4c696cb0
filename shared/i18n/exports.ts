/**
 * The words of the bookkeeper's exports (docs/exports.md): the CSV headers, the journal's descriptions, the PDF's
 * titles, the account names and the monthly e-mail, in the three UI languages. English keeps machine-like column names
 * for scripts. One table keyed once: each entry holds its Serbian Cyrillic, Serbian Latin and English words, in that
 * order, and `EXPORT_WORDS` picks one language's column.
 */
import type { Language } from '../domain.ts';
import type { AccountKey } from '../exports/accounts.ts';

export interface ExportWords {
  turnoverHeader: readonly string[];
  goodsHeader: readonly string[];
  journalHeader: readonly string[];
  rateRow: string;
  paymentRow: string;
  total: string;
  receipt: string;
  reversal: string;
  priceChange: string;
  stockValue: string;
  /** The journal's documents. */
  dayEntry: string;
  receiptEntry: string;
  priceEntry: string;
  /** The journal's lines ({payment}, {rate}). */
  takings: string;
  revenue: string;
  vat: string;
  advances: string;
  advanceVat: string;
  goodsIn: string;
  goodsVat: string;
  goodsMargin: string;
  supplier: string;
  /** The entries of goods out at purchase value ({number}: a day for the sales). */
  salesOutEntry: string;
  writeOffEntry: string;
  countEntry: string;
  accounts: Record<AccountKey, string>;
  /** The PDF. */
  title: string;
  period: string;
  sectionDays: string;
  sectionDocuments: string;
  sectionGoods: string;
  sectionKep: string;
  sectionJournal: string;
  daysHeader: readonly string[];
  /** The PDF table's columns (each section names its own below its title). */
  pdfHeader: readonly string[];
  documentsHeader: readonly string[];
  kepLines: { opening: string; debit: string; credit: string; closing: string };
  /** The monthly e-mail to the bookkeeper ({shop}, {month}: „новембар 2026.“, {files}). */
  mailSubject: string;
  mailBody: string;
}

/** Serbian Cyrillic, Serbian Latin, English. */
type Words3 = readonly [string, string, string];

const WORDS = {
  turnoverHeader: [
    ['Датум', 'Datum', 'date'],
    ['Врста', 'Vrsta', 'kind'],
    ['Ознака или плаћање', 'Oznaka ili plaćanje', 'label_or_payment'],
    ['Стопа (%)', 'Stopa (%)', 'rate_percent'],
    ['Бруто (RSD)', 'Bruto (RSD)', 'gross_rsd'],
    ['ПДВ (RSD)', 'PDV (RSD)', 'tax_rsd'],
    ['Нето (RSD)', 'Neto (RSD)', 'net_rsd'],
    ['Продаја (RSD)', 'Prodaja (RSD)', 'sales_rsd'],
    ['Рефундације (RSD)', 'Refundacije (RSD)', 'refunds_rsd'],
  ],
  goodsHeader: [
    ['Датум', 'Datum', 'date'],
    ['Документ', 'Dokument', 'document'],
    ['Број', 'Broj', 'number'],
    ['Добављач или артикал', 'Dobavljač ili artikal', 'supplier_or_product'],
    ['ПИБ', 'PIB', 'pib'],
    ['Фактура', 'Faktura', 'invoice'],
    ['Набавна вредност (RSD)', 'Nabavna vrednost (RSD)', 'purchase_rsd'],
    ['Продајна вредност (RSD)', 'Prodajna vrednost (RSD)', 'retail_rsd'],
    ['ПДВ (RSD)', 'PDV (RSD)', 'tax_rsd'],
    ['Разлика у цени (RSD)', 'Razlika u ceni (RSD)', 'margin_rsd'],
  ],
  journalHeader: [
    ['Налог', 'Nalog', 'entry'],
    ['Датум', 'Datum', 'date'],
    ['Документ', 'Dokument', 'document'],
    ['Конто', 'Konto', 'account'],
    ['Назив конта', 'Naziv konta', 'account_name'],
    ['Опис', 'Opis', 'description'],
    ['Дугује (RSD)', 'Duguje (RSD)', 'debit_rsd'],
    ['Потражује (RSD)', 'Potražuje (RSD)', 'credit_rsd'],
  ],
  rateRow: ['по стопи', 'po stopi', 'rate'],
  paymentRow: ['по плаћању', 'po plaćanju', 'payment'],
  total: ['Укупно', 'Ukupno', 'total'],
  receipt: ['Пријемница', 'Prijemnica', 'goods_receipt'],
  reversal: ['Сторно пријемнице', 'Storno prijemnice', 'goods_reversal'],
  priceChange: ['Нивелација', 'Nivelacija', 'price_change'],
  stockValue: [
    'Вредност залиха по продајним ценама на крају периода',
    'Vrednost zaliha po prodajnim cenama na kraju perioda',
    'stock_value_at_end',
  ],
  dayEntry: ['Промет {day}', 'Promet {day}', 'Turnover {day}'],
  receiptEntry: ['Калкулација {number}', 'Kalkulacija {number}', 'Goods receipt {number}'],
  priceEntry: ['Нивелација {number}', 'Nivelacija {number}', 'Price change {number}'],
  takings: ['Пазар: {payment}', 'Pazar: {payment}', 'Takings: {payment}'],
  revenue: ['Приход од продаје робе ({rate} %)', 'Prihod od prodaje robe ({rate} %)', 'Revenue from goods ({rate} %)'],
  vat: ['ПДВ ({rate} %)', 'PDV ({rate} %)', 'VAT ({rate} %)'],
  advances: ['Примљени аванси', 'Primljeni avansi', 'Advances received'],
  advanceVat: ['ПДВ на авансе ({rate} %)', 'PDV na avanse ({rate} %)', 'VAT on advances ({rate} %)'],
  goodsIn: ['Роба у промету на мало', 'Roba u prometu na malo', 'Goods in retail'],
  goodsVat: ['Укалкулисани ПДВ', 'Ukalkulisani PDV', 'VAT in retail prices'],
  goodsMargin: ['Укалкулисана разлика у цени', 'Ukalkulisana razlika u ceni', 'Margin in retail prices'],
  supplier: ['Добављач {supplier}', 'Dobavljač {supplier}', 'Supplier {supplier}'],
  salesOutEntry: ['Раздужење продавнице {number}', 'Razduženje prodavnice {number}', 'Goods sold {number}'],
  writeOffEntry: ['Отпис {number}', 'Otpis {number}', 'Write-off {number}'],
  countEntry: ['Попис {number}', 'Popis {number}', 'Stock-taking {number}'],
  accounts: {
    cash: ['Благајна', 'Blagajna', 'Cash'],
    cards: ['Платне картице', 'Platne kartice', 'Payment cards'],
    transfer: ['Купци (пренос на рачун)', 'Kupci (prenos na račun)', 'Buyers (bank transfer)'],
    otherPayment: ['Остала плаћања', 'Ostala plaćanja', 'Other payments'],
    revenueGeneral: ['Приход од продаје робе, 20 %', 'Prihod od prodaje robe, 20 %', 'Revenue from goods, 20 %'],
    revenueSpecial: ['Приход од продаје робе, 10 %', 'Prihod od prodaje robe, 10 %', 'Revenue from goods, 10 %'],
    revenueExempt: ['Приход од продаје робе, без ПДВ', 'Prihod od prodaje robe, bez PDV', 'Revenue from goods, no VAT'],
    vatGeneral: ['ПДВ по општој стопи', 'PDV po opštoj stopi', 'VAT, general rate'],
    vatSpecial: ['ПДВ по посебној стопи', 'PDV po posebnoj stopi', 'VAT, special rate'],
    advances: ['Примљени аванси', 'Primljeni avansi', 'Advances received'],
    advanceVatGeneral: ['ПДВ на авансе, општа стопа', 'PDV na avanse, opšta stopa', 'VAT on advances, general rate'],
    advanceVatSpecial: [
      'ПДВ на авансе, посебна стопа',
      'PDV na avanse, posebna stopa',
      'VAT on advances, special rate',
    ],
    goodsRetail: ['Роба у промету на мало', 'Roba u prometu na malo', 'Goods in retail'],
    goodsVat: ['Укалкулисани ПДВ', 'Ukalkulisani PDV', 'VAT in retail prices'],
    goodsMargin: ['Укалкулисана разлика у цени', 'Ukalkulisana razlika u ceni', 'Margin in retail prices'],
    suppliers: ['Добављачи у земљи', 'Dobavljači u zemlji', 'Domestic suppliers'],
    costOfGoods: ['Набавна вредност продате робе', 'Nabavna vrednost prodate robe', 'Cost of goods sold'],
    writeOffs: ['Расход по отпису робе', 'Rashod po otpisu robe', 'Goods written off'],
    shortages: ['Мањкови', 'Manjkovi', 'Stock shortages'],
    surpluses: ['Вишкови', 'Viškovi', 'Stock surpluses'],
  },
  title: ['Извоз за књиговођу', 'Izvoz za knjigovođu', 'Exports for the bookkeeper'],
  period: ['Период: {from} – {to}', 'Period: {from} – {to}', 'Period: {from} – {to}'],
  sectionDays: ['Промет по данима', 'Promet po danima', 'Turnover by day'],
  sectionDocuments: [
    'Рефундације, аванси и коначни рачуни',
    'Refundacije, avansi i konačni računi',
    'Refunds, advances and final sales',
  ],
  sectionGoods: ['Пријемнице и нивелације', 'Prijemnice i nivelacije', 'Goods receipts and price changes'],
  sectionKep: ['КЕП', 'KEP', 'KEP'],
  sectionJournal: ['Налог за књижење', 'Nalog za knjiženje', 'Posting journal'],
  pdfHeader: [
    ['Датум', 'Datum', 'Date'],
    ['Документ', 'Dokument', 'Document'],
    ['Опис', 'Opis', 'Description'],
    ['Бруто / дугује', 'Bruto / duguje', 'Gross / debit'],
    ['ПДВ / потражује', 'PDV / potražuje', 'VAT / credit'],
    ['Нето / салдо', 'Neto / saldo', 'Net / balance'],
  ],
  daysHeader: [
    ['Датум', 'Datum', 'Date'],
    ['Продаја', 'Prodaja', 'Sales'],
    ['Аванси', 'Avansi', 'Advances'],
    ['Рефундације', 'Refundacije', 'Refunds'],
    ['Бруто', 'Bruto', 'Gross'],
    ['ПДВ', 'PDV', 'VAT'],
    ['Нето', 'Neto', 'Net'],
  ],
  documentsHeader: [
    ['Датум и време', 'Datum i vreme', 'Date and time'],
    ['Број рачуна', 'Broj računa', 'Invoice number'],
    ['Врста', 'Vrsta', 'Type'],
    ['Плаћање', 'Plaćanje', 'Payment'],
    ['Бруто', 'Bruto', 'Gross'],
    ['ПДВ', 'PDV', 'VAT'],
  ],
  kepLines: {
    opening: ['Почетно стање', 'Početno stanje', 'Opening balance'],
    debit: ['Задужење', 'Zaduženje', 'Debit'],
    credit: ['Раздужење', 'Razduženje', 'Credit'],
    closing: ['Завршно стање', 'Završno stanje', 'Closing balance'],
  },
  mailSubject: [
    'Извоз за књиговођу: {shop}, {month}',
    'Izvoz za knjigovođu: {shop}, {month}',
    "The bookkeeper's export: {shop}, {month}",
  ],
  mailBody: [
    'Поштовани,\n\nу прилогу је извоз продавнице {shop} за {month}: {files}.\n\nКаса',
    'Poštovani,\n\nu prilogu je izvoz prodavnice {shop} za {month}: {files}.\n\nKasa',
    'Hello,\n\nattached is the export of {shop} for {month}: {files}.\n\nKasa',
  ],
} satisfies {
  [K in keyof ExportWords]: ExportWords[K] extends string
    ? Words3
    : ExportWords[K] extends readonly string[]
      ? readonly Words3[]
      : { readonly [P in keyof ExportWords[K]]: Words3 };
};

const COLUMN: Readonly<Record<Language, 0 | 1 | 2>> = { 'sr-Cyrl': 0, 'sr-Latn': 1, en: 2 };

const isWords3 = (v: unknown): v is Words3 => Array.isArray(v) && typeof v[0] === 'string';

/** One language's words out of the table. */
function wordsIn(lang: Language): ExportWords {
  const i = COLUMN[lang];
  const pick = (v: Words3 | readonly Words3[] | Readonly<Record<string, Words3>>): unknown => {
    if (isWords3(v)) return v[i];
    if (Array.isArray(v)) return (v as readonly Words3[]).map((x) => x[i]);
    return Object.fromEntries(Object.entries(v as Readonly<Record<string, Words3>>).map(([k, x]) => [k, x[i]]));
  };
  return Object.fromEntries(Object.entries(WORDS).map(([k, v]) => [k, pick(v)])) as unknown as ExportWords;
}

export const EXPORT_WORDS: Readonly<Record<Language, ExportWords>> = {
  'sr-Cyrl': wordsIn('sr-Cyrl'),
  'sr-Latn': wordsIn('sr-Latn'),
  en: wordsIn('en'),
};
