/**
 * The tills area's push: a till's batch of history events stored all or nothing, exactly once (a replay is
 * acknowledged, an altered event refused), gaps found. Each event's record goes to its area: an order
 * (hub/services/orders.ts), a shift (hub/services/shifts.ts), a person (hub/services/staff.ts).
 */
import type { z } from 'zod';
import { isDataException, type Queryable } from '../db/db.ts';
import { markDirty } from '../report-days.ts';
import { checkEventTimes, holdUnproven, tillNameRefusal, unprovenRefusal } from '../till-trust.ts';
import {
  HubError,
  OrderSnapshot,
  ShiftSnapshot,
  StaffSnapshot,
  type PushInput,
  type PushRefusal,
  type PushResult,
} from '../../shared/hub/protocol.ts';
import { gapsOf, sha256, type AuthedTill, type HubDeps } from './shared.ts';
import { claimRefusal, storeOrder } from './orders.ts';
import { storeShift } from './shifts.ts';
import { recordHubSale } from '../goods/ledger.ts';
import { pushedStaff } from './staff.ts';
import { queueSefDocument } from './sef.ts';

/** A till's history event digest: the same event always hashes the same; an altered one does not. */
export const eventDigest = (e: { kind: string; ref: string; payload: unknown }): string =>
  sha256(JSON.stringify([e.kind, e.ref, e.payload]));

/**
 * The payloads of one kind in a batch, parsed, at their events' places (null at the other kinds'); the first
 * that does not parse refuses the whole batch (400 `code`, naming the field: `events.3.payload.data.lines.0.labels`,
 * where 3 is the event's place in the batch as the till sent it).
 */
function payloads<T>(
  events: readonly { kind: string; payload: unknown }[],
  sent: readonly unknown[],
  kind: string,
  schema: z.ZodType<T>,
  code: string,
): (T | null)[] {
  return events.map((e) => {
    if (e.kind !== kind) return null;
    const parsed = schema.safeParse(e.payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = [`events.${sent.indexOf(e)}.payload`, ...(issue?.path ?? []).map(String)].join('.');
      throw new HubError(400, code, `${field}: ${issue?.message ?? 'invalid'}`, field);
    }
    return parsed.data;
  });
}

/**
 * The refusal of an event the hub took before and refused (an invoice claim, a staff change), answered again to
 * its replay (the till never got the first answer); null when it was applied.
 */
async function replayRefusal(q: Queryable, tillId: number, seq: number, place: number): Promise<PushRefusal | null> {
  const claim = await q.query<{ invoice_number: string; code: string }>(
    'SELECT invoice_number, code FROM invoice_claims WHERE till_id = $1 AND seq = $2',
    [tillId, seq],
  );
  if (claim[0])
    return claim[0].code === 'invoice_unproven'
      ? unprovenRefusal(seq, place, claim[0].invoice_number)
      : claimRefusal(seq, place, claim[0].invoice_number);
  const staff = await q.query<{ code: string; field: string; message: string }>(
    'SELECT code, field, message FROM staff_refusals WHERE till_id = $1 AND seq = $2',
    [tillId, seq],
  );
  const r = staff[0];
  return r ? { seq, code: r.code, field: `events.${place}.payload.${r.field}`, message: r.message } : null;
}

/** Why a till's status may not rename it (`status.name`), or null: another till's name, or a reserved word. */
async function renameRefusal(
  q: Queryable,
  till: AuthedTill,
  name: string | undefined,
): Promise<{ code: string; field: string; message: string } | null> {
  if (name === undefined || name === till.name) return null;
  await q.query('SELECT pg_advisory_xact_lock($1, $2)', [715_012, till.shopId]);
  const no = await tillNameRefusal(q, till.shopId, till.id, name);
  return no && { ...no, field: 'status.name' };
}

