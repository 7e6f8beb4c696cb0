/**
 * A price list's items from CSV (shared/prices/items-csv.ts; docs/prices.md "CSV import of a list's prices"): both
 * dialects, a byte-order mark and a header, quoted fields, the list's days; a bad row named by its line and column
 * in the user's language, and nothing taken from a file with one.
 */
import { describe, expect, it } from 'vitest';
import { csvProblemText, parsePriceItemsCsv } from '../../shared/prices/items-csv.ts';

describe('CSV import of a price list', () => {
  it('reads the Serbian dialect with a BOM and a header, and the English one', () => {
    const dialects = [
      {
        csv: '\uFEFFшифра;цена;од;до\r\nHL;99,50;1.12.2026.;07.12.2026.\r\n8600000000001;1.234,5;2026-12-01;07.12.2026\r\n',
        value: {
          items: [
            { code: 'HL', pricePara: 99_50 },
            { code: '8600000000001', pricePara: 1234_50 },
          ],
          fromDay: '2026-12-01',
          toDay: '2026-12-07',
        },
      },
      {
        csv: 'code,price\n"HL",99.5\n"S""K",1200\n\n',
        value: {
          items: [
            { code: 'HL', pricePara: 99_50 },
            { code: 'S"K', pricePara: 1200_00 },
          ],
          fromDay: null,
          toDay: null,
        },
      },
    ];
    for (const { csv, value } of dialects) expect(parsePriceItemsCsv(csv), csv).toEqual({ ok: true, value });
  });

  it('names the first bad row by its line and column, in three languages, and takes nothing', () => {
    const cases: [string, { row: number; column: number; code: string }][] = [
      ['HL;99,00\nSK;12.5\n', { row: 2, column: 2, code: 'prices_csv_price' }],
      ['HL,99.00\nSK,1\\,5\n', { row: 2, column: 2, code: 'prices_csv_price' }],
      ['HL;99,00\n;10\n', { row: 2, column: 1, code: 'prices_csv_code' }],
      ['HL;99,00;31.02.2026.\n', { row: 1, column: 3, code: 'prices_csv_day' }],
      ['HL;99,00;01.12.2026.\nSK;10;02.12.2026.\n', { row: 2, column: 3, code: 'prices_csv_days_differ' }],
      ['HL;99,00;;;x\n', { row: 1, column: 5, code: 'prices_csv_columns' }],
      ['шифра;цена\n', { row: 1, column: 1, code: 'prices_csv_empty' }],
    ];
    for (const [text, expected] of cases) {
      const r = parsePriceItemsCsv(text);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.problem).toMatchObject(expected);
    }
    const r = parsePriceItemsCsv('HL;99,00\nSK;12.5\n');
    if (r.ok) throw new Error('read');
    expect(csvProblemText('sr-Cyrl', r.problem, 'Увоз')).toBe(
      'Ред 2, колона 2 (цена; Увоз): „12.5“ није цена (1.234,50 са „;“ или 1234.50 са „,“). Ништа није увезено.',
    );
    expect(csvProblemText('sr-Latn', r.problem, 'Uvoz')).toContain('Red 2, kolona 2 (cena; Uvoz)');
    expect(csvProblemText('en', r.problem, 'Import')).toContain('Row 2, column 2 (price; Import)');
  });
});
