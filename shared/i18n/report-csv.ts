/**
 * The words of the report CSVs (the till's and the hub's) in the UI language: column headers, section and key
 * names, payment types. English keeps the CSV's original machine names (`section,key,count,amount_rsd,…`,
 * `payment,cash`), which API users and scripts read; Serbian files are for the shop's people and accountant.
 */
import type { Language } from '../domain.ts';
import { paymentName } from './enums.ts';

type Words = Readonly<Record<string, string>>;

const SR_CYRL: Words = {
  scope: 'Обухват',
  section: 'Одељак',
  key: 'Ставка',
  count: 'Број',
  amount_rsd: 'Износ (RSD)',
  tax_rsd: 'Порез (RSD)',
  opened: 'Отворена',
  closed: 'Затворена',
  closed_by: 'Затворио',
  float_rsd: 'Почетни депозит (RSD)',
  cash_sales_rsd: 'Готовина од продаје (RSD)',
  cash_in_rsd: 'Уплате у касу (RSD)',
  cash_out_rsd: 'Исплате из касе (RSD)',
  expected_rsd: 'Очекивано (RSD)',
  counted_rsd: 'Избројано (RSD)',
  difference_rsd: 'Разлика (RSD)',
  period: 'Период',
  sales: 'Продаје',
  advances: 'Аванси',
  refunds: 'Рефундације',
  payment: 'Плаћање',
  label: 'Пореска ознака',
  not_fiscalized: 'Нефискализовано',
  training_excluded: 'Обука (није урачуната)',
  tax: 'Порез',
  tax_group_changed: 'Промењена пореска група',
  total: 'укупно',
  orders: 'поруџбине',
  shift: 'Смена',
  shop: 'продавница',
  till: 'каса',
  cashier: 'касир',
  gross: 'Бруто (са ПДВ)',
  net: 'Нето (без ПДВ)',
  hour: 'Сат',
  processor: 'Обрађивач',
};

const SR_LATN: Words = {
  scope: 'Obuhvat',
  section: 'Odeljak',
  key: 'Stavka',
  count: 'Broj',
  amount_rsd: 'Iznos (RSD)',
  tax_rsd: 'Porez (RSD)',
  opened: 'Otvorena',
  closed: 'Zatvorena',
  closed_by: 'Zatvorio',
  float_rsd: 'Početni depozit (RSD)',
  cash_sales_rsd: 'Gotovina od prodaje (RSD)',
  cash_in_rsd: 'Uplate u kasu (RSD)',
  cash_out_rsd: 'Isplate iz kase (RSD)',
  expected_rsd: 'Očekivano (RSD)',
  counted_rsd: 'Izbrojano (RSD)',
  difference_rsd: 'Razlika (RSD)',
  period: 'Period',
  sales: 'Prodaje',
  advances: 'Avansi',
  refunds: 'Refundacije',
  payment: 'Plaćanje',
  label: 'Poreska oznaka',
  not_fiscalized: 'Nefiskalizovano',
  training_excluded: 'Obuka (nije uračunata)',
  tax: 'Porez',
  tax_group_changed: 'Promenjena poreska grupa',
  total: 'ukupno',
  orders: 'porudžbine',
  shift: 'Smena',
  shop: 'prodavnica',
  till: 'kasa',
  cashier: 'kasir',
  gross: 'Bruto (sa PDV)',
  net: 'Neto (bez PDV)',
  hour: 'Sat',
  processor: 'Obrađivač',
};

/** The CSV's words for `lang`: `word('sales')`, `payment('cash')`; English returns the machine names. */
export function reportCsvWords(lang: Language): { word: (name: string) => string; payment: (type: string) => string } {
  if (lang === 'en') return { word: (name) => name, payment: (type) => type };
  const words = lang === 'sr-Latn' ? SR_LATN : SR_CYRL;
  return { word: (name) => words[name] ?? name, payment: (type) => paymentName(lang, type) };
}
