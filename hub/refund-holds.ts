/**
 * Refund holds (#25): two tills refunding the same lines of one sale while both reach the hub cannot together
 * refund more than was sold. A till holds the lines here before it captures a refund; the hub answers in one
 * transaction, serialized per sale by an advisory lock, whether the lines are still there: sold, minus the
 * refunds of it the tills pushed that count (issue 39, hub/till-trust.ts `countedRefund`: fiscalized, or made
 * under a live hold), minus the other tills' holds not yet matched by a pushed refund. A hold stays until its
 * refund is fiscalized (or it lapses): while the refund waits for the gateway, the hold is what makes it count.
 * The first till gets the hold, the second is refused with what is left. A pushed refund names its hold
 * (`refundOf.holdId`), so it is never counted twice; a hold whose refund never came (a till that died between
 * hold and capture) lapses after {@link HOLD_TTL_HOURS}.
 *
 * A till that cannot reach the hub still refunds its own sales (the shop keeps working, and its own refunds are
 * checked on the till); only a refund made there while another till refunds the same sale can then go over.
 */
import { z } from 'zod';
import type { HubDb, Queryable } from './db/db.ts';
import type { AuthedTill } from './service.ts';
import type { RefundHoldInput, RefundHoldResult } from '../shared/hub/protocol.ts';
import { countedRefund } from './till-trust.ts';

/** How long a hold without its pushed refund keeps its lines. */
export const HOLD_TTL_HOURS = 24;
/** The advisory lock class of refund holds (the second key is the sale's invoice number, hashed). */
const HOLD_LOCK = 715_010;

const SoldLines = z.object({ lines: z.array(z.looseObject({ quantityMilli: z.number().int().nonnegative() })) });
const TakenLines = z.object({
  full: z.boolean().optional(),
  lines: z.array(z.object({ index: z.number().int().nonnegative(), quantityMilli: z.number().int().positive() })),
});

/** Per line of the sale, what the tills took back: pushed refunds and live holds (except `exceptHold`). */
async function takenOf(
  q: Queryable,
  shopId: number,
  invoiceNumber: string,
  sold: readonly number[],
  exceptHold: string | null,
): Promise<number[]> {
  const taken = sold.map(() => 0);
  const add = (raw: unknown): void => {
    const t = TakenLines.safeParse(raw);
    if (!t.success) return;
    if (t.data.full) sold.forEach((qty, i) => (taken[i] = (taken[i] ?? 0) + qty));
    else
      for (const l of t.data.lines)
        if (l.index < taken.length) taken[l.index] = (taken[l.index] ?? 0) + l.quantityMilli;
  };
  const refunds = await q.query<{ refund_of: unknown }>(
    `SELECT o.data->'refundOf' AS refund_of FROM orders o
      WHERE o.shop_id = $1 AND o.kind IN ('refund', 'refund_full') AND o.data->'refundOf'->>'invoiceNumber' = $2
        AND ${countedRefund('o')}`,
    [shopId, invoiceNumber],
  );
  for (const r of refunds) add(r.refund_of);
  const holds = await q.query<{ full_refund: boolean; lines: unknown }>(
    `SELECT h.full_refund, h.lines FROM refund_holds h
      WHERE h.shop_id = $1 AND h.invoice_number = $2 AND h.hold_id IS DISTINCT FROM $3
        AND h.created_at > now() - make_interval(hours => $4)
        AND NOT EXISTS (SELECT 1 FROM orders r WHERE r.shop_id = h.shop_id AND r.kind IN ('refund', 'refund_full')
                          AND r.data->'refundOf'->>'invoiceNumber' = h.invoice_number
                          AND r.data->'refundOf'->>'holdId' = h.hold_id)`,
    [shopId, invoiceNumber, exceptHold, HOLD_TTL_HOURS],
  );
  for (const h of holds) add({ full: h.full_refund, lines: h.lines });
  return taken;
}

/** The quantities the sale with `invoiceNumber` sold per line, or null when the hub has not been told of it. */
async function soldOf(q: Queryable, shopId: number, invoiceNumber: string): Promise<number[] | null> {
  const rows = await q.query<{ data: unknown }>(
    `SELECT data FROM orders WHERE shop_id = $1 AND invoice_number = $2 AND kind IN ('sale', 'finalize') LIMIT 1`,
    [shopId, invoiceNumber],
  );
  const d = rows[0] ? SoldLines.safeParse(rows[0].data) : null;
  return d?.success ? d.data.lines.map((l) => l.quantityMilli) : null;
}

/**
 * Holds `input`'s lines of a sale for the asking till, or refuses with what is left. A sale the hub has not been
 * told of yet (the till's own, not pushed) is held unchecked: no other till can have found it through the hub.
 * The same hold again is answered as before (a retried request).
 */
export async function holdRefund(db: HubDb, till: AuthedTill, input: RefundHoldInput): Promise<RefundHoldResult> {
  return db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
      HOLD_LOCK,
      `${till.shopId}:${input.invoiceNumber}`,
    ]);
    const again = await q.query<{ till_id: number }>(
      'SELECT till_id FROM refund_holds WHERE shop_id = $1 AND hold_id = $2',
      [till.shopId, input.holdId],
    );
    if (again[0]) return { held: again[0].till_id === till.id };
    const sold = await soldOf(q, till.shopId, input.invoiceNumber);
    if (sold) {
      const taken = await takenOf(q, till.shopId, input.invoiceNumber, sold, input.holdId);
      const wanted = sold.map(() => 0);
      if (input.full) sold.forEach((qty, i) => (wanted[i] = qty));
      else
        for (const l of input.lines)
          if (l.index < wanted.length) wanted[l.index] = (wanted[l.index] ?? 0) + l.quantityMilli;
      const unknownLine = !input.full && input.lines.some((l) => l.index >= sold.length);
      const over = sold.some((qty, i) => (wanted[i] ?? 0) > 0 && (taken[i] ?? 0) + (wanted[i] ?? 0) > qty);
      const fullAfterAny = input.full && taken.some((t) => t > 0);
      if (unknownLine || over || fullAfterAny)
        return {
          held: false,
          remaining: sold.map((qty, index) => ({ index, quantityMilli: Math.max(0, qty - (taken[index] ?? 0)) })),
        };
    }
    await q.query(
      `INSERT INTO refund_holds (shop_id, hold_id, till_id, invoice_number, full_refund, lines)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
      [till.shopId, input.holdId, till.id, input.invoiceNumber, input.full, JSON.stringify(input.lines)],
    );
    return { held: true };
  });
}

/** Lets a hold go (the till did not capture the refund after all); only the till that made it may. */
export async function releaseRefund(db: HubDb, till: AuthedTill, holdId: string): Promise<void> {
  await db.query('DELETE FROM refund_holds WHERE shop_id = $1 AND hold_id = $2 AND till_id = $3', [
    till.shopId,
    holdId,
    till.id,
  ]);
}

/** Drops lapsed holds and those whose refund arrived (called with the hub's other pruning). */
export async function pruneRefundHolds(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM refund_holds h
        WHERE h.created_at <= now() - make_interval(hours => $1)
           OR EXISTS (SELECT 1 FROM orders r WHERE r.shop_id = h.shop_id AND r.kind IN ('refund', 'refund_full')
                        AND r.data->'refundOf'->>'invoiceNumber' = h.invoice_number
                        AND r.data->'refundOf'->>'holdId' = h.hold_id AND r.state = 'fiscalized')
        RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [HOLD_TTL_HOURS],
  );
  return rows[0]?.n ?? 0;
}
