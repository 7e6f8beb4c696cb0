/** The tills area's live status: every till's last push, queues, gaps and alarms, and what ends an alarm. */
import { tillLive, type TillLive } from '../reports.ts';
import { TillRefusal, TillStatus } from '../../shared/hub/protocol.ts';
import { gapsOf, type AuthedTill, type HubDeps } from './shared.ts';

/** Text safe to store whatever a refusal quoted (a NUL or a lone surrogate becomes U+FFFD). */
const storable = (s: string): string => s.replace(/\0/g, '\uFFFD').replace(LONE_SURROGATES, '\uFFFD');
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function tillStatusService(deps: HubDeps) {
  const { db, iso } = deps;
  return {
    /**
     * Records that a till's batch was refused whole (its `batch_refused` alarm until a later batch is taken).
     * Only what the refusal says is kept: never the batch.
     */
    async noteRefusal(
      till: AuthedTill,
      refusal: { status: number; code: string; field?: string | undefined; message: string },
    ): Promise<void> {
      const note = {
        at: iso(),
        status: refusal.status,
        code: storable(refusal.code).slice(0, 60),
        field: storable(refusal.field ?? '').slice(0, 200),
        message: storable(refusal.message).slice(0, 300),
      };
      await db.query('UPDATE tills SET refusal = $1 WHERE id = $2', [JSON.stringify(note), till.id]);
    },

    /** Clears a till's refused invoice claims once a manager has looked (its `invoice_claimed` alarm ends). */
    async clearClaims(tillId: number, shopId: number | null): Promise<number> {
      const r = await db.query(
        `UPDATE invoice_claims SET cleared_at = $1 WHERE till_id = $2 AND cleared_at IS NULL
           AND ($3::int4 IS NULL OR shop_id = $3) RETURNING id`,
        [iso(), tillId, shopId],
      );
      return r.length;
    },

    /** Every till of a shop (of the chain without `shopId`), live: last seen, reported queues, gaps, alarms. */
    async tillStatus(shopId?: number, now = Date.now()): Promise<TillLive[]> {
      const tills = await db.query<{
        id: number;
        shop_id: number;
        name: string;
        last_seen: string | null;
        status: unknown;
        refusal: unknown;
        revoked_at: string | null;
      }>(
        'SELECT id, shop_id, name, last_seen, status, refusal, revoked_at FROM tills WHERE ($1::int4 IS NULL OR shop_id = $1) ORDER BY id',
        [shopId ?? null],
      );
      const claims = await db.query<{
        till_id: number;
        seq: number;
        order_number: string;
        invoice_number: string;
        holder_till_id: number | null;
        holder_order_number: string | null;
        at: string;
        code: string;
      }>(
        `SELECT c.till_id, c.seq, c.order_number, c.invoice_number, c.holder_till_id, c.holder_order_number, c.at, c.code
           FROM invoice_claims c JOIN tills t ON t.id = c.till_id
          WHERE c.cleared_at IS NULL AND ($1::int4 IS NULL OR t.shop_id = $1) ORDER BY c.id`,
        [shopId ?? null],
      );
      const out: TillLive[] = [];
      for (const t of tills) {
        const status = TillStatus.safeParse(t.status);
        const refusal = TillRefusal.safeParse(t.refusal);
        out.push(
          tillLive(
            {
              tillId: t.id,
              name: t.name,
              shopId: t.shop_id,
              lastSeen: t.last_seen,
              status: status.success ? status.data : null,
              gaps: await gapsOf(db, t.id),
              refusal: refusal.success ? refusal.data : null,
              revoked: t.revoked_at !== null,
              claims: claims
                .filter((c) => c.till_id === t.id)
                .map((c) => ({
                  seq: c.seq,
                  orderNumber: c.order_number,
                  invoiceNumber: c.invoice_number,
                  holderTillId: c.holder_till_id,
                  holderOrderNumber: c.holder_order_number,
                  at: c.at,
                  code: c.code,
                })),
            },
            now,
          ),
        );
      }
      return out;
    },
  };
}
