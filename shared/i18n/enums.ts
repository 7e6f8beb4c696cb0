/**
 * The names people read for the contract's enums (payment types, invoice and transaction types, units, tax
 * categories), in the three UI languages. The till's screens and the hub UI show these, never the raw value.
 */
import type { InvoiceType, Language, PaymentType, TransactionType } from '../domain.ts';
import type { Catalog } from './catalog.ts';

type Names<K extends string> = Record<Language, Record<K, string>>;

/**
 * The one name of each payment type per language: on the counter, the manager screens, the reports, the slips and
 * the receipts Kasa prints (shared/fiscal-text.ts takes the Serbian Cyrillic ones). The Serbian words are the Tax
 * Administration's names of the ESIR payment types as Serbian receipts print them (docs/payments.md, "The fiscal
 * payment type"); the types the spec adds beyond those (virman, mobile, factoring, account) are named plainly.
 */
export const PAYMENT_NAMES: Names<PaymentType> = {
  'sr-Cyrl': {
    cash: 'Готовина',
    card: 'Платна картица',
    wireTransfer: 'Пренос на рачун',
    check: 'Чек',
    voucher: 'Ваучер',
    mobileMoney: 'Инстант плаћање',
    virman: 'Вирман',
    mobile: 'Мобилно плаћање',
    factoring: 'Факторинг',
    account: 'На рачун',
    other: 'Друго безготовинско плаћање',
  },
  'sr-Latn': {
    cash: 'Gotovina',
    card: 'Platna kartica',
    wireTransfer: 'Prenos na račun',
    check: 'Ček',
    voucher: 'Vaučer',
    mobileMoney: 'Instant plaćanje',
    virman: 'Virman',
    mobile: 'Mobilno plaćanje',
    factoring: 'Faktoring',
    account: 'Na račun',
    other: 'Drugo bezgotovinsko plaćanje',
  },
  en: {
    cash: 'Cash',
    card: 'Payment card',
    wireTransfer: 'Wire transfer',
    check: 'Cheque',
    voucher: 'Voucher',
    mobileMoney: 'Instant payment',
    // A Serbian bank payment order (virman), not the Serbian word on an English screen.
    virman: 'Payment order',
    mobile: 'Mobile payment',
    factoring: 'Factoring',
    account: 'On account',
    other: 'Other non-cash payment',
  },
};

export const INVOICE_TYPE_NAMES: Names<InvoiceType> = {
  'sr-Cyrl': { normal: 'Промет', training: 'Обука', advance: 'Аванс', proforma: 'Предрачун', copy: 'Копија' },
  'sr-Latn': { normal: 'Promet', training: 'Obuka', advance: 'Avans', proforma: 'Predračun', copy: 'Kopija' },
  en: { normal: 'Normal', training: 'Training', advance: 'Advance', proforma: 'Proforma', copy: 'Copy' },
};

export const TRANSACTION_TYPE_NAMES: Names<TransactionType> = {
  'sr-Cyrl': { sale: 'продаја', refund: 'рефундација', finalize: 'коначни' },
  'sr-Latn': { sale: 'prodaja', refund: 'refundacija', finalize: 'konačni' },
  en: { sale: 'sale', refund: 'refund', finalize: 'final' },
};

export type Unit = 'piece' | 'kg' | 'l';
export const UNIT_NAMES: Names<Unit> = {
  'sr-Cyrl': { piece: 'ком', kg: 'kg', l: 'l' },
  'sr-Latn': { piece: 'kom', kg: 'kg', l: 'l' },
  en: { piece: 'pcs', kg: 'kg', l: 'l' },
};

/**
 * The gateway's tax category names as the Serbian tax law names them: the demo group's (`VAT`, `VAT-EXCL`, `STT`)
 * and production's (`О-ПДВ` general and `П-ПДВ` special rate are both ПДВ, the rate tells them apart).
 */
