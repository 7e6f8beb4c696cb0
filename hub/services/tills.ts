/** The tills area: enrolment codes, enrolment, a till's credential, its authentication and its revocation. */
import crypto from 'node:crypto';
import type { Queryable } from '../db/db.ts';
import { listEnrolCodes, revokeEnrolCode, type EnrolCodeRow, type EnrolCodeState } from '../enrol-codes.ts';
import { tillNameRefusal } from '../till-trust.ts';
import { HubError } from '../../shared/hub/protocol.ts';
import { sha256, type AuthedTill, type HubDeps } from './shared.ts';

const CRED_PREFIX = 'kh1';

async function tillById(
  q: Queryable,
  id: number,
): Promise<(AuthedTill & { cred_hash: string; last_seq: number; revoked: boolean }) | undefined> {
  const rows = await q.query<{
    id: number;
    shop_id: number;
    name: string;
    cred_hash: string;
    last_seq: number;
    revoked_at: string | null;
  }>('SELECT id, shop_id, name, cred_hash, last_seq, revoked_at FROM tills WHERE id = $1', [id]);
  const r = rows[0];
  return (
    r && {
      id: r.id,
      shopId: r.shop_id,
      name: r.name,
      cred_hash: r.cred_hash,
      last_seq: r.last_seq,
      revoked: r.revoked_at !== null,
    }
  );
}

export function tillsService(deps: HubDeps) {
  const { db, now, iso, codeTtl } = deps;
  return {
    /** A new one-time enrolment code for `shopId` (only its hash is stored), spendable until it expires. */
    async newEnrolCode(shopId: number): Promise<string> {
      const shop = await db.query('SELECT 1 FROM shops WHERE id = $1', [shopId]);
      if (!shop.length) throw new HubError(404, 'shop_unknown', `no shop ${shopId}`, 'shopId');
      const code = crypto.randomBytes(9).toString('base64url');
      await db.query('INSERT INTO enrol_codes (code_hash, shop_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
        sha256(code),
        shopId,
        iso(),
        now().getTime() + codeTtl,
      ]);
      return code;
    },

    /** The shop's enrolment codes, newest first (every shop's with null): never a code or its hash. */
    enrolCodes(shopId: number | null): Promise<EnrolCodeRow[]> {
      return listEnrolCodes(db, shopId, now().getTime());
    },

    /** Revokes an unspent enrolment code (hub/enrol-codes.ts); null when the shop has no such code. */
    revokeEnrolCode(id: number, shopId: number | null): Promise<{ shopId: number; state: EnrolCodeState } | null> {
      return revokeEnrolCode(db, id, shopId, iso());
    },

    /**
     * Spends an enrolment code once: a new till in the code's shop and its credential (shown only here).
     * An unknown, used or expired code is refused (403, naming `code`).
     */
    async enrol(code: string, name: string): Promise<{ tillId: number; shopId: number; credential: string }> {
      return db.tx(async (q) => {
        const rows = await q.query<{
          shop_id: number;
          used_at: string | null;
          expires_at: number;
          revoked_at: string | null;
        }>('SELECT shop_id, used_at, expires_at, revoked_at FROM enrol_codes WHERE code_hash = $1 FOR UPDATE', [
          sha256(code),
        ]);
        const row = rows[0];
        if (!row) throw new HubError(403, 'enrol_code_unknown', 'unknown enrolment code', 'code');
        if (row.revoked_at)
          throw new HubError(403, 'enrol_code_revoked', 'this enrolment code was revoked at the hub', 'code');
        if (row.used_at) throw new HubError(403, 'enrol_code_used', 'this enrolment code was already used', 'code');
        if (row.expires_at <= now().getTime())
          throw new HubError(403, 'enrol_code_expired', 'this enrolment code has expired; ask for a new one', 'code');
        // A till's name is one till's in its shop and never a reserved word (the audit names tills by it): a
        // reserved one is refused; another till's gets the new till's id (`Каса 1 (#8)`), so enrolment goes on.
        await q.query('SELECT pg_advisory_xact_lock($1, $2)', [715_012, row.shop_id]);
        const badName = await tillNameRefusal(q, row.shop_id, null, name);
        if (badName?.code === 'till_name_reserved') throw new HubError(400, badName.code, badName.message, 'name');
        const secret = crypto.randomBytes(32).toString('base64url');
        const till = await q.query<{ id: number }>(
          'INSERT INTO tills (shop_id, name, cred_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
          [row.shop_id, name, sha256(secret), iso()],
        );
        const tillId = till[0]?.id ?? 0;
        if (badName) await q.query('UPDATE tills SET name = $1 WHERE id = $2', [`${name} (#${tillId})`, tillId]);
        await q.query('UPDATE enrol_codes SET used_at = $1, till_id = $2 WHERE code_hash = $3', [
          iso(),
          tillId,
          sha256(code),
        ]);
        return { tillId, shopId: row.shop_id, credential: `${CRED_PREFIX}.${tillId}.${secret}` };
      });
    },

    /**
     * Revokes a till's credential (a lost or stolen till): every till route refuses it from then on. A
     * manager revokes only a till of their shop (`shopId`; null for the admin token). Null: no such till.
     */
    async revokeTill(tillId: number, shopId: number | null): Promise<{ shopId: number; name: string } | null> {
      const r = await db.query<{ shop_id: number; name: string }>(
        `UPDATE tills SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2 AND ($3::int4 IS NULL OR shop_id = $3)
         RETURNING shop_id, name`,
        [iso(), tillId, shopId],
      );
      return r[0] ? { shopId: r[0].shop_id, name: r[0].name } : null;
    },

    /** The till an `Authorization: Bearer kh1.<till>.<secret>` header proves, or a 401. */
    async authenticate(header: string | undefined): Promise<AuthedTill> {
      const m = /^Bearer kh1\.(\d{1,9})\.([A-Za-z0-9_-]{20,100})$/.exec(header ?? '');
      if (!m) throw new HubError(401, 'unauthenticated', 'a till credential is required');
      const till = await tillById(db, Number(m[1]));
      const given = Buffer.from(sha256(m[2] ?? ''));
      if (!till || !crypto.timingSafeEqual(given, Buffer.from(till.cred_hash))) {
        throw new HubError(401, 'unauthenticated', 'unknown till credential');
      }
      if (till.revoked) throw new HubError(403, 'till_revoked', 'this till was revoked at the hub; enrol it again');
      return { id: till.id, shopId: till.shopId, name: till.name };
    },
  };
}
