/**
 * How a report CSV is written for the person who opens it. Serbian (Cyrillic and Latin): for a spreadsheet set
 * to Serbian, where the comma is the decimal sign — cells separated by `;`, amounts with the decimal comma
 * (`1234,50`, read as numbers), times and periods as the shop writes them (`26.11.2026. 08:05`, read as text),
 * on the shop's clock. English: the machine format scripts and API users read (`,`, `1234.50`,
 * `2026-11-26 08:05`, periods as `from..to` in ISO).
 */
import type { Language } from '../domain.ts';
import { paraToDecimal } from '../money.ts';
import { SHOP_TIME_ZONE, formatMoment } from '../i18n/time.ts';
import { csvLocalTime } from './local-time.ts';

export interface CsvDialect {
  /** The cell separator. */
  sep: string;
  /** An amount in para as a cell. */
  amount(para: number): string;
  /** A moment on the shop's clock (`timeZone`, Belgrade unless told). */
  moment(iso: string, timeZone?: string): string;
  /** A report's period [from, to). */
  period(fromIso: string, toIso: string, timeZone?: string): string;
}

export function csvDialect(lang: Language): CsvDialect {
  if (lang === 'en')
    return {
      sep: ',',
      amount: (para) => paraToDecimal(para).toFixed(2),
      moment: (iso, timeZone) => csvLocalTime(iso, timeZone ?? SHOP_TIME_ZONE),
      period: (from, to) => `${from}..${to}`,
    };
  const moment = (iso: string, timeZone?: string): string =>
    formatMoment(iso, lang, { timeZone: timeZone ?? SHOP_TIME_ZONE });
  return {
    sep: ';',
    amount: (para) => paraToDecimal(para).toFixed(2).replace('.', ','),
    moment,
    period: (from, to, timeZone) => `${moment(from, timeZone)} – ${moment(to, timeZone)}`,
  };
}