const TAX_CATEGORY_NAMES: Record<Language, Record<string, string>> = {
  'sr-Cyrl': {
    VAT: 'ПДВ',
    'VAT-EXCL': 'Без ПДВ-а',
    STT: 'Порез на промет',
    'О-ПДВ': 'ПДВ',
    'П-ПДВ': 'ПДВ',
    'Без ПДВ': 'Без ПДВ-а',
    'Није у ПДВ': 'Ван система ПДВ-а',
  },
  'sr-Latn': {
    VAT: 'PDV',
    'VAT-EXCL': 'Bez PDV-a',
    STT: 'Porez na promet',
    'О-ПДВ': 'PDV',
    'П-ПДВ': 'PDV',
    'Без ПДВ': 'Bez PDV-a',
    'Није у ПДВ': 'Van sistema PDV-a',
  },
  en: {
    VAT: 'VAT',
    'VAT-EXCL': 'VAT exempt',
    STT: 'Sales turnover tax',
    'О-ПДВ': 'VAT',
    'П-ПДВ': 'VAT',
    'Без ПДВ': 'VAT exempt',
    'Није у ПДВ': 'Outside VAT',
  },
};

/**
 * These tables as one catalog of the app's message format (shared/i18n/catalog.ts): checked with every other catalog
 * (test/i18n/catalogs.test.ts: every key in all three languages, no empty text).
 */
const enumTree = (lang: Language) => ({
  payment: PAYMENT_NAMES[lang],
  invoiceType: INVOICE_TYPE_NAMES[lang],
  transactionType: TRANSACTION_TYPE_NAMES[lang],
  unit: UNIT_NAMES[lang],
  taxCategory: TAX_CATEGORY_NAMES[lang],
});
export const enumMessages: Catalog = {
  'sr-Cyrl': enumTree('sr-Cyrl'),
  'sr-Latn': enumTree('sr-Latn'),
  en: enumTree('en'),
};

const pick = <K extends string>(names: Names<K>, lang: Language, value: string): string =>
  (names[lang] as Record<string, string>)[value] ?? value;

export const paymentName = (lang: Language, type: string): string => pick(PAYMENT_NAMES, lang, type);
export const invoiceTypeName = (lang: Language, type: string): string => pick(INVOICE_TYPE_NAMES, lang, type);
export const transactionTypeName = (lang: Language, type: string): string => pick(TRANSACTION_TYPE_NAMES, lang, type);
export const unitName = (lang: Language, unit: string): string => pick(UNIT_NAMES, lang, unit);
/** A tax category's name; one the gateway sent that is not known here is shown as sent. */
export const taxCategoryName = (lang: Language, name: string): string => TAX_CATEGORY_NAMES[lang][name] ?? name;

/** A tax rate in percent with the decimal comma, as the shop reads it: 20 → „20“, 0.5 → „0,5“. */
export const taxRateText = (rate: number): string => String(rate).replace('.', ',');

/**
 * A tax label as every screen writes it: the letter, the category's name and the rate, „Ђ — ПДВ 20 %“,
 * „P — Порез на промет 0,5 %“ (one way everywhere: it used to be four).
 */
export const taxLabelName = (lang: Language, l: { label: string; rate: number; categoryName: string }): string =>
  `${l.label} — ${taxCategoryName(lang, l.categoryName)} ${taxRateText(l.rate)} %`;

/** An invoice and transaction type pair (`normal/sale`) in words: „Промет — продаја“. */
export const receiptKindName = (lang: Language, invoiceType: string, transactionType: string): string =>
  `${invoiceTypeName(lang, invoiceType)} — ${transactionTypeName(lang, transactionType)}`;

/**
 * The English words of the printer presets' names (resources/printers/presets.json), each with its Serbian Cyrillic
 * and Latin words in one row, so a new word is added once for both scripts; English keeps the names, and makers and
 * models stay.
 */
const PRINTER_WORDS: readonly (readonly [RegExp, string, string])[] = [
  [/Generic ESC\/POS, Epson tables/, 'Општи ESC/POS, Epson табеле', 'Opšti ESC/POS, Epson tabele'],
  [/ and clones/, ' и слични', ' i slični'],
  [/ in ESC\/POS mode/, ' у ESC/POS режиму', ' u ESC/POS režimu'],
  [/ built-in printer/, ' уграђени штампач', ' ugrađeni štampač'],
  [/(\d+) dots/, '$1 тачака', '$1 tačaka'],
  [/raster/, 'растер', 'raster'],
];

/** A printer preset's name in the UI language (`Star TSP600 in ESC/POS mode` -> `Star TSP600 у ESC/POS режиму`). */
export const printerProfileName = (lang: Language, name: string): string =>
  lang === 'en'
    ? name
    : PRINTER_WORDS.reduce((text, [from, cyrl, latn]) => text.replace(from, lang === 'sr-Cyrl' ? cyrl : latn), name);
