/**
 * The names people read for the contract's enums (payment types, invoice and transaction types, units, tax
 * categories), in the three UI languages. The till's screens and the hub UI show these, never the raw value.
 */
import type { InvoiceType, Language, PaymentType, TransactionType } from '../domain.ts';

type Names<K extends string> = Record<Language, Record<K, string>>;

export const PAYMENT_NAMES: Names<PaymentType> = {
  'sr-Cyrl': {
    cash: 'Готовина',
    card: 'Картица',
    wireTransfer: 'Пренос на рачун',
    check: 'Чек',
    voucher: 'Ваучер',
    mobileMoney: 'Инстант плаћање',
    virman: 'Вирман',
    mobile: 'Мобилно плаћање',
    factoring: 'Факторинг',
    account: 'На рачун',
    other: 'Друго безготовинско',
  },
  'sr-Latn': {
    cash: 'Gotovina',
    card: 'Kartica',
    wireTransfer: 'Prenos na račun',
    check: 'Ček',
    voucher: 'Vaučer',
    mobileMoney: 'Instant plaćanje',
    virman: 'Virman',
    mobile: 'Mobilno plaćanje',
    factoring: 'Faktoring',
    account: 'Na račun',
    other: 'Drugo bezgotovinsko',
  },
  en: {
    cash: 'Cash',
    card: 'Card',
    wireTransfer: 'Wire transfer',
    check: 'Cheque',
    voucher: 'Voucher',
    mobileMoney: 'Instant payment',
    // A Serbian bank payment order (virman), not the Serbian word on an English screen.
    virman: 'Payment order',
    mobile: 'Mobile payment',
    factoring: 'Factoring',
    account: 'On account',
    other: 'Other non-cash',
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

/** The gateway's tax category names (`VAT`, `VAT-EXCL`, `STT`) as the Serbian tax law names them. */
const TAX_CATEGORY_NAMES: Record<Language, Record<string, string>> = {
  'sr-Cyrl': { VAT: 'ПДВ', 'VAT-EXCL': 'Без ПДВ-а', STT: 'Порез на промет' },
  'sr-Latn': { VAT: 'PDV', 'VAT-EXCL': 'Bez PDV-a', STT: 'Porez na promet' },
  en: { VAT: 'VAT', 'VAT-EXCL': 'VAT exempt', STT: 'Sales turnover tax' },
};

const pick = <K extends string>(names: Names<K>, lang: Language, value: string): string =>
  (names[lang] as Record<string, string>)[value] ?? value;

export const paymentName = (lang: Language, type: string): string => pick(PAYMENT_NAMES, lang, type);
export const invoiceTypeName = (lang: Language, type: string): string => pick(INVOICE_TYPE_NAMES, lang, type);
export const transactionTypeName = (lang: Language, type: string): string => pick(TRANSACTION_TYPE_NAMES, lang, type);
export const unitName = (lang: Language, unit: string): string => pick(UNIT_NAMES, lang, unit);
/** A tax category's name; one the gateway sent that is not known here is shown as sent. */
export const taxCategoryName = (lang: Language, name: string): string => TAX_CATEGORY_NAMES[lang][name] ?? name;

/** An invoice and transaction type pair (`normal/sale`) in words: „Промет — продаја“. */
export const receiptKindName = (lang: Language, invoiceType: string, transactionType: string): string =>
  `${invoiceTypeName(lang, invoiceType)} — ${transactionTypeName(lang, transactionType)}`;

/** The English words of the printer presets' names (resources/printers/presets.json); makers and models stay. */
const PRINTER_WORDS: Record<Language, readonly (readonly [RegExp, string])[]> = {
  'sr-Cyrl': [
    [/Generic ESC\/POS, Epson tables/, 'Општи ESC/POS, Epson табеле'],
    [/ and clones/, ' и слични'],
    [/ in ESC\/POS mode/, ' у ESC/POS режиму'],
    [/ built-in printer/, ' уграђени штампач'],
    [/(\d+) dots/, '$1 тачака'],
    [/raster/, 'растер'],
  ],
  'sr-Latn': [
    [/Generic ESC\/POS, Epson tables/, 'Opšti ESC/POS, Epson tabele'],
    [/ and clones/, ' i slični'],
    [/ in ESC\/POS mode/, ' u ESC/POS režimu'],
    [/ built-in printer/, ' ugrađeni štampač'],
    [/(\d+) dots/, '$1 tačaka'],
    [/raster/, 'raster'],
  ],
  en: [],
};

/** A printer preset's name in the UI language (`Star TSP600 in ESC/POS mode` -> `Star TSP600 у ESC/POS режиму`). */
export const printerProfileName = (lang: Language, name: string): string =>
  PRINTER_WORDS[lang].reduce((text, [from, to]) => text.replace(from, to), name);
