import { describe, expect, it } from 'vitest';
import { fieldLabel } from './fields.ts';
import { formatMoment } from './time.ts';
import { paymentName, printerProfileName, receiptKindName, taxCategoryName, unitName } from './enums.ts';
import { reportCsvWords } from './report-csv.ts';
import { PAYMENT_TYPES } from '../domain.ts';
import { message } from '../messages.ts';

describe('field labels', () => {
  it.each([
    ['sr-Cyrl', 'lines.1.quantity', 'Количина, ставка 2'],
    ['sr-Latn', 'newPin', 'Novi PIN'],
    ['en', 'approval.managerPin', 'Manager PIN'],
    ['sr-Cyrl', 'buyerId', 'ИД купца'],
    // A field the table does not know is still not named by its path.
    ['sr-Cyrl', 'someInternalThing', 'унос'],
  ] as const)('name a field by its label and the item, never by the contract path: %s %s', (lang, path, label) => {
    expect(fieldLabel(lang, path)).toBe(label);
  });
});

describe('moments', () => {
  it('are local to the shop (Europe/Belgrade), 24 h, in the language, never ISO', () => {
    const at = '2026-11-24T23:04:09.809Z';
    expect(formatMoment(at, 'sr-Cyrl', { seconds: true })).toBe('25.11.2026. 00:04:09');
    expect(formatMoment(at, 'en')).toBe('25/11/2026, 00:04');
    expect(formatMoment(at, 'sr-Latn', { timeOnly: true })).toBe('00:04');
  });

  it('a lockout message shows the local time, not the ISO text it was given', () => {
    expect(message('sr-Cyrl', 'pin_locked', { until: '2026-11-24T23:04:09.809Z' })).toBe(
      'Превише погрешних PIN-ова. Унос PIN-а је закључан до 25.11.2026. 00:04:09.',
    );
  });
});

describe('enum names', () => {
  it('every payment type has a name in every language, never its code', () => {
    for (const lang of ['sr-Cyrl', 'sr-Latn', 'en'] as const) {
      for (const type of PAYMENT_TYPES) {
        if (type !== 'virman') expect(paymentName(lang, type)).not.toBe(type);
      }
    }
    expect(paymentName('sr-Cyrl', 'mobileMoney')).toBe('Инстант плаћање');
  });

  it('invoice, transaction, unit, tax category and printer names', () => {
    expect(receiptKindName('sr-Cyrl', 'normal', 'sale')).toBe('Промет — продаја');
    expect(unitName('sr-Latn', 'piece')).toBe('kom');
    expect(taxCategoryName('sr-Cyrl', 'VAT')).toBe('ПДВ');
    expect(taxCategoryName('sr-Cyrl', 'VAT-EXCL')).toBe('Без ПДВ-а');
    expect(printerProfileName('sr-Cyrl', 'POS-5890 and clones (58 mm)')).toBe('POS-5890 и слични (58 mm)');
  });

  it('report CSV words: Serbian for people, the machine names in English', () => {
    expect(reportCsvWords('sr-Cyrl').word('sales')).toBe('Продаје');
    expect(reportCsvWords('sr-Cyrl').payment('check')).toBe('Чек');
    expect(reportCsvWords('en').word('sales')).toBe('sales');
    expect(reportCsvWords('en').payment('check')).toBe('check');
  });
});
