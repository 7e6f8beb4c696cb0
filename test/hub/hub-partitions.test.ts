/**
 * Month partitions of the hub's history (#25, hub migration 16, hub/partitions.ts), on PGlite and on a real
 * PostgreSQL 15: the month tables exist, an order lands in its month's table on either side of a month's end, a
 * later state of an order changes its one row, a replay is a duplicate, a stray month leaves the default
 * partition, and pruning drops an emptied month of events while a replay of it stays a duplicate, applied once.
 */
import { describe, expect, it } from 'vitest';
import { ensureMonthPartitions } from '../../hub/partitions.ts';
import { HubError, type AuthedTill } from '../../hub/service.ts';
import type { OrderSnapshot } from '../../shared/hub/protocol.ts';
import { BACKENDS } from './backends.ts';
import { openHubWithTwoTills } from './served-hub.ts';
import { orderEvent, saleSnapshot } from './snapshots.ts';

const DAY_MS = 86_400_000;
/** The last ms of January 2027 (UTC) and the first of February. */
const JAN_END = Date.UTC(2027, 0, 31, 23, 59, 59, 999);
const FEB_START = Date.UTC(2027, 1, 1);

/** A 100.00 sale made (and signed, with an invoice) at `at`. */
const sale = (n: string, at: number, invoice: string | null, state: OrderSnapshot['state']): OrderSnapshot =>
  saleSnapshot(n, invoice, { at, state, totalPara: 10_000, taxAmount: 16.67 });
const ev = orderEvent;

