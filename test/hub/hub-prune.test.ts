/**
 * Acknowledged history is pruned (#25, hub/events.ts), on PGlite and on a real PostgreSQL 15: a till's events
 * older than the keep period below its first gap leave `till_events` (its orders stay), a replay of a pruned
 * event is acknowledged as a duplicate, gaps above the floor are still reported, and the event of a refused
 * invoice claim is kept as evidence.
 */
import { describe, expect, it } from 'vitest';
import type { AuthedTill } from '../../hub/service.ts';
import type { OrderSnapshot } from '../../shared/hub/protocol.ts';
import { BACKENDS } from './backends.ts';
import { openHubWithTwoTills } from './served-hub.ts';
import { orderEvent, saleSnapshot } from './snapshots.ts';

const DAY_MS = 86_400_000;
const T0 = Date.UTC(2026, 9, 1, 8, 0, 0);

/** A fiscalized 100.00 sale made and signed at `at`. */
const sale = (n: string, at: number, invoice: string): OrderSnapshot =>
  saleSnapshot(n, invoice, { at, totalPara: 10_000, taxAmount: 16.67 });
const ev = orderEvent;

for (const backend of BACKENDS) {
  describe(`hub history pruning on ${backend.name}`, () => {
    let clock = T0;
    let a: AuthedTill;
    let b: AuthedTill;
    const hub = openHubWithTwoTills(backend, { now: () => new Date(clock) }, (tills) => ([a, b] = tills));

    const seqs = async (till: AuthedTill): Promise<number[]> =>
      (
        await hub.db.query<{ seq: number }>('SELECT seq FROM till_events WHERE till_id = $1 ORDER BY seq', [till.id])
      ).map((r) => r.seq);

    it('prunes old acknowledged events below the first gap, keeps orders, claims and the gap', async () => {
      // Till A: 1..3 on day 0, 4..5 on day 20. Till B: 1, 2, then a gap (3 lost), 4; and 5 claims A's invoice.
      await hub.service.push(a, {
        tillId: a.id,
        events: [1, 2, 3].map((s) => ev(s, sale(`A-${s}`, clock, `IA-${s}`))),
      });
      await hub.service.push(b, {
        tillId: b.id,
        events: [1, 2, 4].map((s) => ev(s, sale(`B-${s}`, clock, `IB-${s}`))),
      });
      const claim = await hub.service.push(b, { tillId: b.id, events: [ev(5, sale('B-5', clock, 'IA-1'))] });
      expect(claim.refused?.map((r) => r.seq)).toEqual([5]);
      clock = T0 + 20 * DAY_MS;
      await hub.service.push(a, { tillId: a.id, events: [4, 5].map((s) => ev(s, sale(`A-${s}`, clock, `IA-${s}`))) });

      // Nothing is older than the keep period yet.
      expect(await hub.service.pruneEvents(30 * DAY_MS, clock)).toBe(0);
      clock = T0 + 35 * DAY_MS;
      // A: 1..3 are 35 days old, 4..5 only 15. B: 1..2 before its gap; 4 is above the gap, 5 is a claim's.
      expect(await hub.service.pruneEvents(30 * DAY_MS, clock)).toBe(5);
      expect(await seqs(a)).toEqual([4, 5]);
      expect(await seqs(b)).toEqual([4, 5]);
      const floors = await hub.db.query<{ id: number; events_floor: number }>(
        'SELECT id, events_floor FROM tills WHERE id = ANY($1::int4[]) ORDER BY id',
        [[a.id, b.id]],
      );
      expect(floors.map((f) => f.events_floor)).toEqual([3, 2]);
      // The orders stay; the gap above B's floor is still reported.
      expect((await hub.service.orderCount(a.shopId)).orders).toBe(8);
      const again = await hub.service.push(b, { tillId: b.id, events: [] });
      expect(again.gaps).toEqual([{ from: 3, to: 3 }]);
      // A replay of a pruned event is acknowledged as a duplicate, stored nowhere again.
      const replay = await hub.service.push(a, { tillId: a.id, events: [ev(2, sale('A-2', T0, 'IA-2'))] });
      expect(replay).toMatchObject({ stored: 0, duplicates: 1, gaps: [] });
      expect(await seqs(a)).toEqual([4, 5]);
      // B's lost event arrives: the gap closes, and the next pruning takes B's run up to the claim's event.
      clock = T0 + 40 * DAY_MS;
      await hub.service.push(b, { tillId: b.id, events: [ev(3, sale('B-3', T0, 'IB-3'))] });
      clock = T0 + 75 * DAY_MS;
      expect(await hub.service.pruneEvents(30 * DAY_MS, clock)).toBe(4);
      expect(await seqs(a)).toEqual([]);
      expect(await seqs(b)).toEqual([5]);
      const after = await hub.service.push(b, { tillId: b.id, events: [ev(6, sale('B-6', clock, 'IB-6'))] });
      expect(after).toMatchObject({ stored: 1, gaps: [] });
    }, 120_000);
  });
}
