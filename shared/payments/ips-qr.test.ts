import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  IPS_MAX_PARA,
  accountCheckDigitsOk,
  buildIpsQr,
  formatAccount,
  formatIpsAmount,
  model97Control,
  normalizeAccount,
  parseIpsAmount,
  parseIpsQr,
  type IpsQrFields,
} from './ips-qr.ts';
import { NBS_EXAMPLE, NBS_EXAMPLE_FIELDS, SHOP_EXAMPLE_FIELDS } from '../../test/support/ips-examples.ts';

describe('the account and its check digits', () => {
  it("accepts the NBS's example accounts and writes the short forms as 18 digits", () => {
    // nbs.rs/QRcode/info: 840-955845-10, 165-55-74 (no control shown there), 310-1234567891211-86.
    for (const typed of ['840-955845-10', '840 955845 10'])
      expect(normalizeAccount(typed), typed).toBe('840000000095584510');
    expect(normalizeAccount('310-1234567891211-86')).toBe('310123456789121186');
    expect(normalizeAccount(' 845000000040484987 ')).toBe('845000000040484987');
    for (const a of ['840000000095584510', '310123456789121186', '845000000040484987'])
      expect(accountCheckDigitsOk(a)).toBe(true);
    expect(formatAccount('840000000095584510')).toBe('840-0000000955845-10');
  });

  it('refuses a wrong control pair and shapes that are not an account', () => {
    expect(accountCheckDigitsOk('840000000095584511')).toBe(false);
    expect(accountCheckDigitsOk('160000000123456778')).toBe(false);
    expect(accountCheckDigitsOk('84000000009558451')).toBe(false);
    expect(normalizeAccount('840-95584510')).toBeNull();
    expect(normalizeAccount('84-955845-10')).toBeNull();
    expect(normalizeAccount('840-12345678901234-10')).toBeNull();
  });

  it('finds every single-digit typo (MOD 97-10 catches all of them)', () => {
    const good = '840000000095584510';
    for (let i = 0; i < 18; i++)
      for (let d = 0; d <= 9; d++) {
        const typo = `${good.slice(0, i)}${d}${good.slice(i + 1)}`;
        if (typo !== good) expect(accountCheckDigitsOk(typo)).toBe(false);
      }
  });
});

describe('amounts', () => {
  it('writes RSD, the dinars, a decimal comma and two para digits', () => {
    expect(formatIpsAmount(123456)).toBe('RSD1234,56');
    expect(formatIpsAmount(1)).toBe('RSD0,01');
    expect(formatIpsAmount(102500)).toBe('RSD1025,00');
    expect(formatIpsAmount(IPS_MAX_PARA)).toBe('RSD999999999999,99');
  });

  it("reads the standard's shortened forms and refuses the forbidden ones", () => {
    const read = { 'RSD1025,': 102500, 'RSD1025,5': 102550, 'RSD0,01': 1 };
    for (const [text, para] of Object.entries(read)) expect(parseIpsAmount(text), text).toBe(para);
    for (const text of ['RSD,01', 'RSD1.025,00', 'RSD1025', 'EUR10,00']) expect(parseIpsAmount(text), text).toBeNull();
  });

  it('round-trips every amount', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: IPS_MAX_PARA }), (p) => parseIpsAmount(formatIpsAmount(p)) === p));
  });
});

describe('the code', () => {
  it("parses the NBS's published example into its fields and builds it back byte for byte", () => {
    const r = parseIpsQr(NBS_EXAMPLE);
    expect(r).toEqual({ ok: true, fields: NBS_EXAMPLE_FIELDS });
    if (r.ok) expect(buildIpsQr(r.fields)).toBe(NBS_EXAMPLE);
  });

  it('model 97: the control pair of the NBS example checks', () => {
    expect(model97Control('3220000111111111000')).toBe('16');
  });

  it('builds a point-of-sale code in the standard order, optional tags left out', () => {
    const fields = SHOP_EXAMPLE_FIELDS;
    const text = buildIpsQr(fields);
    expect(text).toBe(
      `K:PT|V:01|C:1|R:840000000095584510|N:Продавница Код Мике|I:RSD1234,56|SF:221|RO:${fields.reference}`,
    );
    expect(parseIpsQr(text)).toEqual({ ok: true, fields });
  });

  it('never builds from bad fields', () => {
    const base: IpsQrFields = {
      kind: 'PT',
      account: '840000000095584510',
      name: 'Радња',
      amountPara: 100,
      paymentCode: '221',
    };
    expect(() => buildIpsQr({ ...base, account: '840000000095584511' })).toThrow(/ips_account_check/);
    expect(() => buildIpsQr({ ...base, name: 'A|B' })).toThrow(/ips_text/);
    expect(() => buildIpsQr({ ...base, name: 'x'.repeat(71) })).toThrow(/too_long/);
    expect(() => buildIpsQr({ ...base, amountPara: 0 })).toThrow(/positive/);
    expect(() => buildIpsQr({ ...base, reference: '9700123' })).toThrow(/ips_reference/);
  });

  it('refuses malformed texts, naming the tag', () => {
    const good = 'K:PT|V:01|C:1|R:840000000095584510|N:Радња|I:RSD1,00|SF:221';
    expect(parseIpsQr(good).ok).toBe(true);
    const err = (t: string) => {
      const r = parseIpsQr(t);
      return r.ok ? null : r.error;
    };
    expect(err(`|${good}`)).toEqual({ tag: 'text', reason: 'delimiter' });
    expect(err(`${good}|`)).toEqual({ tag: 'text', reason: 'delimiter' });
    expect(err(`${good}|S:`)).toEqual({ tag: 'S', reason: 'required' });
    expect(err(good.replace('K:PT|V:01', 'V:01|K:PT'))).toEqual({ tag: 'K', reason: 'first' });
    expect(err(good.replace('|SF:221', ''))).toEqual({ tag: 'SF', reason: 'missing' });
    expect(err(good.replace('V:01', 'V:02'))).toEqual({ tag: 'V', reason: 'invalid' });
    expect(err(good.replace('R:840000000095584510', 'R:840000000095584511'))).toEqual({
      tag: 'R',
      reason: 'ips_account_check',
    });
    expect(err(good.replace('I:RSD1,00', 'I:RSD,01'))).toEqual({ tag: 'I', reason: 'invalid' });
    expect(err(`${good}|RP:1234567826332000001`)).toEqual({ tag: 'RP', reason: 'unknown_tag' });
    expect(err(`${good}|SF:221`)).toEqual({ tag: 'SF', reason: 'repeated' });
    expect(err(good.replace('K:PT', 'K:XX'))).toEqual({ tag: 'K', reason: 'invalid' });
  });
});
