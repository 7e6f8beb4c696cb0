import { describe, expect, it } from 'vitest';
import { addDays, formatDay, isoDay, parseDay } from './dates.ts';

describe('a day as the manager types and reads it', () => {
  it('is written day first in every language: with dots (and the closing dot) in Serbian, slashes in English', () => {
    for (const [iso, lang, text] of [
      ['2026-11-26', 'sr-Cyrl', '26.11.2026.'],
      ['2026-02-03', 'sr-Latn', '03.02.2026.'],
      ['2026-02-03', 'en', '03/02/2026'],
      ['2026-02-30', 'sr-Cyrl', ''],
      ['', 'en', ''],
    ] as const)
      expect(formatDay(iso, lang), `${iso} ${lang}`).toBe(text);
  });

  it('is read day first, forgiving separators, spaces, leading zeros and the closing dot', () => {
    for (const text of ['26.11.2026.', '26.11.2026', ' 26. 11. 2026. ', '26/11/2026', '26-11-2026', '2026-11-26'])
      expect(parseDay(text), text).toBe('2026-11-26');
    expect(parseDay('1.2.2026')).toBe('2026-02-01');
    expect(parseDay('29.02.2028.')).toBe('2028-02-29');
  });

  it('refuses what is not a real day, a month first, or a short year', () => {
    for (const text of [
      '',
      '26.11.',
      '26.11.26',
      '31.04.2026.',
      '29.02.2026.',
      '11/26/2026',
      '0.1.2026',
      'сутра',
      '26.11.2026..',
    ])
      expect(parseDay(text), text).toBeNull();
  });

  it('steps a day over the ends of months and years, and takes a local date', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    // The shop's day, not the machine's: 23:30 UTC on the 26th is already the 27th in Belgrade.
    expect(isoDay(new Date('2026-11-26T23:30:00Z'))).toBe('2026-11-27');
    expect(isoDay(new Date('2026-11-26T22:59:00Z'))).toBe('2026-11-26');
    expect(() => addDays('26.11.2026.', 1)).toThrow();
  });
});
