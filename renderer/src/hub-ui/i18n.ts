/**
 * The hub manager UI's words, in the three languages of the app (Serbian Cyrillic by default): a catalog in
 * the app's one message format (shared/i18n/catalog.ts says how to add a message), read with i18next's
 * `useTranslation` like the till's screens. The hub server's own (English) error texts could live in a
 * catalog of this shape too; they are not localized yet.
 */
import type { i18n } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../../shared/domain.ts';
import type { Catalog, Shape } from '../../../shared/i18n/catalog.ts';
import { createCatalogI18n, type Translate } from '../i18n/format.ts';

export type HubLang = Language;

const SR_CYRL = {
  title: 'Хаб продавнице',
  language: 'Језик',
  pin: 'PIN менаџера',
  login: 'Пријава',
  logout: 'Одјава',
  sections: 'Одељци',
  tills: 'Касе',
  catalog: 'Артикли',
  report: 'Извештај',
  till: 'Каса',
  online: 'На вези',
  yes: 'да',
  no: 'не',
  queued: 'У реду',
  needsAttention: 'Потребна пажња',
  oldest: 'Најстарија нефискализована',
  lastSeen: 'Последњи пут виђена',
  alarms: 'Аларми',
  alarm: 'Аларм: {names}',
  alarm_silent: 'нема везе',
  alarm_needs_attention: 'продаје чекају менаџера',
  alarm_old_unfiscalized: 'стара нефискализована продаја',
  alarm_gap: 'недостаје историја',
  newCode: 'Нови код за упис касе',
  enrolCode: 'Код за упис',
  code: 'Шифра',
  name: 'Назив',
  price: 'Цена (RSD)',
  label: 'Пореска ознака',
  unit: 'Јединица',
  barcode: 'Бар-код',
  save: 'Сачувај артикал',
  saved: 'Сачувано: {name}',
  from: 'Од',
  to: 'До',
  show: 'Прикажи',
  csv: 'Преузми CSV',
  sales: 'Продаје',
  refunds: 'Рефундације',
  cashier: 'Касир',
  payment: 'Начин плаћања',
  net: 'Нето',
  tax: 'ПДВ',
  count: 'Број',
  none: 'Нема података.',
  badPrice: 'Цена у пољу „{field}“ мора бити износ у динарима (нпр. 159,90).',
  settings: 'Подешавања',
  discountLimit: 'Граница попуста без менаџера (%)',
  barcodeRules: 'Правила бар-кодова (префикс:цена|тежина:цифре шифре, зарезом)',
  saveSettings: 'Сачувај подешавања',
  settingsSaved: 'Подешавања сачувана; касе их преузимају за секунд.',
  badSettings: 'Неисправна вредност у пољу „{field}“.',
} as const;

export type HubKey = keyof typeof SR_CYRL;

const SR_LATN: Shape<typeof SR_CYRL> = {
  title: 'Hab prodavnice',
  language: 'Jezik',
  pin: 'PIN menadžera',
  login: 'Prijava',
  logout: 'Odjava',
  sections: 'Odeljci',
  tills: 'Kase',
  catalog: 'Artikli',
  report: 'Izveštaj',
  till: 'Kasa',
  online: 'Na vezi',
  yes: 'da',
  no: 'ne',
  queued: 'U redu',
  needsAttention: 'Potrebna pažnja',
  oldest: 'Najstarija nefiskalizovana',
  lastSeen: 'Poslednji put viđena',
  alarms: 'Alarmi',
  alarm: 'Alarm: {names}',
  alarm_silent: 'nema veze',
  alarm_needs_attention: 'prodaje čekaju menadžera',
  alarm_old_unfiscalized: 'stara nefiskalizovana prodaja',
  alarm_gap: 'nedostaje istorija',
  newCode: 'Novi kod za upis kase',
  enrolCode: 'Kod za upis',
  code: 'Šifra',
  name: 'Naziv',
  price: 'Cena (RSD)',
  label: 'Poreska oznaka',
  unit: 'Jedinica',
  barcode: 'Bar-kod',
  save: 'Sačuvaj artikal',
  saved: 'Sačuvano: {name}',
  from: 'Od',
  to: 'Do',
  show: 'Prikaži',
  csv: 'Preuzmi CSV',
  sales: 'Prodaje',
  refunds: 'Refundacije',
  cashier: 'Kasir',
  payment: 'Način plaćanja',
  net: 'Neto',
  tax: 'PDV',
  count: 'Broj',
  none: 'Nema podataka.',
  badPrice: 'Cena u polju „{field}“ mora biti iznos u dinarima (npr. 159,90).',
  settings: 'Podešavanja',
  discountLimit: 'Granica popusta bez menadžera (%)',
  barcodeRules: 'Pravila bar-kodova (prefiks:cena|težina:cifre šifre, zarezom)',
  saveSettings: 'Sačuvaj podešavanja',
  settingsSaved: 'Podešavanja sačuvana; kase ih preuzimaju za sekund.',
  badSettings: 'Neispravna vrednost u polju „{field}“.',
};

const EN: Shape<typeof SR_CYRL> = {
  title: 'Store hub',
  language: 'Language',
  pin: 'Manager PIN',
  login: 'Log in',
  logout: 'Log out',
  sections: 'Sections',
  tills: 'Tills',
  catalog: 'Products',
  report: 'Report',
  till: 'Till',
  online: 'Online',
  yes: 'yes',
  no: 'no',
  queued: 'Queued',
  needsAttention: 'Needs attention',
  oldest: 'Oldest unfiscalized',
  lastSeen: 'Last seen',
  alarms: 'Alarms',
  alarm: 'Alarm: {names}',
  alarm_silent: 'not connected',
  alarm_needs_attention: 'sales wait for a manager',
  alarm_old_unfiscalized: 'an old unfiscalized sale',
  alarm_gap: 'history missing',
  newCode: 'New till enrolment code',
  enrolCode: 'Enrolment code',
  code: 'Code',
  name: 'Name',
  price: 'Price (RSD)',
  label: 'Tax label',
  unit: 'Unit',
  barcode: 'Barcode',
  save: 'Save product',
  saved: 'Saved: {name}',
  from: 'From',
  to: 'To',
  show: 'Show',
  csv: 'Download CSV',
  sales: 'Sales',
  refunds: 'Refunds',
  cashier: 'Cashier',
  payment: 'Payment type',
  net: 'Net',
  tax: 'VAT',
  count: 'Count',
  none: 'No data.',
  badPrice: 'The price in "{field}" must be an amount in dinars (e.g. 159.90).',
  settings: 'Settings',
  discountLimit: 'Discount limit without a manager (%)',
  barcodeRules: 'Barcode rules (prefix:price|weight:code digits, comma-separated)',
  saveSettings: 'Save settings',
  settingsSaved: 'Settings saved; the tills take them within a second.',
  badSettings: 'Invalid value in "{field}".',
};

/** The hub UI's texts per language (the `hub` namespace of its i18next instance). */
export const hubMessages: Catalog<typeof SR_CYRL> = { 'sr-Cyrl': SR_CYRL, 'sr-Latn': SR_LATN, en: EN };

/** The hub UI's `t`, narrowed to its keys. */
export type HubT = Translate<HubKey>;

let instance: i18n | null = null;

/** `useTranslation('hub')` in `lang`, on the hub page's own i18next instance (made on first use). */
export function useHubT(lang: HubLang): HubT {
  instance ??= createCatalogI18n(lang, { hub: hubMessages });
  const { t } = useTranslation('hub', { lng: lang, i18n: instance });
  return useCallback<HubT>((key, params) => t(key, { ...params }), [t]);
}
