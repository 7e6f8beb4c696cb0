/**
 * A shop's enrolment codes (issue 39): minted on request only (the hub UI's manager, `npm run hub -- enrol-code`),
 * never at a hub's start, and listed and revoked by a manager of the shop or the admin token. A code is named by
 * its id (hub migration 24), never by the code or its hash; a revoked code is refused at enrolment
 * (403 `enrol_code_revoked`) like a used or an expired one.
 */
import type { Queryable } from './db/db.ts';
import { newestOfShop } from './db/shop-scope.ts';
import type { EnrolCodeRow, EnrolCodeState } from '../shared/hub/contract/results.ts';

// The wire shapes live in the hub's contract (shared/hub/contract/results.ts).
export type { EnrolCodeRow, EnrolCodeState };

/** A code's state at `now` (epoch ms): revoked and used win over expired. */
export function enrolCodeState(
  r: { used_at: string | null; revoked_at: string | null; expires_at: number },
  now: number,
) {
  if (r.revoked_at !== null) return 'revoked' as const;
  if (r.used_at !== null) return 'used' as const;
  return Number(r.expires_at) <= now ? ('expired' as const) : ('open' as const);
}

/** The shop's codes (every shop's with `shopId` null), newest first, at most `limit`. */
export async function listEnrolCodes(
  q: Queryable,
  shopId: number | null,
  now: number,
  limit = 100,
): Promise<EnrolCodeRow[]> {
  const rows = await newestOfShop<{
    id: number;
    shop_id: number;
    created_at: string;
    expires_at: number;
    used_at: string | null;
    till_id: number | null;
    revoked_at: string | null;
  }>(q, 'enrol_codes', 'id, shop_id, created_at, expires_at, used_at, till_id, revoked_at', shopId, limit);
  return rows.map((r) => ({
    id: Number(r.id),
    shopId: r.shop_id,
    createdAt: r.created_at,
    expiresAt: new Date(Number(r.expires_at)).toISOString(),
    usedAt: r.used_at,
    tillId: r.till_id,
    revokedAt: r.revoked_at,
    state: enrolCodeState(r, now),
  }));
}

/**
 * Revokes an unspent code of the shop (`shopId` null: the admin token, any shop). The code's shop, or null when
 * there is no such code there; a used code stays used (its till is revoked at the till list instead).
 */
export async function revokeEnrolCode(
  q: Queryable,
  id: number,
  shopId: number | null,
  at: string,
): Promise<{ shopId: number; state: EnrolCodeState } | null> {
  const rows = await q.query<{
    shop_id: number;
    used_at: string | null;
    revoked_at: string | null;
    expires_at: number;
  }>(
    `UPDATE enrol_codes SET revoked_at = coalesce(revoked_at, $1)
      WHERE id = $2 AND ($3::int4 IS NULL OR shop_id = $3) AND used_at IS NULL
      RETURNING shop_id, used_at, revoked_at, expires_at`,
    [at, id, shopId],
  );
  const r = rows[0];
  if (r) return { shopId: r.shop_id, state: 'revoked' };
  const used = await q.query<{ shop_id: number }>(
    'SELECT shop_id FROM enrol_codes WHERE id = $1 AND ($2::int4 IS NULL OR shop_id = $2)',
    [id, shopId],
  );
  return used[0] ? { shopId: used[0].shop_id, state: 'used' } : null;
}
