/**
 * The shop's days as the specs use them. A spec asks for the day of what it made (a sale, a shift), never for
 * "today": a run across the shop's midnight (Europe/Belgrade, 23:00 UTC in winter) still finds it. A field that
 * opens on today is checked against the shop's day, never the machine's (CI's machine is on UTC), either side of a
 * midnight that fell while the screen opened.
 */
import type { Language } from '../../shared/domain.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { formatDay } from '../../renderer/src/dates.ts';

/** The shop's day (`2026-11-26`) of a moment: an ISO time from a record, or a Date. */
export function shopDay(at: string | Date): string {
  return dayIn(typeof at === 'string' ? new Date(at) : at);
}

/** A day as the date field writes it in `lang` (`26.11.2026.` in Serbian). */
export function fieldDay(day: string, lang: Language = 'sr-Cyrl'): string {
  return formatDay(day, lang);
}

/**
 * What a date field that opens on today shows: the shop's day `before` (taken before the screen opened) or the
 * shop's day now, as the field writes it in `lang`.
 */
export function todayInField(before: string, lang: Language = 'sr-Cyrl'): RegExp {
  const days = [...new Set([before, shopDay(new Date())])].map((d) => fieldDay(d, lang).replace(/[./]/g, '\\$&'));
  return new RegExp(`^(?:${days.join('|')})$`);
}
