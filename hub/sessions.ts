/**
 * The hub UI's manager sessions, in the database (`hub_sessions`, migration 7) so a hub restart keeps them.
 * The token is 32 random bytes shown once to the browser; only its SHA-256 is stored. A session belongs to a
 * person (their id: hub migration 23), not a name: it is valid while unexpired and while that person is still an
 * active manager of the shop; it ends on logout, and a trigger ends it on any change of that person (a rename,
 * role, PIN or active flag) or their removal, so it never comes back for whoever takes the name.
 */
import crypto from 'node:crypto';
import type { HubDb } from './db/db.ts';

export const SESSION_MS = 8 * 3600_000;

export const tokenHash = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');

/** A new session for the manager; the token (returned) is never stored. */
export async function createSession(
  db: HubDb,
  who: { shopId: number; id: string; name: string },
  now: number,
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO hub_sessions (token_hash, shop_id, person_id, name, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [tokenHash(token), who.shopId, who.id, who.name, new Date(now).toISOString(), now + SESSION_MS],
  );
  // Expired sessions go as new ones come.
  await db.query('DELETE FROM hub_sessions WHERE expires_at <= $1', [now]);
  return token;
}

/** The manager a session token belongs to, or null (unknown, expired, or no longer an active manager). */
export async function sessionOf(
  db: HubDb,
  hash: string,
  now: number,
): Promise<{ shopId: number; name: string } | null> {
  const rows = await db.query<{ shop_id: number; name: string }>(
    `SELECT s.shop_id, st.name FROM hub_sessions s
       JOIN staff st ON st.shop_id = s.shop_id AND st.id = s.person_id AND st.active AND st.role = 'manager'
      WHERE s.token_hash = $1 AND s.expires_at > $2`,
    [hash, now],
  );
  const r = rows[0];
  return r ? { shopId: r.shop_id, name: r.name } : null;
}

/** Ends the session of this token hash (logout); true if there was one. */
export async function endSession(db: HubDb, hash: string): Promise<boolean> {
  return (await db.query('DELETE FROM hub_sessions WHERE token_hash = $1 RETURNING token_hash', [hash])).length > 0;
}
