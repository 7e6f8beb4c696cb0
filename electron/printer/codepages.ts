/**
 * Single-byte code pages the printer module speaks, as Unicode tables of their upper halves (0x80-0xFF;
 * the lower half is ASCII in all of them). Own encoder/decoder: no iconv, no guessing.
 *
 * Serbian needs two scripts: every Cyrillic letter (Ђ Ј Љ Њ Ћ Џ …) is in CP1251 and CP855; the Latin
 * letters Š Đ Č Ć Ž are in CP1250 and CP852 but in neither Cyrillic page. The layout therefore switches
 * the code page per run of text (see `encodeRuns`).
 */

import { CODE_PAGE_NAMES, type CodePageName } from '../../shared/contract/printer.ts';

export { CODE_PAGE_NAMES, type CodePageName };

const UPPER: Record<CodePageName, string> = {
  CP437:
    '\u00c7\u00fc\u00e9\u00e2\u00e4\u00e0\u00e5\u00e7\u00ea\u00eb\u00e8\u00ef\u00ee\u00ec\u00c4\u00c5\u00c9\u00e6\u00c6\u00f4\u00f6\u00f2\u00fb\u00f9\u00ff\u00d6\u00dc\u00a2\u00a3\u00a5\u20a7\u0192\u00e1\u00ed\u00f3\u00fa\u00f1\u00d1\u00aa\u00ba\u00bf\u2310\u00ac\u00bd\u00bc\u00a1\u00ab\u00bb\u2591\u2592\u2593\u2502\u2524\u2561\u2562\u2556\u2555\u2563\u2551\u2557\u255d\u255c\u255b\u2510\u2514\u2534\u252c\u251c\u2500\u253c\u255e\u255f\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u2567\u2568\u2564\u2565\u2559\u2558\u2552\u2553\u256b\u256a\u2518\u250c\u2588\u2584\u258c\u2590\u2580\u03b1\u00df\u0393\u03c0\u03a3\u03c3\u00b5\u03c4\u03a6\u0398\u03a9\u03b4\u221e\u03c6\u03b5\u2229\u2261\u00b1\u2265\u2264\u2320\u2321\u00f7\u2248\u00b0\u2219\u00b7\u221a\u207f\u00b2\u25a0\u00a0',
  CP1251:
    '\u0402\u0403\u201a\u0453\u201e\u2026\u2020\u2021\u20ac\u2030\u0409\u2039\u040a\u040c\u040b\u040f\u0452\u2018\u2019\u201c\u201d\u2022\u2013\u2014\ufffd\u2122\u0459\u203a\u045a\u045c\u045b\u045f\u00a0\u040e\u045e\u0408\u00a4\u0490\u00a6\u00a7\u0401\u00a9\u0404\u00ab\u00ac\u00ad\u00ae\u0407\u00b0\u00b1\u0406\u0456\u0491\u00b5\u00b6\u00b7\u0451\u2116\u0454\u00bb\u0458\u0405\u0455\u0457\u0410\u0411\u0412\u0413\u0414\u0415\u0416\u0417\u0418\u0419\u041a\u041b\u041c\u041d\u041e\u041f\u0420\u0421\u0422\u0423\u0424\u0425\u0426\u0427\u0428\u0429\u042a\u042b\u042c\u042d\u042e\u042f\u0430\u0431\u0432\u0433\u0434\u0435\u0436\u0437\u0438\u0439\u043a\u043b\u043c\u043d\u043e\u043f\u0440\u0441\u0442\u0443\u0444\u0445\u0446\u0447\u0448\u0449\u044a\u044b\u044c\u044d\u044e\u044f',
  CP855:
    '\u0452\u0402\u0453\u0403\u0451\u0401\u0454\u0404\u0455\u0405\u0456\u0406\u0457\u0407\u0458\u0408\u0459\u0409\u045a\u040a\u045b\u040b\u045c\u040c\u045e\u040e\u045f\u040f\u044e\u042e\u044a\u042a\u0430\u0410\u0431\u0411\u0446\u0426\u0434\u0414\u0435\u0415\u0444\u0424\u0433\u0413\u00ab\u00bb\u2591\u2592\u2593\u2502\u2524\u0445\u0425\u0438\u0418\u2563\u2551\u2557\u255d\u0439\u0419\u2510\u2514\u2534\u252c\u251c\u2500\u253c\u043a\u041a\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u00a4\u043b\u041b\u043c\u041c\u043d\u041d\u043e\u041e\u043f\u2518\u250c\u2588\u2584\u041f\u044f\u2580\u042f\u0440\u0420\u0441\u0421\u0442\u0422\u0443\u0423\u0436\u0416\u0432\u0412\u044c\u042c\u2116\u00ad\u044b\u042b\u0437\u0417\u0448\u0428\u044d\u042d\u0449\u0429\u0447\u0427\u00a7\u25a0\u00a0',
  CP1250:
    '\u20ac\ufffd\u201a\ufffd\u201e\u2026\u2020\u2021\ufffd\u2030\u0160\u2039\u015a\u0164\u017d\u0179\ufffd\u2018\u2019\u201c\u201d\u2022\u2013\u2014\ufffd\u2122\u0161\u203a\u015b\u0165\u017e\u017a\u00a0\u02c7\u02d8\u0141\u00a4\u0104\u00a6\u00a7\u00a8\u00a9\u015e\u00ab\u00ac\u00ad\u00ae\u017b\u00b0\u00b1\u02db\u0142\u00b4\u00b5\u00b6\u00b7\u00b8\u0105\u015f\u00bb\u013d\u02dd\u013e\u017c\u0154\u00c1\u00c2\u0102\u00c4\u0139\u0106\u00c7\u010c\u00c9\u0118\u00cb\u011a\u00cd\u00ce\u010e\u0110\u0143\u0147\u00d3\u00d4\u0150\u00d6\u00d7\u0158\u016e\u00da\u0170\u00dc\u00dd\u0162\u00df\u0155\u00e1\u00e2\u0103\u00e4\u013a\u0107\u00e7\u010d\u00e9\u0119\u00eb\u011b\u00ed\u00ee\u010f\u0111\u0144\u0148\u00f3\u00f4\u0151\u00f6\u00f7\u0159\u016f\u00fa\u0171\u00fc\u00fd\u0163\u02d9',
  CP852:
    '\u00c7\u00fc\u00e9\u00e2\u00e4\u016f\u0107\u00e7\u0142\u00eb\u0150\u0151\u00ee\u0179\u00c4\u0106\u00c9\u0139\u013a\u00f4\u00f6\u013d\u013e\u015a\u015b\u00d6\u00dc\u0164\u0165\u0141\u00d7\u010d\u00e1\u00ed\u00f3\u00fa\u0104\u0105\u017d\u017e\u0118\u0119\u00ac\u017a\u010c\u015f\u00ab\u00bb\u2591\u2592\u2593\u2502\u2524\u00c1\u00c2\u011a\u015e\u2563\u2551\u2557\u255d\u017b\u017c\u2510\u2514\u2534\u252c\u251c\u2500\u253c\u0102\u0103\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u00a4\u0111\u0110\u010e\u00cb\u010f\u0147\u00cd\u00ce\u011b\u2518\u250c\u2588\u2584\u0162\u016e\u2580\u00d3\u00df\u00d4\u0143\u0144\u0148\u0160\u0161\u0154\u00da\u0155\u0170\u00fd\u00dd\u0163\u00b4\u00ad\u02dd\u02db\u02c7\u02d8\u00a7\u00f7\u00b8\u00b0\u00a8\u02d9\u0171\u0158\u0159\u25a0\u00a0',
};

