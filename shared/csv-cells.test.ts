import { describe, expect, it } from 'vitest';
import { csvCells, csvRows } from './csv-cells.ts';

describe('csvRows and csvCells', () => {
  it('splits rows at every kind of line break outside quotes, and keeps quoted separators, breaks and quotes', () => {
    expect(csvRows('a,"b,1"\r\n"say ""hi""",x\n"two\nlines",\rlast', ',')).toEqual([
      ['a', 'b,1'],
      ['say "hi"', 'x'],
      ['two\nlines', ''],
      ['last'],
    ]);
  });

  it('gives no empty row after a final line break, and one empty cell for an empty text or line', () => {
    expect(csvRows('a;b\n', ';')).toEqual([['a', 'b']]);
    expect(csvRows('', ';')).toEqual([['']]);
    expect(csvCells('', ';')).toEqual(['']);
    expect(csvCells(' 1001 ;"Хлеб; бели";', ';')).toEqual([' 1001 ', 'Хлеб; бели', '']);
  });
});
