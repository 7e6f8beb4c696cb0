import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { interpolate } from './catalog.ts';
import { countText, pluralForm } from './plural.ts';
import { AUDIT_TEXT } from './audit.ts';

/** Serbian's rule as the issue states it: one, few, other. */
function serbian(n: number): 0 | 1 | 2 {
  if (n % 10 === 1 && n % 100 !== 11) return 0;
  if (n % 10 >= 2 && n % 10 <= 4 && !(n % 100 >= 12 && n % 100 <= 14)) return 1;
  return 2;
}

describe('plural forms by number (issue 38 §5)', () => {
  it('Serbian: 1 ставка, 3 ставке, 5 ставки, 11 ставки, 21 ставка, 61 артикал, 112 ставки, 124 ставке', () => {
    // The three forms of ставка, each with the counts that take it.
    const forms = { ставка: [1, 21], ставке: [3, 124], ставки: [0, 5, 11, 12, 112] };
    for (const [form, counts] of Object.entries(forms))
      for (const n of counts) expect(countText('sr-Cyrl', n, 'item')).toBe(`${n} ${form}`);
    expect(countText('sr-Cyrl', 61, 'product')).toBe('61 артикал');
    expect(countText('sr-Latn', 22, 'product')).toBe('22 artikla');
    expect(countText('en', 1, 'item')).toBe('1 item');
    expect(countText('en', 21, 'item')).toBe('21 items');
  });

  it('Intl.PluralRules agrees with the stated rule for 0..10,000', () => {
    const forms = ['one', 'few', 'other'];
    for (let n = 0; n <= 10_000; n++) expect(pluralForm(n, forms), String(n)).toBe(forms[serbian(n)]);
  });

  it('a catalog template writes a count as {name|one|few|other}', () => {
    const t = 'Враћена је отворена продаја ({count|ставка|ставке|ставки}).';
    expect(interpolate(t, { count: 1 })).toBe('Враћена је отворена продаја (1 ставка).');
    expect(interpolate(t, { count: 4 })).toBe('Враћена је отворена продаја (4 ставке).');
    expect(interpolate(t, { count: 14 })).toBe('Враћена је отворена продаја (14 ставки).');
    expect(interpolate('{n|item|items}', { n: 2 })).toBe('2 items');
    expect(interpolate('{name} ({n})', { name: 'Хлеб', n: 3 })).toBe('Хлеб (3)');
  });

  it('no Serbian text puts a bare count before a noun (it would read „1 ставки“)', () => {
    const files = [
      'renderer/src/i18n/ui.ts',
      'renderer/src/i18n/setup.ts',
      'renderer/src/manager/i18n.ts',
      'renderer/src/hub-ui/i18n.ts',
      'renderer/src/hub-ui/catalog-i18n.ts',
      'shared/messages.ts',
      'shared/i18n/messages.ts',
      'shared/i18n/audit.ts',
    ];
    const counts =
      /\{(count|lines|days|till|products|items|mapped|added|n)\} (ставк|артик|производ|рачун|дан|особ|stavk|artik|proizvod|račun|dan|osob)/u;
    for (const f of files)
      for (const [i, line] of fs.readFileSync(f, 'utf8').split('\n').entries())
        expect(counts.test(line), `${f}:${i + 1}: ${line.trim()}`).toBe(false);
    expect(AUDIT_TEXT['sr-Cyrl'].login).toBe('Пријава: {who}');
  });
});
