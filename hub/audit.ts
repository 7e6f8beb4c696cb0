/**
 * The hub's audit log (`hub_audit`, migration 9): admin and manager actions at the hub, shown in the hub UI.
 * A detail holds names, ids and counts, never a secret (PIN, PIN hash, token, credential, enrolment code).
 */
import type { HubDb, Queryable } from './db/db.ts';
import { newestOfShop } from './db/shop-scope.ts';
import type { HubAuditAction, HubAuditEntry } from '../shared/contract/hub.ts';

export type { HubAuditAction, HubAuditEntry } from '../shared/contract/hub.ts';

/** Records one action (`shopId` null: the chain's, seen by the admin token only). */
export async function recordAudit(
  db: Queryable,
  entry: Omit<HubAuditEntry, 'id' | 'at'>,
  now: number = Date.now(),
): Promise<void> {
  await db.query('INSERT INTO hub_audit (at, shop_id, actor, action, detail) VALUES ($1, $2, $3, $4, $5)', [
    new Date(now).toISOString(),
    entry.shopId,
    entry.actor,
    entry.action,
    JSON.stringify(entry.detail),
  ]);
}

/** The newest entries first: of one shop (a manager), or of the whole chain (the admin token, `shopId` null). */
export async function listAudit(db: HubDb, shopId: number | null, limit = 200): Promise<HubAuditEntry[]> {
  const rows = await newestOfShop<{
    id: number;
    at: string;
    shop_id: number | null;
    actor: string;
    action: HubAuditAction;
    detail: HubAuditEntry['detail'];
  }>(db, 'hub_audit', 'id, at, shop_id, actor, action, detail', shopId, limit);
  return rows.map((r) => ({
    id: Number(r.id),
    at: r.at,
    shopId: r.shop_id,
    actor: r.actor,
    action: r.action,
    detail: r.detail,
  }));
}
