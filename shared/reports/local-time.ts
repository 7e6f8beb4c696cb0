/**
 * A time as a spreadsheet reads it, in the shop's local time: `2026-11-26 08:05` in `timeZone` (an IANA name,
 * the hub's own zone when absent). The shop's clock, not UTC: a manager compares it with the till's slip.
 */
export function csvLocalTime(iso: string, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}
