/**
 * The Serbian PIB (порески идентификациони број): nine digits, the ninth a check digit computed from the first
 * eight by ISO 7064 MOD 11,10 (the hybrid system ISO/IEC 7064 names "MOD 11,10"; the Tax Administration's PIB
 * follows it, as the public `stdnum.rs.pib` validator documents). docs/goods.md cites it.
 *
 * The rule: p = 10; for each of the first eight digits d: s = (p + d) mod 10, s = 10 when it is 0, p = 2s mod 11.
 * The check digit is (11 − p) mod 10.
 */
export function pibCheckDigit(first8: string): number {
  let p = 10;
  for (const ch of first8) {
    let s = (p + Number(ch)) % 10;
    if (s === 0) s = 10;
    p = (2 * s) % 11;
  }
  return (11 - p) % 10;
}

/** Why a PIB is refused, or null when it is a valid one: `pib_format` (not 9 digits) or `pib_check`. */
export function pibProblem(pib: string): 'pib_format' | 'pib_check' | null {
  if (!/^\d{9}$/.test(pib)) return 'pib_format';
  return pibCheckDigit(pib.slice(0, 8)) === Number(pib[8]) ? null : 'pib_check';
}
