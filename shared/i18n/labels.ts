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

/** Serbian Cyrillic's 30 letters and their Latin letters, in the same order (Vuk's alphabet; Gaj's Latin). */
const CYRILLIC = [...'абвгдђежзијклљмнњопрстћуфхцчџш'];
const LATIN = 'a b v g d đ e ž z i j k l lj m n nj o p r s t ć u f h c č dž š'.split(' ');
const CYR_TO_LATIN: Record<string, string> = Object.fromEntries(CYRILLIC.map((c, i) => [c, LATIN[i] ?? c]));

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
