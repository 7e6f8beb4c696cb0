/**
 * PIN hashing for the till and the hub: a PIN is stored only as `scrypt$<salt>$<hash>` (node:crypto scrypt,
 * 16-byte random salt per PIN) and compared with `timingSafeEqual`.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEYLEN = 32;

function scryptAsync(pin: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(pin, salt, KEYLEN, { N: 16384, r: 8, p: 1 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$<salt hex>$<hash hex>` of `pin` with a fresh random salt. */
export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(pin, salt);
  return `scrypt$${salt.toString('hex')}$${hash.toString('hex')}`;
}

/** True when `pin` matches `stored` (constant-time comparison of the derived keys). */
export async function verifyPin(pin: string, stored: string): Promise<boolean> {
  const [scheme, saltHex, hashHex] = stored.split('$');
  if (scheme !== 'scrypt' || !saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, 'hex');
  const actual = await scryptAsync(pin, Buffer.from(saltHex, 'hex'));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
