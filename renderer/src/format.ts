/** Display helpers for the counter. */
import type { Language } from '../../shared/domain.ts';
import { formatQuantity } from '../../shared/money.ts';
import type { ProductUnit } from '../../shared/contract/catalog.ts';

export { formatRsd } from '../../shared/money.ts';

/** BCP 47 locale for dates and times. */
export function locale(language: Language): string {
  return language === 'en' ? 'en-GB' : `${language}-RS`;
}

/** Quantity as shown on a line: pieces as whole numbers, weights and volumes with 3 decimals. */
export function formatLineQuantity(milli: number, unit: ProductUnit): string {
  if (unit === 'piece') return formatQuantity(milli);
  const whole = Math.floor(milli / 1000);
  return `${whole},${String(milli % 1000).padStart(3, '0')}`;
}

/** Whole minutes between two instants (never negative). */
export function minutesBetween(fromIso: string, now: number): number {
  return Math.max(0, Math.floor((now - Date.parse(fromIso)) / 60_000));
}