const ENCODE = new Map<CodePageName, Map<number, number>>();
for (const name of CODE_PAGE_NAMES) {
  const table = new Map<number, number>();
  const upper = UPPER[name];
  for (let i = 0; i < 128; i++) {
    const cp = upper.codePointAt(i);
    if (cp !== undefined && cp !== 0xfffd) table.set(cp, 0x80 + i);
  }
  ENCODE.set(name, table);
}

/** The byte for one Unicode code point in `page`, or undefined if the page lacks it. */
export function encodeChar(page: CodePageName, codePoint: number): number | undefined {
  if (codePoint < 0x80) return codePoint;
  return ENCODE.get(page)?.get(codePoint);
}

/** The character a byte stands for in `page` (U+FFFD for an undefined byte). */
export function decodeByte(page: CodePageName, byte: number): string {
  if (byte < 0x80) return String.fromCharCode(byte);
  return UPPER[page][byte - 0x80] ?? '\ufffd';
}

/** True when every character of `text` is in `page`. */
export function canEncode(page: CodePageName, text: string): boolean {
  for (const ch of text) if (encodeChar(page, ch.codePointAt(0) ?? 0) === undefined) return false;
  return true;
}

/** A run of text encoded in one code page. */
export interface EncodedRun {
  page: CodePageName;
  bytes: Buffer;
}

/**
 * Splits `text` into runs, each encoded in one of `pages` (tried in order; the current page is kept
 * while it can print the next character, so ASCII never forces a switch). Returns null when some
 * character is in none of the pages: the caller then prints the line as an image.
 */
export function encodeRuns(text: string, pages: readonly CodePageName[], current?: CodePageName): EncodedRun[] | null {
  const runs: EncodedRun[] = [];
  let page: CodePageName | undefined = current ?? pages[0];
  if (page === undefined) return null;
  let bytes: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    let b = encodeChar(page, cp);
    if (b === undefined) {
      const other = pages.find((p) => encodeChar(p, cp) !== undefined);
      if (other === undefined) return null;
      if (bytes.length > 0) runs.push({ page, bytes: Buffer.from(bytes) });
      bytes = [];
      page = other;
      b = encodeChar(page, cp);
    }
    bytes.push(b ?? 0x3f);
  }
  if (bytes.length > 0 || runs.length === 0) runs.push({ page, bytes: Buffer.from(bytes) });
  return runs;
}

/** Every letter of the Serbian Cyrillic alphabet (upper and lower case), in alphabetical order. */
export const SERBIAN_CYRILLIC = 'АБВГДЂЕЖЗИЈКЛЉМНЊОПРСТЋУФХЦЧЏШабвгдђежзијклљмнњопрстћуфхцчџш';
/** Every letter of the Serbian Latin alphabet with a diacritic. */
export const SERBIAN_LATIN_DIACRITICS = 'ČĆĐŠŽčćđšž';
