import { describe, expect, it } from 'vitest';
import { isValidBuyerId, isValidJmbg, isValidPib } from './buyer-id.ts';

describe('buyer IDs', () => {
  it('checks the PIB check digit (ISO 7064 MOD 11,10)', () => {
    expect(isValidPib('101134702')).toBe(true);
    expect(isValidPib('123456788')).toBe(true);
    expect(isValidPib('123456789')).toBe(false);
    expect(isValidPib('12345678')).toBe(false);
    // Every single-digit change of a valid PIB is caught.
    for (let i = 0; i < 9; i++) {
      const d = Number('101134702'[i]);
      const wrong = '101134702'.slice(0, i) + ((d + 1) % 10) + '101134702'.slice(i + 1);
      expect(isValidPib(wrong)).toBe(false);
    }
  });

  it('checks the JMBG control digit (modulo 11)', () => {
    expect(isValidJmbg('0101990710008')).toBe(true);
    expect(isValidJmbg('0101990710006')).toBe(false);
    expect(isValidJmbg('123')).toBe(false);
  });

  it('reads the gateway form type:identifier', () => {
    expect(isValidBuyerId('10:101134702')).toBe(true);
    expect(isValidBuyerId('11:0101990710008')).toBe(true);
    expect(isValidBuyerId('10:101134703')).toBe(false);
    expect(isValidBuyerId('20:AB12345')).toBe(true);
    expect(isValidBuyerId('09:x')).toBe(false);
    expect(isValidBuyerId('101134702')).toBe(false);
  });
});
