/**
 * Pruning a till's acknowledged history (#25). An event is in `till_events` so the hub can tell a replay from an
 * altered batch, find gaps and keep evidence of a refused invoice claim. Once every event up to a sequence was
 * received (no gap below it) and is older than the keep period (`KASA_HUB_EVENTS_KEEP_DAYS`, default 30), those
 * rows are deleted and the till's `events_floor` moves up to it: the orders, shifts and staff they carried stay
 * in their own tables, a replay at or below the floor is acknowledged as a duplicate, gaps are looked for
 * above it. Events an invoice claim refers to are kept. A month of `till_events` (hub migration 16) left empty
 * and over before the keep period is dropped as a whole table (hub/partitions.ts).
 */
import type { HubDb } from './db/db.ts';
import { dropEmptyEventMonths } from './partitions.ts';

export const DEFAULT_EVENTS_KEEP_DAYS = 30;

/** Prunes every till's events received before `now - keepMs` below its first gap. Returns the rows deleted. */
export async function pruneEvents(db: HubDb, keepMs: number, now: number = Date.now()): Promise<number> {
  const cutoff = new Date(now - keepMs).toISOString();
  const tills = await db.query<{ id: number }>('SELECT id FROM tills ORDER BY id');
  let deleted = 0;
  for (const { id } of tills) {
    deleted += await db.tx(async (q) => {
      // The till's row lock: no push of this till runs meanwhile.
      const t = await q.query<{ floor: number }>('SELECT events_floor AS floor FROM tills WHERE id = $1 FOR UPDATE', [
        id,
      ]);
      const floor = t[0]?.floor ?? 0;
      // The new floor: the end of the run of consecutive sequences above the floor whose events are all old.
      const top = await q.query<{ top: number | null }>(
        `WITH run AS (
           SELECT seq, received_at, seq - row_number() OVER (ORDER BY seq) AS grp
             FROM till_events WHERE till_id = $1 AND seq > $2
         ), first_run AS (SELECT seq, received_at FROM run WHERE grp = $2)
         SELECT coalesce((SELECT min(seq) - 1 FROM first_run WHERE received_at >= $3),
                         (SELECT max(seq) FROM first_run)) AS top`,
        [id, floor, cutoff],
      );
      const next = top[0]?.top ?? null;
      if (next === null || next <= floor) return 0;
      const gone = await q.query<{ seq: number }>(
        `DELETE FROM till_events e WHERE e.till_id = $1 AND e.seq > $2 AND e.seq <= $3
            AND NOT EXISTS (SELECT 1 FROM invoice_claims c WHERE c.till_id = e.till_id AND c.seq = e.seq)
         RETURNING e.seq`,
        [id, floor, next],
      );
      await q.query('UPDATE tills SET events_floor = $1 WHERE id = $2', [next, id]);
      return gone.length;
    });
  }
  // Whole months of events are gone now (hub migration 16): their tables go too.
  await dropEmptyEventMonths(db, now - keepMs);
  return deleted;
}
