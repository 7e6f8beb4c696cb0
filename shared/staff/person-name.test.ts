import { describe, expect, it } from 'vitest';
import { nameSkeleton, personName, personNameProblem } from './person-name.ts';

describe('person names', () => {
  it('are kept in NFC without spaces at the ends', () => {
    expect(personName(' Ана\u0301 ')).toBe('Ана́'.normalize('NFC'));
    expect(personName('Jovana\u0308')).toBe('Jovanä');
  });
  it('refuse invisible and formatting characters', () => {
    for (const n of ['Ана\u200B', '\u202EАна', 'Ан\u00ADа', 'Ана\u00A0Петровић', 'Ан\u200Dа', 'Ана\u0007'])
      expect(personNameProblem(n, [])).toEqual({ key: 'name_invisible' });
    expect(personNameProblem('Ана Петровић', [])).toBeNull();
  });
  it('refuse a word mixing scripts, not a name with a Latin and a Cyrillic word', () => {
    expect(personNameProblem('Mенаџер', [])).toEqual({ key: 'name_mixed_script' });
    expect(personNameProblem('Ana Петровић', [])).toBeNull();
    expect(personNameProblem('Đorđe Đurić', [])).toBeNull();
  });
  it("refuse a look-alike of another person's name", () => {
    expect(nameSkeleton('МАРКО')).toBe(nameSkeleton('MAPKO'));
    expect(personNameProblem('MAPKO', ['МАРКО', 'Ана'])).toEqual({ key: 'name_lookalike', other: 'МАРКО' });
    expect(personNameProblem('Ana', ['Ана'])).toBeNull();
    expect(personNameProblem('Ана', ['Ана'])).toBeNull();
  });
});
