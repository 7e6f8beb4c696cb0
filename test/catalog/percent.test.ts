/** The bulk price change's percentage field: what a person types, read into hundredths of a percent. */
import { describe, expect, it } from 'vitest';
import { formatPercent, parsePercentInput } from '../../shared/catalog/percent.ts';

describe('percent input', () => {
  it('reads a Serbian decimal comma, a point, signs and a percent sign', () => {
    expect(parsePercentInput('5')).toBe(500);
    expect(parsePercentInput('+5')).toBe(500);
    expect(parsePercentInput(' 5 % ')).toBe(500);
    expect(parsePercentInput('-2,5')).toBe(-250);
    expect(parsePercentInput('\u221212,25')).toBe(-1225);
    expect(parsePercentInput('7.05')).toBe(705);
  });
  it('refuses letters, empty text, three decimals and two marks', () => {
    for (const bad of ['', '5a', 'пет', '5,555', '1,2,3', '--5', '%', '5,'])
      expect(parsePercentInput(bad), bad).toBeNull();
  });
  it('formats for the screen with the sign and the language mark', () => {
    expect(formatPercent(500)).toBe('+5');
    expect(formatPercent(-1250)).toBe('\u221212,5');
    expect(formatPercent(705, '.')).toBe('+7.05');
  });
});
