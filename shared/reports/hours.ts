/** The hour of the day a report buckets an order in: the shop's clock (Europe/Belgrade unless told), 24 h. */
import { SHOP_TIME_ZONE } from '../i18n/time.ts';

const formats = new Map<string, Intl.DateTimeFormat>();

/** The hour (0–23) of `iso` in `timeZone`. */
export function shopHour(iso: string, timeZone: string = SHOP_TIME_ZONE): number {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' });
    formats.set(timeZone, f);
  }
  return Number(f.format(new Date(iso))) % 24;
}
