/**
 * Moments as people read them: in the UI's language, the shop's time zone (Europe/Belgrade unless told) and a
 * 24-hour clock — `25.11.2026. 00:04` in Serbian, `25/11/2026, 00:04` in English. Never ISO on a screen.
 */
import type { Language } from '../domain.ts';

export const SHOP_TIME_ZONE = 'Europe/Belgrade';

export const LOCALE: Record<Language, string> = { 'sr-Cyrl': 'sr-Cyrl-RS', 'sr-Latn': 'sr-Latn-RS', en: 'en-GB' };

export interface MomentOptions {
  /** Only the time of day (`00:04`), for a moment of today. */
  timeOnly?: boolean;
  /** With seconds (`00:04:09`). */
  seconds?: boolean;
  timeZone?: string;
}

/** A moment (ISO text, epoch milliseconds or Date) as the language writes it; '' for what is not a moment. */
export function formatMoment(at: string | number | Date, lang: Language, options: MomentOptions = {}): string {
  const d = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(LOCALE[lang], {
    timeZone: options.timeZone ?? SHOP_TIME_ZONE,
    ...(options.timeOnly ? {} : { year: 'numeric', month: '2-digit', day: '2-digit' }),
    hour: '2-digit',
    minute: '2-digit',
    ...(options.seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
  }).format(d);
}

/** An ISO timestamp (`2026-11-24T23:04:09.809Z`): what a message must not show as it is. */
export const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A moment's wall-clock fields in the shop's zone, two digits each (the year four): for fixed formats. */
export interface WallClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `date` in `timeZone` (Belgrade unless told), one cached formatter per zone. */
export function wallClock(date: Date, timeZone: string = SHOP_TIME_ZONE): WallClock {
  let fmt = wallClockFormats.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    wallClockFormats.set(timeZone, fmt);
  }
  const out: WallClock = { year: '', month: '', day: '', hour: '', minute: '', second: '' };
  for (const p of fmt.formatToParts(date)) if (p.type in out) out[p.type as keyof WallClock] = p.value;
  return out;
}

/** The ISO day (`2026-11-26`) it is at `date` in `timeZone` (Belgrade unless told). */
export function dayIn(date: Date, timeZone: string = SHOP_TIME_ZONE): string {
  const c = wallClock(date, timeZone);
  return `${c.year}-${c.month}-${c.day}`;
}

/**
 * A report file's name by its own days in the shop's time zone: `2026-11-26` for one day, `2026-11-20_2026-11-26`
 * for more (`to` is the end, exclusive). The till's CSVs (`presek-…`, `racuni-…`) and the hub's are named so.
 */
export function periodName(fromIso: string, toIso: string, timeZone: string = SHOP_TIME_ZONE): string {
  const first = dayIn(new Date(fromIso), timeZone);
  const last = dayIn(new Date(Date.parse(toIso) - 1), timeZone);
  return last > first ? `${first}_${last}` : first;
}

/**
 * The instant (epoch ms) the ISO day `isoDay` begins in `timeZone`: its midnight there, whatever the zone of the
 * machine asking (a hub UI opened from elsewhere, a test browser in UTC). Days start at midnight in Serbia on
 * both sides of a daylight-saving change (the change is at 02:00 and 03:00).
 */
export function dayStart(isoDay: string, timeZone: string = SHOP_TIME_ZONE): number {
  const [y, m, d] = isoDay.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const offsetAt = (t: number): number => {
    const c = wallClock(new Date(t), timeZone);
    return Date.UTC(+c.year, +c.month - 1, +c.day, +c.hour, +c.minute, +c.second) - Math.floor(t / 1000) * 1000;
  };
  const first = guess - offsetAt(guess);
  return guess - offsetAt(first);
}
