/**
 * Serbian buyer IDs on receipts: `10:` + PIB (tax id, 9 digits, ISO 7064 MOD 11,10 check digit) and
 * `11:` + JMBG (personal id, 13 digits, modulo-11 control digit). Other `NN:` types are passed through.
 */

/** True when a 9-digit PIB's last digit is its ISO 7064 MOD 11,10 check digit. */
export function isValidPib(pib: string): boolean {
  if (!/^\d{9}$/.test(pib)) return false;
  let p = 10;
  for (let i = 0; i < 8; i++) {
    let s = (Number(pib[i]) + p) % 10;
    if (s === 0) s = 10;
    p = (2 * s) % 11;
  }
  return (11 - p) % 10 === Number(pib[8]);
}

/** True when a 13-digit JMBG's last digit is its modulo-11 control digit. */
export function isValidJmbg(jmbg: string): boolean {
  if (!/^\d{13}$/.test(jmbg)) return false;
  const d = [...jmbg].map(Number) as number[];
  const w = [7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = w.reduce((acc, weight, i) => acc + weight * (d[i] as number), 0);
  let k = 11 - (sum % 11);
  if (k > 9) k = 0;
  return k === d[12];
}

/** A buyer ID in the gateway's `type:identifier` form: PIB and JMBG checked, other types by shape. */
export function isValidBuyerId(value: string): boolean {
  const m = /^(\d{2}):(\S{1,30})$/.exec(value);
  if (!m) return false;
  const [, type, id = ''] = m;
  if (type === '10') return isValidPib(id);
  if (type === '11') return isValidJmbg(id);
  return Number(type) >= 12;
}
