/**
 * Text printed the same on every Serbian fiscal document Kasa makes: the sandbox's fiscal journal and the
 * non-fiscal refund slip (electron/printer/refund-slip.ts). One table, one date format, so the slip never
 * names a payment or a time differently from the receipt it belongs to.
 */

import { wallClock } from './i18n/time.ts';
import { PAYMENT_NAMES } from './i18n/enums.ts';

/** Payment types as the Tax Administration names them on receipts: the one table's Serbian Cyrillic names. */
export const PAYMENT_TYPE_NAMES: Readonly<Record<string, string>> = PAYMENT_NAMES['sr-Cyrl'];

/** Belgrade local time as on Serbian receipts: `22.11.2024. 10:11:12`. */
export function formatReceiptDateTime(date: Date): string {
  const c = wallClock(date);
  return `${c.day}.${c.month}.${c.year}. ${c.hour}:${c.minute}:${c.second}`;
}
