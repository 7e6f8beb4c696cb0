/**
 * A PIN verifier made for one till only (issue 39): `tv1$<hex>`, the scrypt of the PIN (the parameters of
 * shared/node/pin.ts) under a salt that is not stored with it but derived from the till's own link to the hub: an
 * HMAC-SHA256 of the till's id and the person's id under the till's PIN key (32 random bytes the hub keeps per till
 * and sends only to that till). The hub makes verifiers when it sees a PIN in clear (set or checked there); a till
 * holds its own verifiers instead of the hub's PIN hashes.
 *
 * What it gives: a verifier copied to another till (another key, another till id) or shown to the hub proves nothing
 * there; it is not the hub's hash. What it cannot give: a till verifies PINs offline, so whoever holds that till's
 * data can still search its own verifiers offline like any offline PIN store (docs/security.md says so).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { scryptPin } from './pin.ts';

const PREFIX = 'tv1$';

/** Whether a stored PIN credential is a till verifier (else a `scrypt$` hash made at the till itself, or none). */
export const isTillVerifier = (stored: string): boolean => stored.startsWith(PREFIX);

function saltOf(pinKey: string, tillId: number, personId: string): Buffer {
  return createHmac('sha256', Buffer.from(pinKey, 'hex')).update(`kasa-till-pin|${tillId}|${personId}`).digest();
}

/** The verifier of `pin` for one person at one till. */
export async function tillVerifier(pin: string, pinKey: string, tillId: number, personId: string): Promise<string> {
  return PREFIX + (await scryptPin(pin, saltOf(pinKey, tillId, personId))).toString('hex');
}

/** True when `pin` matches `stored`, a verifier made for this till (`pinKey`, `tillId`) and this person. */
export async function verifyTillVerifier(
  pin: string,
  stored: string,
  pinKey: string,
  tillId: number,
  personId: string,
): Promise<boolean> {
  if (!isTillVerifier(stored) || !/^[0-9a-f]{64}$/.test(pinKey)) return false;
  const expected = Buffer.from(stored.slice(PREFIX.length), 'hex');
  const actual = await scryptPin(pin, saltOf(pinKey, tillId, personId));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
