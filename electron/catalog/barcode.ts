/** GTIN check digits and in-store EAN-13 price/weight codes (prefixes 20–29). */
import type { BarcodeRule } from '../../shared/contract/catalog.ts';

/** True when `code` is 8, 12, 13 or 14 digits with a correct GS1 check digit. */
export function isValidGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12,14})$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop() as number;
  let sum = 0;
  // From the right, excluding the check digit, weights alternate 3, 1, 3, …
  for (let i = digits.length - 1, w = 3; i >= 0; i--, w = w === 3 ? 1 : 3) sum += (digits[i] as number) * w;
  return (10 - (sum % 10)) % 10 === check;
}

/** Appends the GS1 check digit to 7, 11, 12 or 13 digits. */
export function withCheckDigit(body: string): string {
  const digits = [...body].map(Number);
  let sum = 0;
  for (let i = digits.length - 1, w = 3; i >= 0; i--, w = w === 3 ? 1 : 3) sum += (digits[i] as number) * w;
  return body + String((10 - (sum % 10)) % 10);
}

/** The default rules: 20–25 carry a weight in grams, 26–29 a price in para; 5-digit item codes. */
export const DEFAULT_BARCODE_RULES: readonly BarcodeRule[] = [
  ...['20', '21', '22', '23', '24', '25'].map((prefix) => ({ prefix, kind: 'weight' as const, codeLength: 5 })),
  ...['26', '27', '28', '29'].map((prefix) => ({ prefix, kind: 'price' as const, codeLength: 5 })),
];

/** A decoded in-store code: the item code to look up and the value it carries. */
export interface InStoreCode {
  kind: 'weight' | 'price';
  itemCode: string;
  /** Thousandths of the unit for `weight`, para for `price`. */
  value: number;
}

/**
 * Reads an EAN-13 `PP CCCCC VVVVV K` under the first rule whose prefix matches. Null when the code is
 * not a valid EAN-13 or no rule applies.
 */
export function parseInStoreCode(code: string, rules: readonly BarcodeRule[]): InStoreCode | null {
  if (code.length !== 13 || !isValidGtin(code)) return null;
  const rule = rules.find((r) => code.startsWith(r.prefix));
  if (!rule) return null;
  const start = rule.prefix.length;
  const itemCode = code.slice(start, start + rule.codeLength);
  const valueDigits = code.slice(start + rule.codeLength, 12);
  if (itemCode === '' || valueDigits === '') return null;
  return { kind: rule.kind, itemCode, value: Number(valueDigits) };
}
