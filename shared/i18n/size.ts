/** A file's size as people read it („1,2 MB“, „350 KB“): decimal comma in Serbian, binary units of 1024. */
import type { Language } from '../domain.ts';
import { LOCALE } from './time.ts';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

export function formatSize(bytes: number, lang: Language): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  const n = new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: digits, useGrouping: false }).format(value);
  return `${n} ${UNITS[unit]}`;
}
