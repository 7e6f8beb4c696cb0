import { wallClock } from '../i18n/time.ts';

/**
 * A time as a spreadsheet reads it, in the shop's local time: `2026-11-26 08:05` in `timeZone` (an IANA name,
 * the hub's own zone when absent). The shop's clock, not UTC: a manager compares it with the till's slip.
 */
export function csvLocalTime(iso: string, timeZone?: string): string {
  const c = wallClock(new Date(iso), timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  return `${c.year}-${c.month}-${c.day} ${c.hour}:${c.minute}`;
}
