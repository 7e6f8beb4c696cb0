/**
 * The words of the bookkeeper's exports (docs/exports.md): the CSV headers, the journal's descriptions, the PDF's
 * titles and the account names, in the three UI languages. English keeps machine-like column names for scripts.
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

const SR_CYRL: ExportWords = {
  turnoverHeader: [
    'Датум',
    'Врста',
    'Ознака или плаћање',
    'Стопа (%)',
    'Бруто (RSD)',
    'ПДВ (RSD)',
    'Нето (RSD)',
    'Продаја (RSD)',
    'Рефундације (RSD)',
  ],
  goodsHeader: [
    'Датум',
    'Документ',
    'Број',
    'Добављач или артикал',
    'ПИБ',
    'Фактура',
    'Набавна вредност (RSD)',
    'Продајна вредност (RSD)',
    'ПДВ (RSD)',
    'Разлика у цени (RSD)',
  ],
  journalHeader: ['Налог', 'Датум', 'Документ', 'Конто', 'Назив конта', 'Опис', 'Дугује (RSD)', 'Потражује (RSD)'],
  rateRow: 'по стопи',
  paymentRow: 'по плаћању',
  total: 'Укупно',
  receipt: 'Пријемница',
  reversal: 'Сторно пријемнице',
  priceChange: 'Нивелација',
  stockValue: 'Вредност залиха по продајним ценама на крају периода',
  dayEntry: 'Промет {day}',
  receiptEntry: 'Калкулација {number}',
  priceEntry: 'Нивелација {number}',
  takings: 'Пазар: {payment}',
  revenue: 'Приход од продаје робе ({rate} %)',
  vat: 'ПДВ ({rate} %)',
  advances: 'Примљени аванси',
  advanceVat: 'ПДВ на авансе ({rate} %)',
  goodsIn: 'Роба у промету на мало',
  goodsVat: 'Укалкулисани ПДВ',
  goodsMargin: 'Укалкулисана разлика у цени',
  supplier: 'Добављач {supplier}',
  accounts: {
    cash: 'Благајна',
    cards: 'Платне картице',
    transfer: 'Купци (пренос на рачун)',
    otherPayment: 'Остала плаћања',
    revenueGeneral: 'Приход од продаје робе, 20 %',
    revenueSpecial: 'Приход од продаје робе, 10 %',
    revenueExempt: 'Приход од продаје робе, без ПДВ',
    vatGeneral: 'ПДВ по општој стопи',
    vatSpecial: 'ПДВ по посебној стопи',
    advances: 'Примљени аванси',
    advanceVatGeneral: 'ПДВ на авансе, општа стопа',
    advanceVatSpecial: 'ПДВ на авансе, посебна стопа',
    goodsRetail: 'Роба у промету на мало',
    goodsVat: 'Укалкулисани ПДВ',
    goodsMargin: 'Укалкулисана разлика у цени',
    suppliers: 'Добављачи у земљи',
  },
  title: 'Извоз за књиговођу',
  period: 'Период: {from} – {to}',
  sectionDays: 'Промет по данима',
  sectionDocuments: 'Рефундације, аванси и коначни рачуни',
  sectionGoods: 'Пријемнице и нивелације',
  sectionKep: 'КЕП',
  sectionJournal: 'Налог за књижење',
  pdfHeader: ['Датум', 'Документ', 'Опис', 'Бруто / дугује', 'ПДВ / потражује', 'Нето / салдо'],
  daysHeader: ['Датум', 'Продаја', 'Аванси', 'Рефундације', 'Бруто', 'ПДВ', 'Нето'],
  documentsHeader: ['Датум и време', 'Број рачуна', 'Врста', 'Плаћање', 'Бруто', 'ПДВ'],
  kepLines: { opening: 'Почетно стање', debit: 'Задужење', credit: 'Раздужење', closing: 'Завршно стање' },
  mailSubject: 'Извоз за књиговођу: {shop}, {month}',
  mailBody: 'Поштовани,\n\nу прилогу је извоз продавнице {shop} за {month}: {files}.\n\nКаса',
};

const SR_LATN: ExportWords = {
  turnoverHeader: [
    'Datum',
    'Vrsta',
    'Oznaka ili plaćanje',
    'Stopa (%)',
    'Bruto (RSD)',
    'PDV (RSD)',
    'Neto (RSD)',
    'Prodaja (RSD)',
    'Refundacije (RSD)',
  ],
  goodsHeader: [
    'Datum',
    'Dokument',
    'Broj',
    'Dobavljač ili artikal',
    'PIB',
    'Faktura',
    'Nabavna vrednost (RSD)',
    'Prodajna vrednost (RSD)',
    'PDV (RSD)',
    'Razlika u ceni (RSD)',
  ],
  journalHeader: ['Nalog', 'Datum', 'Dokument', 'Konto', 'Naziv konta', 'Opis', 'Duguje (RSD)', 'Potražuje (RSD)'],
  rateRow: 'po stopi',
  paymentRow: 'po plaćanju',
  total: 'Ukupno',
  receipt: 'Prijemnica',
  reversal: 'Storno prijemnice',
  priceChange: 'Nivelacija',
  stockValue: 'Vrednost zaliha po prodajnim cenama na kraju perioda',
  dayEntry: 'Promet {day}',
  receiptEntry: 'Kalkulacija {number}',
  priceEntry: 'Nivelacija {number}',
  takings: 'Pazar: {payment}',
  revenue: 'Prihod od prodaje robe ({rate} %)',
  vat: 'PDV ({rate} %)',
  advances: 'Primljeni avansi',
  advanceVat: 'PDV na avanse ({rate} %)',
  goodsIn: 'Roba u prometu na malo',
  goodsVat: 'Ukalkulisani PDV',
  goodsMargin: 'Ukalkulisana razlika u ceni',
  supplier: 'Dobavljač {supplier}',
  accounts: {
    cash: 'Blagajna',
    cards: 'Platne kartice',
    transfer: 'Kupci (prenos na račun)',
    otherPayment: 'Ostala plaćanja',
    revenueGeneral: 'Prihod od prodaje robe, 20 %',
    revenueSpecial: 'Prihod od prodaje robe, 10 %',
    revenueExempt: 'Prihod od prodaje robe, bez PDV',
    vatGeneral: 'PDV po opštoj stopi',
    vatSpecial: 'PDV po posebnoj stopi',
    advances: 'Primljeni avansi',
    advanceVatGeneral: 'PDV na avanse, opšta stopa',
    advanceVatSpecial: 'PDV na avanse, posebna stopa',
    goodsRetail: 'Roba u prometu na malo',
    goodsVat: 'Ukalkulisani PDV',
    goodsMargin: 'Ukalkulisana razlika u ceni',
    suppliers: 'Dobavljači u zemlji',
  },
  title: 'Izvoz za knjigovođu',
  period: 'Period: {from} – {to}',
  sectionDays: 'Promet po danima',
  sectionDocuments: 'Refundacije, avansi i konačni računi',
  sectionGoods: 'Prijemnice i nivelacije',
  sectionKep: 'KEP',
  sectionJournal: 'Nalog za knjiženje',
  pdfHeader: ['Datum', 'Dokument', 'Opis', 'Bruto / duguje', 'PDV / potražuje', 'Neto / saldo'],
  daysHeader: ['Datum', 'Prodaja', 'Avansi', 'Refundacije', 'Bruto', 'PDV', 'Neto'],
  documentsHeader: ['Datum i vreme', 'Broj računa', 'Vrsta', 'Plaćanje', 'Bruto', 'PDV'],
  kepLines: { opening: 'Početno stanje', debit: 'Zaduženje', credit: 'Razduženje', closing: 'Završno stanje' },
  mailSubject: 'Izvoz za knjigovođu: {shop}, {month}',
  mailBody: 'Poštovani,\n\nu prilogu je izvoz prodavnice {shop} za {month}: {files}.\n\nKasa',
};

const EN: ExportWords = {
  turnoverHeader: [
    'date',
    'kind',
    'label_or_payment',
    'rate_percent',
    'gross_rsd',
    'tax_rsd',
    'net_rsd',
    'sales_rsd',
    'refunds_rsd',
  ],
  goodsHeader: [
    'date',
    'document',
    'number',
    'supplier_or_product',
    'pib',
    'invoice',
    'purchase_rsd',
    'retail_rsd',
    'tax_rsd',
    'margin_rsd',
  ],
  journalHeader: ['entry', 'date', 'document', 'account', 'account_name', 'description', 'debit_rsd', 'credit_rsd'],
  rateRow: 'rate',
  paymentRow: 'payment',
  total: 'total',
  receipt: 'goods_receipt',
  reversal: 'goods_reversal',
  priceChange: 'price_change',
  stockValue: 'stock_value_at_end',
  dayEntry: 'Turnover {day}',
  receiptEntry: 'Goods receipt {number}',
  priceEntry: 'Price change {number}',
  takings: 'Takings: {payment}',
  revenue: 'Revenue from goods ({rate} %)',
  vat: 'VAT ({rate} %)',
  advances: 'Advances received',
  advanceVat: 'VAT on advances ({rate} %)',
  goodsIn: 'Goods in retail',
  goodsVat: 'VAT in retail prices',
  goodsMargin: 'Margin in retail prices',
  supplier: 'Supplier {supplier}',
  accounts: {
    cash: 'Cash',
    cards: 'Payment cards',
    transfer: 'Buyers (bank transfer)',
    otherPayment: 'Other payments',
    revenueGeneral: 'Revenue from goods, 20 %',
    revenueSpecial: 'Revenue from goods, 10 %',
    revenueExempt: 'Revenue from goods, no VAT',
    vatGeneral: 'VAT, general rate',
    vatSpecial: 'VAT, special rate',
    advances: 'Advances received',
    advanceVatGeneral: 'VAT on advances, general rate',
    advanceVatSpecial: 'VAT on advances, special rate',
    goodsRetail: 'Goods in retail',
    goodsVat: 'VAT in retail prices',
    goodsMargin: 'Margin in retail prices',
    suppliers: 'Domestic suppliers',
  },
  title: 'Exports for the bookkeeper',
  period: 'Period: {from} – {to}',
  sectionDays: 'Turnover by day',
  sectionDocuments: 'Refunds, advances and final sales',
  sectionGoods: 'Goods receipts and price changes',
  sectionKep: 'KEP',
  sectionJournal: 'Posting journal',
  pdfHeader: ['Date', 'Document', 'Description', 'Gross / debit', 'VAT / credit', 'Net / balance'],
  daysHeader: ['Date', 'Sales', 'Advances', 'Refunds', 'Gross', 'VAT', 'Net'],
  documentsHeader: ['Date and time', 'Invoice number', 'Type', 'Payment', 'Gross', 'VAT'],
  kepLines: { opening: 'Opening balance', debit: 'Debit', credit: 'Credit', closing: 'Closing balance' },
  mailSubject: "The bookkeeper's export: {shop}, {month}",
  mailBody: 'Hello,\n\nattached is the export of {shop} for {month}: {files}.\n\nKasa',
};

export const EXPORT_WORDS: Readonly<Record<Language, ExportWords>> = { 'sr-Cyrl': SR_CYRL, 'sr-Latn': SR_LATN, en: EN };
