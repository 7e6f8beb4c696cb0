/** The report screens' words (the till's Менаџер tab and the hub), in the three UI languages. */
import type { Language } from '../../../shared/domain.ts';
import { interpolate } from '../../../shared/i18n/catalog.ts';

const SR_CYRL = {
  overview: 'Промет',
  current: 'Овај период',
  previous: 'Претходни период',
  change: 'Разлика',
  sales: 'Продаје',
  advances: 'Аванси',
  refunds: 'Рефундације',
  gross: 'Укупно са ПДВ (бруто)',
  tax: 'ПДВ',
  net: 'Без ПДВ (нето)',
  receipts: 'Број рачуна',
  by_hour: 'Промет по сату',
  by_payment: 'Промет по начину плаћања',
  by_label: 'Промет по пореској ознаци',
  by_cashier: 'Промет по касиру',
  by_till: 'Промет по каси',
  by_shop: 'Промет по продавници',
  no_cashier: 'без касира',
  dinars: 'дин.',
  period: '{from} – {to}',
  previous_period: 'Претходни период: {from} – {to}',
  empty: 'Нема промета у овом периоду.',
  receipts_csv: 'Рачуни (CSV)',
  shift: 'Тренутна смена',
  no_shift: 'Смена није отворена.',
};
type Key = keyof typeof SR_CYRL;

const SR_LATN: Record<Key, string> = {
  overview: 'Promet',
  current: 'Ovaj period',
  previous: 'Prethodni period',
  change: 'Razlika',
  sales: 'Prodaje',
  advances: 'Avansi',
  refunds: 'Refundacije',
  gross: 'Ukupno sa PDV (bruto)',
  tax: 'PDV',
  net: 'Bez PDV (neto)',
  receipts: 'Broj računa',
  by_hour: 'Promet po satu',
  by_payment: 'Promet po načinu plaćanja',
  by_label: 'Promet po poreskoj oznaci',
  by_cashier: 'Promet po kasiru',
  by_till: 'Promet po kasi',
  by_shop: 'Promet po prodavnici',
  no_cashier: 'bez kasira',
  dinars: 'din.',
  period: '{from} – {to}',
  previous_period: 'Prethodni period: {from} – {to}',
  empty: 'Nema prometa u ovom periodu.',
  receipts_csv: 'Računi (CSV)',
  shift: 'Trenutna smena',
  no_shift: 'Smena nije otvorena.',
};

const EN: Record<Key, string> = {
  overview: 'Turnover',
  current: 'This period',
  previous: 'Previous period',
  change: 'Change',
  sales: 'Sales',
  advances: 'Advances',
  refunds: 'Refunds',
  gross: 'Total with VAT (gross)',
  tax: 'VAT',
  net: 'Without VAT (net)',
  receipts: 'Receipts',
  by_hour: 'Turnover by hour',
  by_payment: 'Turnover by payment type',
  by_label: 'Turnover by tax label',
  by_cashier: 'Turnover by cashier',
  by_till: 'Turnover by till',
  by_shop: 'Turnover by shop',
  no_cashier: 'no cashier',
  dinars: 'RSD',
  period: '{from} – {to}',
  previous_period: 'Previous period: {from} – {to}',
  empty: 'No turnover in this period.',
  receipts_csv: 'Receipts (CSV)',
  shift: 'Current shift',
  no_shift: 'No shift is open.',
};

export const REPORT_WORDS: Record<Language, Record<Key, string>> = { 'sr-Cyrl': SR_CYRL, 'sr-Latn': SR_LATN, en: EN };
export type ReportWord = Key;
export type ReportT = (key: Key, params?: Record<string, string | number>) => string;

export function reportT(lang: Language): ReportT {
  return (key, params) => interpolate(REPORT_WORDS[lang][key], params);
}
