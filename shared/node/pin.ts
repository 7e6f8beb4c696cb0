/**
 * PIN hashing for the till and the hub: a PIN is stored only as `scrypt$<salt>$<hash>` (node:crypto scrypt,
 * 16-byte random salt per PIN) and compared with `timingSafeEqual`.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEYLEN = 32;

/**
 * scrypt's cost, log2 of N: 14 (N = 16384, r = 8: 16 MiB and about 60 ms of one core per PIN here), for every PIN the
 * till and the hub store or check. `KASA_TEST_PIN_COST` (10 to 13) lowers it for a test run only: the tests hash and
 * check some 3,500 PINs in their processes (tills, hubs, the test itself), which at 14 was a quarter of vitest's CPU.
 * It is read once per process and every process of a test run inherits it, so a hash is always checked at the cost it
 * was made with; the hash does not state its cost, and a till or hub never started with the variable keeps 14. It is
 * the practice of lowering bcrypt's cost in test environments: the same code, the same scrypt, a smaller N.
 */
export const PIN_COST_LOG2 = ((): number => {
  const raw = process.env.KASA_TEST_PIN_COST;
  if (raw === undefined || raw === '') return 14;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 10 || n > 13) throw new Error(`KASA_TEST_PIN_COST must be 10 to 13, not ${raw}`);
  return n;
})();

/** scrypt of `pin` under `salt` at this process's cost: the PIN hashes here, the till verifiers (pin-verifier.ts). */
export function scryptPin(pin: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(pin, salt, KEYLEN, { N: 2 ** PIN_COST_LOG2, r: 8, p: 1 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$<salt hex>$<hash hex>` of `pin` with a fresh random salt. */
export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptPin(pin, salt);
  return `scrypt$${salt.toString('hex')}$${hash.toString('hex')}`;
}

/** True when `pin` matches `stored` (constant-time comparison of the derived keys). */
export async function verifyPin(pin: string, stored: string): Promise<boolean> {
  const [scheme, saltHex, hashHex] = stored.split('$');
  if (scheme !== 'scrypt' || !saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, 'hex');
  const actual = await scryptPin(pin, Buffer.from(saltHex, 'hex'));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
