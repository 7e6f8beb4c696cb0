import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  banner,
  buildJournal,
  center,
  END_LINE,
  formatDateTime,
  formatRate,
  graphemes,
  pair,
  TITLE_LINE,
  wrap,
  type JournalInput,
} from './journal.ts';

const strip = (s: string) => s.replace(/\s+/g, '');

describe('wrap', () => {
  it('wraps at spaces and cuts long words, at most 40 columns', () => {
    expect(wrap('Хлеб бели')).toEqual(['Хлеб бели']);
    expect(wrap('а'.repeat(85))).toEqual(['а'.repeat(40), 'а'.repeat(40), 'а'.repeat(5)]);
    expect(wrap('један два три', 8)).toEqual(['један', 'два три']);
    expect(wrap('')).toEqual(['']);
  });

  it('never splits a letter from its combining mark', () => {
    const name = 'e\u0301'.repeat(30); // é as e + combining acute: 60 code units, not NFC-composable? it is: NFC makes é
    for (const l of wrap(name)) expect(l.length).toBeLessThanOrEqual(40);
    const noPrecomposed = 'q\u0301'.repeat(30); // no precomposed form: graphemes of 2 code units
    const lines = wrap(noPrecomposed);
    for (const l of lines) {
      expect(l.length).toBeLessThanOrEqual(40);
      expect(l.startsWith('\u0301')).toBe(false);
    }
    expect(lines.join('')).toBe(noPrecomposed);
  });

  it('keeps emoji surrogate pairs whole', () => {
    const lines = wrap('🍞'.repeat(25));
    for (const l of lines) {
      expect(l.length).toBeLessThanOrEqual(40);
      expect(graphemes(l).every((g) => g === '🍞')).toBe(true);
    }
  });

  it('property: any Latin/Cyrillic/combining text wraps to ≤ 40 columns and loses nothing', () => {
    const alphabet = fc.constantFrom(
      ...'abcčćđšž ABCЂЉЊЋЏ абвгдђежзијклљмнњопрстћуфхцчџш 0123456789.,-/()'.split(''),
      'q\u0301',
      '🍞',
    );
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 200 }).map((a) => a.join('')),
        (text) => {
          const lines = wrap(text);
          for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
          expect(strip(lines.join(''))).toBe(strip(text.normalize('NFC')));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('layout helpers', () => {
  it('builds the real markers from banner()', () => {
    expect(banner('ФИСКАЛНИ РАЧУН')).toBe(TITLE_LINE);
    expect(banner('КРАЈ ФИСКАЛНОГ РАЧУНА')).toBe(END_LINE);
    expect(TITLE_LINE).toHaveLength(40);
    expect(END_LINE).toHaveLength(40);
  });

  it('pairs label and value on one line or two', () => {
    expect(pair('Готовина:', '1.234,56')).toEqual([`Готовина:${' '.repeat(40 - 9 - 8)}1.234,56`]);
    const two = pair('Д'.repeat(35), '1.234,56');
    expect(two).toHaveLength(2);
    expect(two[1]).toBe(`${' '.repeat(32)}1.234,56`);
    expect(center('ab')).toEqual([`${' '.repeat(19)}ab`]);
  });

  it('formats rates and Belgrade time', () => {
    expect(formatRate(20)).toBe('20,00%');
    expect(formatRate(0.5)).toBe('0,50%');
    expect(formatDateTime(new Date('2024-07-01T10:11:12Z'))).toBe('01.07.2024. 12:11:12');
    expect(formatDateTime(new Date('2024-12-31T23:30:00Z'))).toBe('01.01.2025. 00:30:00');
  });
});

describe('buildJournal', () => {
  const input = (over: Partial<JournalInput> = {}): JournalInput => ({
    tin: '100000017',
    businessName: 'Демо продавница',
    locationName: 'Локал',
    address: 'Улица 1',
    city: 'Београд',
    cashier: 'Ана',
    esirNumber: '101/1.0',
    invoiceType: 'normal',
    transactionType: 'sale',
    items: [{ name: 'Хлеб', labels: ['A'], quantity: 1500, unitPrice: 10000, total: 15000 }],
    payments: [{ type: 'cash', amount: 15000 }],
    total: 15000,
    taxes: [{ label: 'A', categoryName: 'VAT', rate: 10, amount: 1364 }],
    sdcDateTime: new Date('2024-07-01T10:11:12Z'),
    invoiceNumber: 'KS7DEM01-T3STSE01-12',
    invoiceCounter: '7/12ОП',
    ...over,
  });

  it('lays out a sale', () => {
    const lines = buildJournal(input()).split('\n');
    expect(lines[0]).toBe(TITLE_LINE);
    expect(lines.at(-1)).toBe(END_LINE);
    expect(lines).toContain('Хлеб (A)');
    expect(lines).toContain(`  1,5 x 100,00 =${' '.repeat(40 - 16 - 6)}150,00`);
    expect(lines.some((l) => l.startsWith('Укупан износ:') && l.endsWith('150,00'))).toBe(true);
    expect(lines.some((l) => l.startsWith('Готовина:') && l.endsWith('150,00'))).toBe(true);
    expect(lines.some((l) => l.startsWith('A     VAT') && l.endsWith('13,64'))).toBe(true);
    expect(lines.some((l) => l.startsWith('ПФР време:') && l.endsWith('01.07.2024. 12:11:12'))).toBe(true);
    expect(lines.some((l) => l.startsWith('Бројач рачуна:') && l.endsWith('7/12ОП'))).toBe(true);
  });

  it("prints the ESIR time (the request's dateTimeOfIssue) under the ESIR number only when sent (#21)", () => {
    const lines = buildJournal(input({ esirDateTime: new Date('2024-07-01T07:00:00Z') })).split('\n');
    const at = lines.findIndex((l) => l.startsWith('ЕСИР време:'));
    expect(lines[at - 1]?.startsWith('ЕСИР број:')).toBe(true);
    expect(lines[at]).toBe(`ЕСИР време:${' '.repeat(40 - 11 - 20)}01.07.2024. 09:00:00`);
    expect(lines.some((l) => l.startsWith('ПФР време:') && l.endsWith('01.07.2024. 12:11:12'))).toBe(true);
    expect(buildJournal(input())).not.toContain('ЕСИР време');
  });

  it('shows refunds negative with the buyer signature line', () => {
    const text = buildJournal(
      input({
        transactionType: 'refund',
        referentDocumentNumber: 'X-Y-1',
        referentDocumentDt: '2024-07-01T10:00:00Z',
        buyerId: '10:123456789',
      }),
    );
    expect(text).toContain('ПРОМЕТ РЕФУНДАЦИЈА');
    expect(text).toContain('-150,00');
    expect(text).toContain('Потпис купца:');
    expect(text).toContain('ИД купца:');
  });

  it('property: every line ≤ 40 columns for any items', () => {
    const name = fc
      .array(fc.constantFrom(...'Хлеб mleko ЋЏЉ čćž 12345 '.split(''), 'q\u0301'), { minLength: 1, maxLength: 120 })
      .map((a) => a.join('') + 'x');
    const line = fc.record({
      name,
      labels: fc.constantFrom<string[]>(['A'], ['E'], ['A', 'F']),
      quantity: fc.integer({ min: 1, max: 99_999_999 }),
      unitPrice: fc.integer({ min: 0, max: 99_999_999_999 }),
      total: fc.integer({ min: 0, max: 999_999_999_999 }),
    });
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('normal', 'training', 'copy'),
        (items, invoiceType) => {
          const text = buildJournal(input({ items, invoiceType, total: items.reduce((s, i) => s + i.total, 0) }));
          for (const l of text.split('\n')) expect([...l].length <= 40 && l.length <= 40).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});
