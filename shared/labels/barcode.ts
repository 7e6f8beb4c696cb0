/**
 * Shelf label barcodes (docs/prices.md, "Shelf labels"): which symbology a product's code is, and its bars as modules
 * (for the A4 sheets and for looking at a label; a label printer draws its own from the data Kasa sends).
 *
 * - EAN-13 and EAN-8: 13 or 8 digits whose last is the GS1 check digit (mod 10, weights 3 and 1 from the right).
 * - Code 128 for any other code of printable ASCII: subset C for an even number of digits (two per symbol), else B.
 * - A code with other characters (Cyrillic, control characters) has no barcode: the label shows no bars.
 */

export type Symbology = 'ean13' | 'ean8' | 'code128';

export interface LabelBarcode {
  symbology: Symbology;
  /** The code as printed under the bars (EAN: every digit, the check digit included). */
  data: string;
}

/** The GS1 check digit of the digits before it. */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const d = body.charCodeAt(body.length - 1 - i) - 48;
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10;
}

const validGs1 = (code: string): boolean =>
  /^\d+$/.test(code) && gs1CheckDigit(code.slice(0, -1)) === Number(code.slice(-1));

/** The barcode a code prints as, or null when it has none (characters outside printable ASCII, or empty). */
export function barcodeOf(code: string): LabelBarcode | null {
  if (code.length === 13 && validGs1(code)) return { symbology: 'ean13', data: code };
  if (code.length === 8 && validGs1(code)) return { symbology: 'ean8', data: code };
  if (code.length > 0 && code.length <= 40 && /^[\x20-\x7e]+$/.test(code)) return { symbology: 'code128', data: code };
  return null;
}

const EAN_L = [
  '0001101',
  '0011001',
  '0010011',
  '0111101',
  '0100011',
  '0110001',
  '0101111',
  '0111011',
  '0110111',
  '0001011',
];
const flip = (p: string): string => p.replace(/[01]/g, (c) => (c === '0' ? '1' : '0'));
const EAN_R = EAN_L.map(flip);
const EAN_G = EAN_R.map((p) => [...p].reverse().join(''));
/** EAN-13: the first digit is carried by the parity (L or G) of the left six. */
const EAN13_PARITY = [
  'LLLLLL',
  'LLGLGG',
  'LLGGLG',
  'LLGGGL',
  'LGLLGG',
  'LGGLLG',
  'LGGGLL',
  'LGLGLG',
  'LGLGGL',
  'LGGLGL',
];

const digit = (s: string, i: number): number => s.charCodeAt(i) - 48;

function eanModules(b: LabelBarcode): string {
  const s = b.data;
  if (b.symbology === 'ean8') {
    let out = '101';
    for (let i = 0; i < 4; i++) out += EAN_L[digit(s, i)];
    out += '01010';
    for (let i = 4; i < 8; i++) out += EAN_R[digit(s, i)];
    return out + '101';
  }
  const parity = EAN13_PARITY[digit(s, 0)] ?? 'LLLLLL';
  let out = '101';
  for (let i = 1; i < 7; i++) out += (parity[i - 1] === 'G' ? EAN_G : EAN_L)[digit(s, i)];
  out += '01010';
  for (let i = 7; i < 13; i++) out += EAN_R[digit(s, i)];
  return out + '101';
}

/** Code 128 symbols 0–106 as bar/space widths (ISO/IEC 15417, table 1); 106 is the stop (with its final bar). */
const C128 = (
  '212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 221312 231212 112232 122132 122231 113222 ' +
  '123122 123221 223211 221132 221231 213212 223112 312131 311222 321122 321221 312212 322112 322211 212123 212321 ' +
  '232121 111323 131123 131321 112313 132113 132311 211313 231113 231311 112133 112331 132131 113123 113321 133121 ' +
  '313121 211331 231131 213113 213311 213131 311123 311321 331121 312113 312311 332111 314111 221411 431111 111224 ' +
  '111422 121124 121421 141122 141221 112214 112412 122114 122411 142112 142211 241211 221114 413111 241112 134111 ' +
  '111242 121142 121241 114212 124112 124211 411212 421112 421211 212141 214121 412121 111143 111341 131141 114113 ' +
  '114311 411113 411311 113141 114131 311141 411131 211412 211214 211232 2331112'
).split(' ');
const START_B = 104;
const START_C = 105;

/** The Code 128 symbol values of `data`: start, data, check symbol, stop. */
export function code128Symbols(data: string): number[] {
  const digitsOnly = /^\d+$/.test(data) && data.length % 2 === 0;
  const values: number[] = [digitsOnly ? START_C : START_B];
  if (digitsOnly) for (let i = 0; i < data.length; i += 2) values.push(Number(data.slice(i, i + 2)));
  else for (const ch of data) values.push(ch.charCodeAt(0) - 32);
  const check = values.reduce((sum, v, i) => sum + v * (i === 0 ? 1 : i), 0) % 103;
  return [...values, check, 106];
}

function code128Modules(data: string): string {
  let out = '';
  for (const v of code128Symbols(data)) {
    const widths = C128[v] ?? '';
    for (let i = 0; i < widths.length; i++) out += (i % 2 === 0 ? '1' : '0').repeat(Number(widths[i]));
  }
  return out;
}

/** The barcode's modules, left to right, '1' a bar: what a printer draws at one dot (or unit) per module. */
export function barcodeModules(b: LabelBarcode): string {
  return b.symbology === 'code128' ? code128Modules(b.data) : eanModules(b);
}

/** The quiet zone each side, in modules (EAN-13: 11 left, 7 right; EAN-8: 7; Code 128: 10). */
export function quietModules(s: Symbology): number {
  return s === 'ean13' ? 11 : s === 'ean8' ? 7 : 10;
}
