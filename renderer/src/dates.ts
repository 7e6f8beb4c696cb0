/**
 * A calendar day as the manager types and reads it: `26.11.2026.` in Serbian (Cyrillic and Latin), `26/11/2026`
 * in English (day first, as the shop's receipts); the screens keep the day as `2026-11-26` (the shop's day,
 * Europe/Belgrade). Typing is forgiving about separators and leading zeros, strict about the day being real.
 */
import type { Language } from '../../shared/domain.ts';
import { dayIn } from '../../shared/i18n/time.ts';

const two = (n: number): string => String(n).padStart(2, '0');

/** The ISO day (`2026-11-26`) it is at `d` in the shop's time zone, not the machine's. */
export function isoDay(d: Date): string {
  return dayIn(d);
}

/** Year, month and day of an ISO day; null when it is not one or not a real day. */
function parts(iso: string): [number, number, number] | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return real(y, mo, d) ? [y, mo, d] : null;
}

function real(y: number, mo: number, d: number): boolean {
  if (y < 1900 || y > 9999 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/** An ISO day as the language writes it: `26.11.2026.` (sr), `26/11/2026` (en); '' for anything else. */
export function formatDay(iso: string, lang: Language): string {
  const p = parts(iso);
  if (!p) return '';
  const [y, mo, d] = p;
  return lang === 'en' ? `${two(d)}/${two(mo)}/${y}` : `${two(d)}.${two(mo)}.${y}.`;
}

/**
 * A typed day as an ISO day, or null when it is not a real day. Day, month and a four-digit year in that
 * order, separated by `.`, `/` or `-` (spaces allowed, a closing dot too: `1. 2. 2026.`); `2026-11-26` also.
 */
export function parseDay(text: string): string | null {
  const s = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  const dmy = /^(\d{1,2})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{4})\s*\.?$/.exec(s);
  const [y, mo, d] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : dmy
      ? [Number(dmy[3]), Number(dmy[2]), Number(dmy[1])]
      : [0, 0, 0];
  return real(y, mo, d) ? `${y}-${two(mo)}-${two(d)}` : null;
}

/** The ISO day `days` after (before, when negative) `iso`. */
export function addDays(iso: string, days: number): string {
  const p = parts(iso);
  if (!p) throw new Error(`not a day: ${iso}`);
  const t = new Date(Date.UTC(p[0], p[1] - 1, p[2] + days));
  return `${t.getUTCFullYear()}-${two(t.getUTCMonth() + 1)}-${two(t.getUTCDate())}`;
}
