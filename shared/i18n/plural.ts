/**
 * Plural forms by number, the one helper every count a person reads goes through. Serbian has three forms
 * (CLDR `sr`): one — n % 10 = 1 and n % 100 ≠ 11 („1 ставка“, „21 ставка“, „61 артикал“); few — n % 10 in 2..4
 * and n % 100 not in 12..14 („3 ставке“, „24 ставке“); other („5 ставки“, „11 ставки“, „0 ставки“). English has
 * two (one for 1, other). `Intl.PluralRules` decides; the forms are the catalog's words.
 *
 * In a catalog template a count is written `{count|ставка|ставке|ставки}` (Serbian: one, few, other) or
 * `{count|item|items}` (English: one, other) and reads as the number and its word: „3 ставке“
 * (shared/i18n/catalog.ts `interpolate`). Three forms are Serbian's rules, two English's.
 */
import type { Language } from '../domain.ts';

const RULES = { sr: new Intl.PluralRules('sr'), en: new Intl.PluralRules('en') } as const;

/** The form for `n` among `forms`: [one, few, other] by Serbian rules, [one, other] by English ones. */
export function pluralForm(n: number, forms: readonly string[]): string {
  if (forms.length === 3) {
    const c = RULES.sr.select(n);
    return (c === 'one' ? forms[0] : c === 'few' ? forms[1] : forms[2]) ?? '';
  }
  if (forms.length === 2) return (RULES.en.select(n) === 'one' ? forms[0] : forms[1]) ?? '';
  return forms[0] ?? '';
}

/** The nouns counted on screens and paper, in their forms per language. */
export const COUNTED: Record<string, Record<Language, readonly string[]>> = {
  item: { 'sr-Cyrl': ['ставка', 'ставке', 'ставки'], 'sr-Latn': ['stavka', 'stavke', 'stavki'], en: ['item', 'items'] },
  product: {
    'sr-Cyrl': ['артикал', 'артикла', 'артикала'],
    'sr-Latn': ['artikal', 'artikla', 'artikala'],
    en: ['product', 'products'],
  },
  receipt: {
    'sr-Cyrl': ['рачун', 'рачуна', 'рачуна'],
    'sr-Latn': ['račun', 'računa', 'računa'],
    en: ['receipt', 'receipts'],
  },
};

/** „3 ставке“: the number and the word in the form the number takes in `lang`. */
export function countText(lang: Language, n: number, noun: keyof typeof COUNTED): string {
  const forms = COUNTED[noun]?.[lang] ?? [];
  return `${n} ${pluralForm(n, forms)}`;
}
