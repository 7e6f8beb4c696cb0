/**
 * Money and quantity arithmetic. Inside Kasa money is integer para (1/100 RSD) and quantities are
 * integer thousandths; decimal numbers exist only at the gateway edge and in the contract's input.
 */

/** Integer para (1/100 RSD). */
export type Para = number;
/** Integer thousandths of a unit (1 piece = 1000, 0.250 kg = 250). */
export type Milli = number;

const DECIMAL_RE = /^-?\d+(?:\.\d+)?$/;

/** Scales a decimal to an integer with `places` decimals, or returns null if it has more decimals. */
function scaleExact(value: number | string, places: number): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // Binary floats: accept only values within rounding noise of an exact multiple (0.1 + 0.2 is 0.30).
    const scaled = value * 10 ** places;
    const rounded = Math.round(scaled);
    if (Math.abs(scaled - rounded) > 1e-9 * Math.max(1, Math.abs(scaled))) return null;
    return Number.isSafeInteger(rounded) ? rounded + 0 : null;
  }
  const text = value.trim();
  if (!DECIMAL_RE.test(text)) return null;
  const negative = text.startsWith('-');
  const [intPart = '0', fracPart = ''] = (negative ? text.slice(1) : text).split('.');
  const frac = fracPart.replace(/0+$/, '');
  if (frac.length > places) return null;
  const scaled = Number(intPart) * 10 ** places + Number(frac.padEnd(places, '0') || '0');
  if (!Number.isSafeInteger(scaled)) return null;
  return negative ? -scaled : scaled;
}

/** Decimal RSD (e.g. 12.5 or "12.50") to para; null when it has more than 2 decimals or is not a number. */
export function toPara(value: number | string): Para | null {
  return scaleExact(value, 2);
}

/** Decimal quantity (e.g. 0.25) to thousandths; null when it has more than 3 decimals. */
export function toMilli(value: number | string): Milli | null {
  return scaleExact(value, 3);
}

/** Para to the gateway's decimal number (1234 -> 12.34). Exact for every safe integer of para. */
export function paraToDecimal(para: Para): number {
  return Number((para / 100).toFixed(2));
}

/** Thousandths to a decimal number (1500 -> 1.5). */
export function milliToDecimal(milli: Milli): number {
  return Number((milli / 1000).toFixed(3));
}

/** Rounds a/b to the nearest integer, halves away from zero (the rounding fiscal receipts use). */
export function roundDiv(a: number, b: number): number {
  const q = Math.abs(a) / Math.abs(b);
  const r = Math.floor(q + 0.5 + 1e-9);
  return Math.sign(a) * Math.sign(b) < 0 ? -r : r;
}

/** A line's total: unit price x quantity, rounded to para, less the discount (para). */
export function lineTotal(unitPrice: Para, quantity: Milli, discount: Para = 0): Para {
  return roundDiv(unitPrice * quantity, 1000) - discount;
}

/**
 * Tax contained in a VAT-inclusive amount at `ratePercent` (e.g. 20 or 0.5), rounded to para.
 * amount * rate / (100 + rate).
 */
export function includedTax(amount: Para, ratePercent: number): Para {
  const rateMilli = Math.round(ratePercent * 1000);
  return roundDiv(amount * rateMilli, 100_000 + rateMilli);
}

/** Formats para as Serbian RSD text: 123456 -> "1.234,56". */
export function formatRsd(para: Para): string {
  const negative = para < 0;
  const abs = Math.abs(Math.round(para));
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const cents = (abs % 100).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole},${cents}`;
}

/** Formats thousandths as a quantity: 1000 -> "1", 1250 -> "1,25", 333 -> "0,333". */
export function formatQuantity(milli: Milli): string {
  const negative = milli < 0;
  const abs = Math.abs(milli);
  const whole = Math.floor(abs / 1000);
  const frac = (abs % 1000).toString().padStart(3, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? ',' + frac : ''}`;
}

/**
 * Parses what a cashier types as money: "1.234,56", "1234,56", "1234.56", "12". Returns null if it
 * is not a valid amount with at most 2 decimals.
 */
export function parseRsdInput(text: string): Para | null {
  const t = text.trim().replace(/\s/g, '');
  if (t === '') return null;
  let normalized = t;
  if (t.includes(',')) normalized = t.replace(/\./g, '').replace(',', '.');
  return toPara(normalized);
}

/** Parses a typed quantity: "1", "0,250", "1.5". Null when invalid or more than 3 decimals. */
export function parseQuantityInput(text: string): Milli | null {
  const t = text.trim().replace(',', '.');
  if (t === '') return null;
  return toMilli(t);
}
