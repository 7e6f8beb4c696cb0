/**
 * Tills hold verifiers, not the hub's PIN hashes (issue 39; docs/security.md, docs/hub.md "PINs at the tills").
 *
 * - Each till has a PIN key of its own (`tills.pin_key`, 32 random bytes, sent only to that till with its pull). A
 *   verifier is the scrypt of a PIN under a salt derived from that key, the till's id and the person's id
 *   (shared/node/pin-verifier.ts): valid at that till only, never the hub's hash, so it proves nothing at the hub or
 *   at another till.
 * - A verifier needs the PIN in clear, so the hub makes them when it sees one: a PIN set at the hub (hub UI, a till's
 *   approved change that carries the new PIN, a person's own change), or checked there (a hub login, a till's
 *   approval or login asked of the hub: for the asking till only, so a login waits for one scrypt, not one per till).
 *   Otherwise each is made for every enrolled (not revoked) till of the shop that lacks one, and only while the PIN
 *   checked is still the person's (a change meanwhile drops them: hub migration 25).
 * - Until a till holds a person's verifier, that person logs in there through the hub (the till asks it), and not
 *   while the hub is away, unless the till made that person's PIN hash itself (a manager made there before
 *   enrolment): it keeps that hash, which decides offline, and asks the hub with `everyTill` while it answers.
 *
 * `checkTillPin` is the hub's side of a till's PIN check: counted per till and shop BEFORE the compare, with the
 * hub login's counters (hub/attempts.ts, hub/login-throttle.ts), then compared with the shop's active people.
 */
import crypto from 'node:crypto';
import type { HubDb, Queryable } from './db/db.ts';
import type { AuthedTill } from './service.ts';
import { HubError } from '../shared/hub/protocol.ts';
import { beginLoginAttempt, loginSucceeded } from './attempts.ts';
import { approvalScopes } from './login-throttle.ts';
import { recordAudit } from './audit.ts';
import { tillActor } from './till-trust.ts';
import { verifyPin } from '../shared/node/pin.ts';
import { tillVerifier } from '../shared/node/pin-verifier.ts';

/** A person of a shop whose PIN the hub checked. */
export interface CheckedPerson {
  id: string;
  name: string;
  role: 'cashier' | 'manager';
  pinHash: string;
}

/** The till's PIN key, made at its first use (a till enrolled before hub migration 25 gets one then). */
export async function tillPinKey(q: Queryable, tillId: number): Promise<string> {
  const rows = await q.query<{ pin_key: string }>(
    'UPDATE tills SET pin_key = coalesce(pin_key, $2) WHERE id = $1 RETURNING pin_key',
    [tillId, crypto.randomBytes(32).toString('hex')],
  );
  const key = rows[0]?.pin_key;
  if (!key) throw new HubError(404, 'till_unknown', `no till ${tillId}`);
  return key;
}

/**
 * Makes the person's verifier of `pin` for every enrolled till of the shop that has none, provided `pinHash` is
 * still the person's hash (the PIN was checked against it, or it was just set from it). Each gets a new version, so
 * the till pulls it with the person.
 */
export async function makeVerifiers(
  q: Queryable,
  shopId: number,
  personId: string,
  pin: string,
  pinHash: string,
  onlyTill: number | null = null,
): Promise<void> {
  const tills = await q.query<{ id: number; pin_key: string | null }>(
    `SELECT t.id, t.pin_key FROM tills t WHERE t.shop_id = $1 AND t.revoked_at IS NULL
       AND ($3::int4 IS NULL OR t.id = $3)
       AND NOT EXISTS (SELECT 1 FROM pin_verifiers v WHERE v.till_id = t.id AND v.person_id = $2) ORDER BY t.id`,
    [shopId, personId, onlyTill],
  );
  for (const t of tills) {
    const key = t.pin_key ?? (await tillPinKey(q, t.id));
    const verifier = await tillVerifier(pin, key, t.id, personId);
    await q.query(
      `INSERT INTO pin_verifiers (till_id, shop_id, person_id, verifier, version)
       SELECT $1, $2, $3, $4, nextval('change_seq')
         WHERE EXISTS (SELECT 1 FROM staff WHERE shop_id = $2 AND id = $3 AND pin_hash = $5)
       ON CONFLICT (till_id, person_id) DO NOTHING`,
      [t.id, shopId, personId, verifier, pinHash],
    );
  }
}

