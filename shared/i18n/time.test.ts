import { describe, expect, it } from 'vitest';
import { dayIn, dayStart } from './time.ts';

describe('days in the shop zone', () => {
  it('a day begins at midnight in Belgrade: 23:00 UTC in winter, 22:00 UTC in summer', () => {
    expect(new Date(dayStart('2026-11-26')).toISOString()).toBe('2026-11-25T23:00:00.000Z');
    expect(new Date(dayStart('2026-07-01')).toISOString()).toBe('2026-06-30T22:00:00.000Z');
  });
  it('on both daylight-saving days', () => {
    expect(new Date(dayStart('2026-03-29')).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(dayStart('2026-03-30')).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(new Date(dayStart('2026-10-25')).toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(new Date(dayStart('2026-10-26')).toISOString()).toBe('2026-10-25T23:00:00.000Z');
  });
  it("the day it is in Belgrade, not the machine's", () => {
    expect(dayIn(new Date('2026-11-25T23:30:00Z'))).toBe('2026-11-26');
    expect(dayIn(new Date('2026-11-25T22:59:59Z'))).toBe('2026-11-25');
    expect(dayIn(new Date('2026-11-25T23:30:00Z'), 'UTC')).toBe('2026-11-25');
  });
});
