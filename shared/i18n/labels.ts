/**
 * The words on a shelf label (docs/prices.md, "Shelf labels"), in the two scripts a label is printed in. A label is
 * for the shop's customers: Serbian only, Cyrillic or Latin as the shop chooses (never English).
 */

/** The script a label is printed in. */
export type LabelScript = 'sr-Cyrl' | 'sr-Latn';
export const LABEL_SCRIPTS: readonly LabelScript[] = ['sr-Cyrl', 'sr-Latn'];

export interface LabelWords {
  /** After the price: `дин`. */
  currency: string;
  /** The unit price's unit, „din/jedinica mere“ (Pravilnik čl. 4). */
  perUnit: { kg: string; l: string };
  /** Before the unit price. */
  unitPrice: string;
  /** Before the previous price of a promotion. */
  oldPrice: string;
  /** A promotion's days: `Акција {from}–{to}`. */
  promotion: string;
}

export const LABEL_WORDS: Record<LabelScript, LabelWords> = {
  'sr-Cyrl': {
    currency: 'дин',
    perUnit: { kg: 'дин/кг', l: 'дин/л' },
    unitPrice: 'Јединична цена',
    oldPrice: 'Стара цена',
    promotion: 'Акција {from}–{to}',
  },
  'sr-Latn': {
    currency: 'din',
    perUnit: { kg: 'din/kg', l: 'din/l' },
    unitPrice: 'Jedinična cena',
    oldPrice: 'Stara cena',
    promotion: 'Akcija {from}–{to}',
  },
};

const CYR_TO_LATIN: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  ђ: 'đ',
  е: 'e',
  ж: 'ž',
  з: 'z',
  и: 'i',
  ј: 'j',
  к: 'k',
  л: 'l',
  љ: 'lj',
  м: 'm',
  н: 'n',
  њ: 'nj',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  ћ: 'ć',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'c',
  ч: 'č',
  џ: 'dž',
  ш: 'š',
};

/**
 * Serbian Cyrillic in Latin letters (one letter for one: љ → lj, ђ → đ). A capital digraph is title case before a
 * lower-case letter (Љиљана → Ljiljana) and all capitals otherwise (ЉУБА → LJUBA). The other direction is not
 * done: a Latin name (a brand) stays as it was entered on a Cyrillic label.
 */
export function toLatinScript(text: string): string {
  const chars = [...text];
  return chars
    .map((ch, i) => {
      const lower = ch.toLowerCase();
      const latin = CYR_TO_LATIN[lower];
      if (latin === undefined) return ch;
      if (lower === ch) return latin;
      const next = chars[i + 1] ?? '';
      const nextIsLower = next !== next.toUpperCase();
      return nextIsLower ? latin.charAt(0).toUpperCase() + latin.slice(1) : latin.toUpperCase();
    })
    .join('');
}
