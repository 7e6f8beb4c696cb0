/** Barcode rules are typed in fields (issue 38): each field is checked on its own, as the till's contract does. */
import { describe, expect, it } from 'vitest';
import { checkRules } from './HubApp.tsx';

describe('barcode rules in fields', () => {
  it('sends the rules as the contract has them when every field is right', () => {
    expect(
      checkRules([
        { prefix: '27', kind: 'weight', code: '5', value: '5' },
        { prefix: ' 28 ', kind: 'price', code: '4', value: '6' },
      ]),
    ).toEqual({
      rules: [
        { prefix: '27', kind: 'weight', codeLength: 5 },
        { prefix: '28', kind: 'price', codeLength: 4 },
      ],
    });
  });

  it('names the field that is wrong, in its row: prefix out of 20–29 or taken twice, digits, their sum', () => {
    expect(
      checkRules([
        { prefix: '19', kind: 'price', code: '5', value: '5' },
        { prefix: '27', kind: 'weight', code: '0', value: 'x' },
        { prefix: '27', kind: 'price', code: '4', value: '5' },
      ]),
    ).toEqual({
      errors: {
        0: { prefix: 'errRulePrefix' },
        1: { code: 'errRuleDigits', value: 'errRuleDigits' },
        2: { prefix: 'twice', value: 'errRuleSum' },
      },
    });
  });
});