export function pushService(deps: HubDeps) {
  const { db, now, iso, zone } = deps;
  return {
    /**
     * Stores a batch of a till's events, all or nothing. An event already stored with the same digest is a
     * duplicate (acknowledged again); with another digest the batch is refused as altered. Orders are
     * upserted by (till, order number), never moved back to an older event.
     */
    async push(till: AuthedTill, input: PushInput): Promise<PushResult> {
      if (input.tillId !== till.id)
        throw new HubError(
          403,
          'till_mismatch',
          `this credential belongs to till ${till.id}, not ${input.tillId}`,
          'tillId',
        );
      const events = [...input.events].sort((a, b) => a.seq - b.seq);
      for (let i = 1; i < events.length; i++) {
        if (events[i]?.seq === events[i - 1]?.seq)
          throw new HubError(
            400,
            'batch_duplicate_seq',
            `sequence ${events[i]?.seq} twice in one batch`,
            `events.${i}.seq`,
          );
      }
      const staff = payloads(events, input.events, 'staff', StaffSnapshot, 'invalid_staff');
      const orders = payloads(events, input.events, 'order', OrderSnapshot, 'invalid_order');
      const shifts = payloads(events, input.events, 'shift', ShiftSnapshot, 'invalid_shift');
      // Every time a till sends is ISO 8601 with its offset, near the hub's clock (hub/till-trust.ts): 400 naming it.
      events.forEach((e, i) => checkEventTimes(input.events.indexOf(e), orders[i], shifts[i], now().getTime()));
      const at = iso();
      const refused: PushRefusal[] = [];
      const link = deps.sef();
      const sefSeller = link?.shopId === till.shopId ? link.seller : null;
      let sefQueued = false;
      const result = await db
        .tx(async (q) => {
          const current = await q.query<{ last_seq: number; events_floor: number }>(
            'SELECT last_seq, events_floor FROM tills WHERE id = $1 FOR UPDATE',
            [till.id],
          );
          let lastSeq = current[0]?.last_seq ?? 0;
          const floor = current[0]?.events_floor ?? 0;
          let stored = 0;
          let duplicates = 0;
          const orderTimes: string[] = [];
          for (const [i, e] of events.entries()) {
            if (e.seq <= floor) {
              // Received long ago and pruned (hub/events.ts): a replay, acknowledged; its digest is gone.
              duplicates++;
              const again = await replayRefusal(q, till.id, e.seq, input.events.indexOf(e));
              if (again) refused.push(again);
              continue;
            }
            const digest = eventDigest(e);
            // An event once (till, seq): `till_events` is partitioned by month (hub migration 16), so no unique
            // index holds it; the till's row lock taken above keeps every other push of this till out meanwhile.
            const old = await q.query<{ digest: string }>(
              'SELECT digest FROM till_events WHERE till_id = $1 AND seq = $2',
              [till.id, e.seq],
            );
            if (!old.length)
              await q.query(
                `INSERT INTO till_events (till_id, seq, kind, ref, digest, payload, received_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)`,
                [till.id, e.seq, e.kind, e.ref, digest, JSON.stringify(e.payload), at],
              );
            else {
              if (old[0]?.digest !== digest)
                throw new HubError(
                  409,
                  'batch_altered',
                  `event ${e.seq} differs from the one already stored`,
                  `events.${input.events.indexOf(e)}`,
                );
              duplicates++;
              // A replay of a refused event (the answer was lost) is answered with its refusal again.
              const again = await replayRefusal(q, till.id, e.seq, input.events.indexOf(e));
              if (again) refused.push(again);
              continue;
            }
            stored++;
            lastSeq = Math.max(lastSeq, e.seq);
            const s = staff[i];
            if (s) {
              const no = await pushedStaff(q, till, s, e.seq, input.events.indexOf(e), now);
              if (no) refused.push(no);
            }
            const o = orders[i];
            // An invoice number under another till's signer is not this till's: held as evidence, never stored.
            const unproven = o ? await holdUnproven(q, till, o, e.seq, input.events.indexOf(e), at) : null;
            if (unproven) {
              refused.push(unproven);
              continue;
            }
            if (o) {
              orderTimes.push(o.created_at);
              const claimed = await storeOrder(q, till, e, o, input.events.indexOf(e), at);
              if (claimed) refused.push(claimed);
              // Its goods move once it is fiscalized, once per order however often it is pushed (docs/goods.md).
              else {
                await recordHubSale(q, till, o, zone);
                // Its e-invoice, once, when the hub sends the shop's (docs/sef.md "Sending from the hub").
                if (await queueSefDocument(q, till, o, sefSeller, now())) sefQueued = true;
              }
            }
            const sh = shifts[i];
            if (sh) await storeShift(q, till, e, sh);
          }
          // An order of a day that may be closed already marks that day of the till to be summed again.
          await markDirty(q, zone, till.id, orderTimes, now().getTime());
          // A till's name is one till's in its shop, never a reserved word: a refused rename keeps the old name.
          const statusRefused = await renameRefusal(q, till, input.status?.name);
          // A batch taken ends the till's refused batch (an empty status-only push does not: nothing moved).
          // The till's name follows the shop's name for it (renamed at the till after enrolment too).
          await q.query(
            `UPDATE tills SET last_seq = $1, last_seen = $2, status = coalesce($3, status),
             refusal = CASE WHEN $5 THEN NULL ELSE refusal END, name = coalesce($6, name) WHERE id = $4`,
            [
              lastSeq,
              at,
              input.status ? JSON.stringify(input.status) : null,
              till.id,
              events.length > 0,
              statusRefused ? null : (input.status?.name ?? null),
            ],
          );
          const acked = events.length ? (events[events.length - 1]?.seq ?? 0) : 0;
          return {
            acked,
            stored,
            duplicates,
            gaps: await gapsOf(q, till.id),
            ...(statusRefused ? { statusRefused } : {}),
          };
        })
        .catch((err: unknown) => {
          // A value the database refuses is the batch's fault: a 400 the till keeps, never a 503 it retries.
          if (isDataException(err))
            throw new HubError(400, 'invalid_value', 'the batch holds a value the hub cannot store', 'events');
          throw err;
        });
      if (sefQueued) deps.onSefQueued();
      return refused.length ? { ...result, refused } : result;
    },
  };
}