/**
 * The people of a till's approved staff change that carry their new PIN (the till sends it beside the hash it made,
 * once the hub took the change): their verifiers for every till, when the PIN is the hash's.
 */
export async function verifiersOfTillChange(
  db: HubDb,
  shopId: number,
  people: readonly { id: string; pin?: string | undefined; pinHash?: string | undefined }[],
): Promise<void> {
  for (const p of people)
    if (p.pin !== undefined && p.pinHash !== undefined && (await verifyPin(p.pin, p.pinHash)))
      await makeVerifiers(db, shopId, p.id, p.pin, p.pinHash);
}

/**
 * A PIN typed at a till, asked of the hub (a login or a manager's approval while the hub is reachable, a person's own
 * PIN change): counted in the till's and the shop's scopes before the compare, then compared with the shop's active
 * people (with `personId`, that person's only: the till already named them). 429 `login_paused` while a scope is
 * locked, 401 `pin_unknown` at `pin` when nobody has it. A match takes the attempt back and makes the person's
 * verifier for the asking till when it has none (one scrypt: a login waits for it; the other tills get theirs when
 * they ask, or when the PIN is set or a hub login sees it). With `everyTill` (the till matched the PIN on a hash it
 * made itself: the hub sees this PIN in clear for the first time) every till lacking one gets it at once: one scrypt
 * per till, once, within the till's wait (past it the till decides on its own hash).
 */
export async function checkTillPin(
  db: HubDb,
  till: AuthedTill,
  pin: string,
  personId: string | undefined,
  now: number,
  onCompare?: (shopId: number) => void,
  everyTill = false,
): Promise<CheckedPerson> {
  const scopes = approvalScopes(till.id, till.shopId);
  const decision = await beginLoginAttempt(db, scopes, now);
  for (const l of decision.started)
    await recordAudit(db, {
      shopId: till.shopId,
      actor: tillActor(till),
      action: 'login_locked',
      detail: { scope: l.scope.startsWith('shop:') ? 'shop' : 'source', until: l.until },
    });
  if (decision.refusedUntil !== null) {
    const seconds = Math.max(1, Math.ceil((decision.refusedUntil - now) / 1000));
    throw new HubError(429, 'login_paused', `too many wrong PINs; try again in ${seconds} seconds`, 'pin');
  }
  onCompare?.(till.shopId);
  const people = await db.query<{ id: string; name: string; role: 'cashier' | 'manager'; pin_hash: string }>(
    `SELECT id, name, role, pin_hash FROM staff WHERE shop_id = $1 AND active AND pin_hash <> ''
       AND ($2::text IS NULL OR id = $2::text) ORDER BY name`,
    [till.shopId, personId ?? null],
  );
  let found: CheckedPerson | undefined;
  // Every hash is checked, so the time taken does not tell which one matched.
  for (const p of people)
    if ((await verifyPin(pin, p.pin_hash)) && !found)
      found = { id: p.id, name: p.name, role: p.role, pinHash: p.pin_hash };
  if (!found) throw new HubError(401, 'pin_unknown', 'pin: no active person of this shop has this PIN', 'pin');
  await loginSucceeded(db, scopes, now);
  await makeVerifiers(db, till.shopId, found.id, pin, found.pinHash, everyTill ? null : till.id);
  return found;
}

/** This till's verifier of a person, once made (the answer to a till's own PIN change, so it need not wait). */
export async function verifierAt(q: Queryable, tillId: number, personId: string): Promise<string | null> {
  const rows = await q.query<{ verifier: string }>(
    'SELECT verifier FROM pin_verifiers WHERE till_id = $1 AND person_id = $2',
    [tillId, personId],
  );
  return rows[0]?.verifier ?? null;
}