for (const backend of BACKENDS) {
  describe(`hub month partitions on ${backend.name}`, () => {
    let clock = Date.UTC(2027, 0, 31, 22, 0, 0);
    let a: AuthedTill;
    let b: AuthedTill;
    const hub = openHubWithTwoTills(backend, { now: () => new Date(clock) }, (tills) => ([a, b] = tills));

    const partitions = async (table: string): Promise<string[]> =>
      (
        await hub.db.query<{ name: string }>(
          `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = $1::regclass ORDER BY 1`,
          [table],
        )
      ).map((r) => r.name);
    const orderRows = async (n: string) =>
      hub.db.query<{ part: string; state: string; seq: number; invoice_number: string | null }>(
        `SELECT tableoid::regclass::text AS part, state, seq, invoice_number FROM orders WHERE order_number = $1`,
        [n],
      );
    const eventParts = async (till: AuthedTill) =>
      (
        await hub.db.query<{ seq: number; part: string }>(
          'SELECT seq, tableoid::regclass::text AS part FROM till_events WHERE till_id = $1 ORDER BY seq',
          [till.id],
        )
      ).map((r) => `${r.seq}@${r.part}`);
    const month = (ms: number, add = 0): string => {
      const d = new Date(Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth() + add, 1));
      return `${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    };

    it('has month tables, files an order by its month, keeps one row per order and refuses a replay', async () => {
      // The migration made the current and next month (of the database's clock) and a default for the rest.
      const now = Date.now();
      for (const t of ['orders', 'till_events']) {
        expect(await partitions(t)).toEqual(
          expect.arrayContaining([`${t}_${month(now)}`, `${t}_${month(now, 1)}`, `${t}_default`]),
        );
      }
      // The day closer makes the hub clock's coming month ahead.
      await hub.service.closeDays(clock);
      for (const t of ['orders', 'till_events'])
        expect(await partitions(t)).toEqual(expect.arrayContaining([`${t}_2027_01`, `${t}_2027_02`]));

      // One order at the last ms of January, one at the first of February: each in its month's table. The hub's
      // clock is ten minutes before February (a till's time may be at most 15 minutes ahead of it: issue 39).
      clock = FEB_START - 10 * 60_000;
      const first = await hub.service.push(a, {
        tillId: a.id,
        events: [ev(1, sale('A-1', JAN_END, null, 'queued')), ev(2, sale('A-2', FEB_START, 'IA-2', 'fiscalized'))],
      });
      expect(first).toMatchObject({ stored: 2, duplicates: 0 });
      expect(await orderRows('A-1')).toEqual([
        { part: 'orders_2027_01', state: 'queued', seq: 1, invoice_number: null },
      ]);
      expect((await orderRows('A-2')).map((r) => r.part)).toEqual(['orders_2027_02']);
      expect(await eventParts(a)).toEqual(['1@till_events_2027_01', '2@till_events_2027_01']);

      // A-1 fiscalized later (in February): the same row changes, in January's table, even when that snapshot's
      // time were off by a day (the key keeps the order's first time).
      clock = JAN_END + DAY_MS;
      const later = await hub.service.push(a, {
        tillId: a.id,
        events: [ev(3, sale('A-1', JAN_END + DAY_MS, 'IA-1', 'fiscalized'))],
      });
      expect(later).toMatchObject({ stored: 1, duplicates: 0 });
      expect(await orderRows('A-1')).toEqual([
        { part: 'orders_2027_01', state: 'fiscalized', seq: 3, invoice_number: 'IA-1' },
      ]);

      // A replay of the batch is a duplicate; an altered one is refused; nothing changes.
      const replay = await hub.service.push(a, {
        tillId: a.id,
        events: [ev(1, sale('A-1', JAN_END, null, 'queued')), ev(2, sale('A-2', FEB_START, 'IA-2', 'fiscalized'))],
      });
      expect(replay).toMatchObject({ stored: 0, duplicates: 2 });
      const altered = hub.service.push(a, {
        tillId: a.id,
        events: [ev(2, sale('A-2', FEB_START, 'IA-9', 'fiscalized'))],
      });
      await expect(altered).rejects.toBeInstanceOf(HubError);
      await expect(altered).rejects.toMatchObject({ code: 'batch_altered' });
      expect(await orderRows('A-1')).toEqual([
        { part: 'orders_2027_01', state: 'fiscalized', seq: 3, invoice_number: 'IA-1' },
      ]);
      expect((await hub.service.orderCount(a.shopId)).orders).toBe(2);

      // Till B claims A-2's invoice number (in February): refused, kept out of the orders.
      const claim = await hub.service.push(b, {
        tillId: b.id,
        events: [ev(1, sale('B-1', clock, 'IA-2', 'fiscalized'))],
      });
      expect(claim.refused?.map((r) => r.seq)).toEqual([1]);
      expect(await orderRows('B-1')).toEqual([]);
      expect((await hub.service.orderCount(a.shopId)).orders).toBe(2);
    }, 120_000);

    it('moves a stray month out of the default partition', async () => {
      // A till whose clock was years off: its order has no month table, so it waits in the default partition.
      const stray = Date.UTC(2019, 4, 10, 9, 0, 0);
      await hub.service.push(a, { tillId: a.id, events: [ev(4, sale('A-4', stray, 'IA-4', 'fiscalized'))] });
      expect((await orderRows('A-4')).map((r) => r.part)).toEqual(['orders_default']);
      await ensureMonthPartitions(hub.db, clock);
      expect(await partitions('orders')).toContain('orders_2019_05');
      expect(await orderRows('A-4')).toEqual([
        { part: 'orders_2019_05', state: 'fiscalized', seq: 4, invoice_number: 'IA-4' },
      ]);
      expect(await hub.db.query('SELECT 1 FROM orders_default')).toEqual([]);
      // The order is still one: a replay of it is a duplicate, a later state changes that row.
      expect(
        await hub.service.push(a, { tillId: a.id, events: [ev(4, sale('A-4', stray, 'IA-4', 'fiscalized'))] }),
      ).toMatchObject({ stored: 0, duplicates: 1 });
      expect((await hub.service.orderCount(a.shopId)).orders).toBe(3);
    }, 120_000);

    it('drops an emptied month of events; a replay of it stays a duplicate, applied once', async () => {
      // 75 days on, keeping 30: January's events are all pruned (its table goes); February keeps the claim's.
      clock = Date.UTC(2027, 3, 15, 12, 0, 0);
      // The closer's partitions (closing days would sum every day since the stray order's 2019).
      await ensureMonthPartitions(hub.db, clock);
      await hub.service.pruneEvents(30 * DAY_MS, clock);
      const events = await partitions('till_events');
      expect(events).not.toContain('till_events_2027_01');
      expect(events).toContain('till_events_2027_02');
      expect(await eventParts(a)).toEqual([]);
      expect(await eventParts(b)).toEqual(['1@till_events_2027_02']);
      const floors = await hub.db.query<{ events_floor: number }>(
        'SELECT events_floor FROM tills WHERE id = ANY($1::int4[]) ORDER BY id',
        [[a.id, b.id]],
      );
      expect(floors.map((f) => f.events_floor)).toEqual([4, 1]);

      // Every pruned event replayed, even its first (older) state: acknowledged, never applied again.
      const replay = await hub.service.push(a, {
        tillId: a.id,
        events: [ev(1, sale('A-1', JAN_END, null, 'queued')), ev(2, sale('A-2', FEB_START, 'IA-2', 'fiscalized'))],
      });
      expect(replay).toMatchObject({ stored: 0, duplicates: 2, gaps: [] });
      expect(await orderRows('A-1')).toEqual([
        { part: 'orders_2027_01', state: 'fiscalized', seq: 3, invoice_number: 'IA-1' },
      ]);
      expect((await hub.service.orderCount(a.shopId)).orders).toBe(3);
      expect(await eventParts(a)).toEqual([]);
      // B's claim, replayed, is answered with its refusal again.
      const claim = await hub.service.push(b, {
        tillId: b.id,
        events: [ev(1, sale('B-1', FEB_START, 'IA-2', 'fiscalized'))],
      });
      expect(claim.refused?.map((r) => r.seq)).toEqual([1]);
      // The till goes on: its next event is stored, in April's table.
      const next = await hub.service.push(a, {
        tillId: a.id,
        events: [ev(5, sale('A-5', clock, 'IA-5', 'fiscalized'))],
      });
      expect(next).toMatchObject({ stored: 1, gaps: [] });
      expect(await eventParts(a)).toEqual(['5@till_events_2027_04']);
      expect((await orderRows('A-5')).map((r) => r.part)).toEqual(['orders_2027_04']);
    }, 120_000);
  });
}
