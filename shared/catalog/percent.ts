/**
 * A percentage as a person types it for a bulk price change, read into hundredths of a percent (the unit of
 * shared/catalog/price-change.ts): `5`, `+5`, `-2,5`, `−12,25 %` (a Serbian decimal comma or a point, an
 * optional sign — the typographic minus too — and percent sign). At most two decimals; anything else
 * (letters, two commas, an empty field) is null, for the form to say so at the field.
 */
export function parsePercentInput(text: string): number | null {
  const m = /^([+\-\u2212]?)(\d{1,5})(?:[.,](\d{1,2}))?$/.exec(text.replace(/\s+/g, '').replace(/%$/, ''));
  if (!m) return null;
  const [, sign = '', whole = '0', fraction = ''] = m;
  const bp = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return sign === '' || sign === '+' ? bp : -bp;
}

/** Hundredths of a percent as the UI shows them: 500 -> "+5", -1250 -> "−12,5" (`decimal`: the language's mark). */
export function formatPercent(bp: number, decimal = ','): string {
  const abs = Math.abs(bp);
  const fraction =
    abs % 100 === 0
      ? ''
      : `${decimal}${String(abs % 100)
          .padStart(2, '0')
          .replace(/0$/, '')}`;
  return `${bp < 0 ? '\u2212' : '+'}${Math.floor(abs / 100)}${fraction}`;
}
