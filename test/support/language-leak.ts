/**
 * The language-leak checker: what a person sees on a screen must be in the screen's language. Given the visible
 * text of a screen and its language, it lists every leak of five kinds:
 * - `latin`: a Latin-script word on a Cyrillic screen that is not on the reviewed allowlist below and is not a
 *   code (a token with a digit: invoice and order numbers, PIB, terminal ids);
 * - `iso`: an ISO timestamp (`2026-11-24T23:04:09.809Z`), which no screen may show;
 * - `field`: a contract path in a message (`поље „`, `polje „`, `(field "`): errors name the field by its label;
 * - `english`: an English function word (the, is, not, ...) on a Serbian screen, the mark of an English sentence;
 * - `serbian`: on an English screen, the other way round: a Cyrillic word, a Latin word with a Serbian letter
 *   (č ć ž š đ), or a Serbian function word, unless it is data the caller names (product, people's and shop
 *   names are Cyrillic by data), a tax label (one capital letter, the gateway's: `Ж`, `Ђ`), or on the English
 *   allowlist.
 * The e2e spec test/e2e/language-leak.spec.ts runs it on every screen it opens.
 */

export type Lang = 'sr-Cyrl' | 'sr-Latn' | 'en';
export type LeakKind = 'latin' | 'iso' | 'field' | 'english' | 'serbian';

export interface Leak {
  kind: LeakKind;
  /** The offending word or match. */
  match: string;
  /** The text around it, to find it on the screen. */
  context: string;
}

/**
 * Latin-script words a Cyrillic screen may show, reviewed: the brand, unit and currency symbols, the
 * abbreviations Serbian writes in Latin letters (PIN, QR, CSV, ESC/POS, API, GTIN, USB, PDF), names of keys on the
 * keyboard (Enter, Esc, Delete, Ctrl), the language picker's own names of the other languages, and the printing
 * systems a printer address names (Windows, CUPS).
 * Do not add a word here to silence a leak: translate the text instead.
 */
export const LATIN_ALLOWLIST: readonly string[] = [
  'Kasa',
  'Enter',
  'Esc',
  'Delete',
  'Ctrl',
  'Shift',
  'Srpski',
  'latinica',
  'English',
  'Windows',
  'CUPS',
  'PIN',
  'RSD',
  'kg',
  'l',
  'g',
  'ml',
  'mm',
  'h',
  'CSV',
  'QR',
  'ESC/POS',
  'ESC',
  'POS',
  'API',
  'GTIN',
  'USB',
  'PDF',
];

/** English words that are not Serbian words in either script: one of them means an English text. */
export const ENGLISH_WORDS: readonly string[] = [
  'the',
  'is',
  'not',
  'and',
  'of',
  'with',
  'for',
  'this',
  'that',
  'has',
  'was',
  'are',
  'be',
  'from',
  'by',
  'cannot',
  'must',
  'please',
  'another',
  'returned',
  'unknown',
  'invalid',
  'error',
  'failed',
  'missing',
];

/**
 * Serbian words an English screen may show, reviewed: the language picker names each language in its own words
 * (`Српски (ћирилица)`, `Srpski (latinica)`). Do not add a word here to silence a leak: translate the text instead.
 */
export const SERBIAN_ALLOWLIST_EN: readonly string[] = ['Српски', 'ћирилица', 'Srpski', 'latinica'];

/**
 * Serbian words in Latin letters without a Serbian letter, that are not English words: one of them on an English
 * screen means a Serbian text (`Iznos je obavezan`, `Nema veze sa serverom`).
 */
export const SERBIAN_LATIN_WORDS: readonly string[] = [
  'je',
  'nije',
  'su',
  'za',
  'ili',
  'sa',
  'od',
  'iz',
  'se',
  'koji',
  'koja',
  'koje',
  'nema',
  'ako',
  'kada',
  'samo',
  'bez',
  'ovde',
  'sada',
  'dinara',
  'virman',
  'iznos',
  'ukupno',
  'greska',
  'pogresan',
  'obavezno',
  'obavezan',
  'prodaja',
  'zatvori',
  'nazad',
  'sacuvaj',
];

const SERBIAN_LETTER = /[čćžšđČĆŽŠĐ]/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g;
const FIELD: Record<Lang, RegExp> = {
  'sr-Cyrl': /поље „/g,
  'sr-Latn': /polje „/g,
  en: /\(field "/g,
};
// A word: letters of any script, with inner dots, slashes, hyphens and apostrophes (ESC/POS, e-pošta, tcp://x).
const WORD = /[\p{L}\p{N}_]+(?:[./:'’-]+[\p{L}\p{N}_]+)*/gu;
const LATIN = /\p{Script=Latin}/u;
const DIGIT = /\p{N}/u;

function around(text: string, index: number, length: number): string {
  const from = Math.max(0, index - 30);
  return text.slice(from, index + length + 30).replace(/\s+/g, ' ');
}

/**
 * True for a Latin token that may stand on a Cyrillic screen: allowlisted (also with a Cyrillic case ending,
 * `PIN-а`), one capital letter (tax labels, the keypad's C), a code with digits, a URL.
 */
export function latinAllowed(word: string): boolean {
  if (LATIN_ALLOWLIST.includes(word.replace(/-\p{Script=Cyrillic}+$/u, ''))) return true;
  if (/^[A-Z]$/.test(word)) return true;
  if (DIGIT.test(word)) return true;
  return /^[a-z]+:\/\//.test(word);
}

/** Every leak in `text` shown in `lang`; `extraAllowed` are data shown as entered (product names, till names). */
export function findLeaks(text: string, lang: Lang, extraAllowed: readonly string[] = []): Leak[] {
  const leaks: Leak[] = [];
  for (const m of text.matchAll(ISO))
    leaks.push({ kind: 'iso', match: m[0], context: around(text, m.index, m[0].length) });
  for (const m of text.matchAll(FIELD[lang])) {
    leaks.push({ kind: 'field', match: m[0], context: around(text, m.index, m[0].length) });
  }
  if (lang === 'en') return leaks.concat(serbianLeaks(text, extraAllowed));
  const english = new Set(ENGLISH_WORDS);
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    if (!LATIN.test(word)) continue;
    if (english.has(word.toLowerCase())) {
      leaks.push({ kind: 'english', match: word, context: around(text, m.index, word.length) });
    } else if (lang === 'sr-Cyrl' && !latinAllowed(word) && !extraAllowed.includes(word)) {
      leaks.push({ kind: 'latin', match: word, context: around(text, m.index, word.length) });
    }
  }
  return leaks;
}

/** The Serbian words on an English screen that are neither data (`extraAllowed`) nor on the English allowlist. */
function serbianLeaks(text: string, extraAllowed: readonly string[]): Leak[] {
  const leaks: Leak[] = [];
  const serbian = new Set(SERBIAN_LATIN_WORDS);
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    if (SERBIAN_ALLOWLIST_EN.includes(word) || extraAllowed.includes(word)) continue;
    // One Cyrillic capital is a tax label (`Ж · 19 %`): the gateway's, shown as it is in every language.
    if (/^\p{Lu}$/u.test(word)) continue;
    if (CYRILLIC.test(word) || SERBIAN_LETTER.test(word) || serbian.has(word.toLowerCase()))
      leaks.push({ kind: 'serbian', match: word, context: around(text, m.index, word.length) });
  }
  return leaks;
}
