import { describe, expect, it } from 'vitest';
import {
  BUYER_ID_CODES,
  buyerIdText,
  buyerIdProblem,
  buyerIdentifierError,
  isValidBuyerId,
  isValidJmbg,
  isValidPib,
  isValidPibJbkjs,
  sellerBuyerId,
} from './buyer-id.ts';

describe('buyer IDs', () => {
  it.each([
    ['101134702', true],
    ['123456788', true],
    ['123456789', false],
    ['12345678', false],
  ])('checks the PIB check digit (ISO 7064 MOD 11,10): %s is valid: %s', (pib, valid) => {
    expect(isValidPib(pib)).toBe(valid);
  });

  it('catches every single-digit change of a valid PIB', () => {
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
    expect(isValidBuyerId('20:AB12345')).toBe(false); // an ID card number is 9 digits
    expect(isValidBuyerId('20:008123456')).toBe(true);
    expect(isValidBuyerId('09:x')).toBe(false);
    expect(isValidBuyerId('101134702')).toBe(false);
  });

  it('knows exactly the Tax Administration list of codes', () => {
    expect(BUYER_ID_CODES).toEqual([
      '10',
      '11',
      '12',
      '13',
      '14',
      '15',
      '16',
      '20',
      '21',
      '22',
      '23',
      '30',
      '31',
      '32',
      '33',
      '34',
      '35',
      '40',
    ]);
    for (const code of ['00', '17', '19', '24', '29', '36', '39', '41', '50', '99'])
      expect(buyerIdProblem(`${code}:123456789`)).toBe('buyer_id_type');
  });

  it('refuses what is not code:identifier', () => {
    for (const v of ['', '10', '1:101134702', '101:101134702', ' 10:101134702', 'AB:123'])
      expect(buyerIdProblem(v)).toBe('buyer_id');
  });

  it.each([
    ['10', 'pib', '101134702', ['101134703', '10113470', '1011347020', 'A01134702']],
    ['14', 'pib', '101134702', ['101134703']],
    ['11', 'jmbg', '0101990710008', ['0101990710006', '010199071000', 'ABCDEFGHIJKLM']],
    ['15', 'jmbg', '0101990710008', ['0101990710006']],
    [
      '12',
      'pib_jbkjs',
      '101134702:12345',
      ['101134702', '101134702:', '101134702:1234', '101134702:123456', '101134703:12345', '12345:101134702'],
    ],
    ['16', 'digits12', '123456789012', ['12345678901', '1234567890123', '12345678901A']],
    ['20', 'digits9', '008123456', ['abc', 'ABC123456', '00812345', '0081234567']],
    ['23', 'digits9', '012345678', ['01234567', 'P01234567']],
    ['22', 'digits13', '1234567890123', ['123456789012', 'ABCDEFGHIJKLM']],
    ['13', 'document', '12345', ['ABCDE', 'abc12', '12-45', '123456789012345678']],
    ['21', 'document', 'IL123456', ['IL-123']],
    ['30', 'document', 'C01X00T47', ['passport', 'C01 X00']],
    ['31', 'document', 'D1234', ['D']],
    ['32', 'document', 'A1234567', ['a1234567']],
    ['33', 'document', '123456789', ['']],
    ['34', 'document', 'J12345678A', ['J1234567/A']],
    ['35', 'document', '12E3456', ['12E.3456']],
    ['40', 'foreign_tin', 'DE-123456789', ['-123', 'DE', 'de123456789', 'DE_123']],
  ])('code %s follows rule %s', (code, rule, good, bad) => {
    expect(buyerIdProblem(`${code}:${good}`)).toBeNull();
    for (const b of bad) expect(buyerIdProblem(`${code}:${b}`), `${code}:${b}`).toBe(`buyer_id_${rule}`);
  });

  it('keeps the whole buyer ID within 20 characters', () => {
    expect(isValidBuyerId('40:ABCDEFGH123456789')).toBe(true); // 20 characters
    expect(isValidBuyerId('40:ABCDEFGH1234567890')).toBe(false); // 21 characters
    expect(isValidBuyerId('40:ABCDEFGH1234567')).toBe(true);
  });

  it('checks the PIB inside PIB:JBKJS', () => {
    expect(isValidPibJbkjs('123456788:00001')).toBe(true);
    expect(isValidPibJbkjs('123456789:00001')).toBe(false);
  });

  it('says what is wrong in the three languages, and gives the seller PIB as 10:', () => {
    expect(buyerIdentifierError('20', 'abc', 'sr-Cyrl')).toBe('Број документа има тачно 9 цифара.');
    expect(buyerIdentifierError('20', 'abc', 'sr-Latn')).toBe('Broj dokumenta ima tačno 9 cifara.');
    expect(buyerIdentifierError('20', 'abc', 'en')).toBe('The document number has exactly 9 digits.');
    expect(buyerIdentifierError('20', '008123456', 'en')).toBeNull();
    expect(sellerBuyerId('101134702')).toBe('10:101134702');
    expect(sellerBuyerId('12345678')).toBeUndefined();
    expect(sellerBuyerId(undefined)).toBeUndefined();
  });

  it('reads a buyer ID to a person without the gateway type code', () => {
    const texts = [
      ['10:101134702', 'sr-Cyrl', 'ПИБ 101134702'],
      ['10:101134702', 'en', 'PIB 101134702'],
      ['12:101134702:12345', 'sr-Cyrl', 'ПИБ 101134702, ЈБКЈС 12345'],
      ['12:101134702:12345', 'sr-Latn', 'PIB 101134702, JBKJS 12345'],
      ['30:P1234567', 'sr-Cyrl', 'број пасоша (страни држављанин) P1234567'],
      ['no code', 'en', 'no code'],
    ] as const;
    for (const [value, lang, text] of texts) expect(buyerIdText(value, lang), `${value} ${lang}`).toBe(text);
  });
});
