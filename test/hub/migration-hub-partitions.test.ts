/**
 * Hub migration 16 on a hub with history (#25), on PGlite and on a real PostgreSQL 15: the rows of the plain
 * `orders` and `till_events` move into month tables, the orders' keys come with them, and the moved history still
 * answers as before: a replay is a duplicate, an altered one is refused, a later state changes the order's one row,
 * and an invoice number already held is refused to another till.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openPglite, openPostgres, type HubDb } from '../../hub/db/db.ts';
import { HUB_MIGRATIONS } from '../../hub/db/migrations/index.ts';
import { createHubService, eventDigest, type AuthedTill } from '../../hub/service.ts';
import type { OrderSnapshot } from '../../shared/hub/protocol.ts';
import { postgresAvailable, startPostgres } from '../support/postgres.ts';
import { orderEvent, saleSnapshot } from './snapshots.ts';

const BEFORE = HUB_MIGRATIONS.slice(0, 15);
const OCT = Date.UTC(2026, 9, 31, 23, 59, 59, 999);
const NOV = Date.UTC(2026, 10, 1, 0, 0, 0);

/** A 100.00 sale made (and signed, with an invoice) at `at`. */
const sale = (n: string, at: number, invoice: string | null, state: OrderSnapshot['state']): OrderSnapshot =>
  saleSnapshot(n, invoice, { at, state, totalPara: 10_000, taxAmount: 16.67 });
const ev = orderEvent;

const OPENERS: { name: string; open(): Promise<{ db: HubDb; dispose(): Promise<void> }> }[] = [
  {
    name: 'pglite',
    async open() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-'));
      const db = await openPglite(dir, BEFORE);
      return {
        db,
        async dispose() {
          await db.close();
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    async open() {
      if (!postgresAvailable()) throw new Error('PostgreSQL 15 is not installed (apt-get install -y postgresql)');
      const cluster = await startPostgres();
      const db = await openPostgres(cluster.url, BEFORE).catch((err: unknown) => {
        cluster.stop();
        throw err;
      });
      return {
        db,
        async dispose() {
          await db.close();
          cluster.stop();
        },
      };
    },
  },
];

for (const opener of OPENERS) {
  describe(`hub migration 16 with history on ${opener.name}`, () => {
    let dispose: (() => Promise<void>) | undefined;
    afterAll(async () => {
      await dispose?.();
    });

    it('moves orders and events into month tables and keeps every identity', async () => {
      const opened = await opener.open();
      dispose = opened.dispose;
      const db = opened.db;
      let clock = NOV + 3600_000;
      const service = createHubService(db, { now: () => new Date(clock) });
      const shopId = await service.ensureDefaultShop();
      // Two tills as migration 15's hub enrolled them (today's enrolment reads columns of later migrations).
      const tillAt15 = async (name: string): Promise<AuthedTill> => {
        const rows = await db.query<{ id: number }>(
          'INSERT INTO tills (shop_id, name, cred_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
          [shopId, name, `hash-${name}`, new Date(clock).toISOString()],
        );
        return { id: rows[0]?.id ?? 0, shopId, name };
      };
      const a = await tillAt15('A');
      const b = await tillAt15('B');
      // History as the hub of migration 15 stored it: two orders either side of October's end, their events.
      const history = [ev(1, sale('A-1', OCT, 'IA-1', 'fiscalized')), ev(2, sale('A-2', NOV, 'IA-2', 'fiscalized'))];
      for (const e of history) {
        const o = e.payload as OrderSnapshot;
        await db.query(
          `INSERT INTO till_events (till_id, seq, kind, ref, digest, payload, received_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [a.id, e.seq, e.kind, e.ref, eventDigest(e), JSON.stringify(e.payload), o.created_at],
        );
        await db.query(
          `INSERT INTO orders (till_id, order_number, shop_id, seq, kind, invoice_type, transaction_type, state,
             created_at, total_para, cashier, invoice_number, sdc_date_time, data, receipt)
           VALUES ($1, $2, $3, $4, 'sale', 'normal', 'sale', 'fiscalized', $5, 10000, 'Ана', $6, $9, $7, $8)`,
          [
            a.id,
            o.order_number,
            shopId,
            e.seq,
            o.created_at,
            o.invoice_number,
            JSON.stringify(o.data),
            null,
            o.created_at,
          ],
        );
      }
      await db.query('UPDATE tills SET last_seq = 2 WHERE id = $1', [a.id]);

      expect(await migrate(db)).toEqual(HUB_MIGRATIONS.slice(15).map((_, i) => 16 + i));
      const where = async (table: string): Promise<string[]> =>
        (
          await db.query<{ r: string }>(
            `SELECT tableoid::regclass::text || ':' || ${table === 'orders' ? 'order_number' : 'seq'} AS r
               FROM ${table} ORDER BY 1`,
          )
        ).map((x) => x.r);
      expect(await where('orders')).toEqual(['orders_2026_10:A-1', 'orders_2026_11:A-2']);
      expect(await where('till_events')).toEqual(['till_events_2026_10:1', 'till_events_2026_11:2']);
      expect(await db.query('SELECT order_number, invoice_number FROM order_keys ORDER BY order_number')).toEqual([
        { order_number: 'A-1', invoice_number: 'IA-1' },
        { order_number: 'A-2', invoice_number: 'IA-2' },
      ]);
      const pk = await db.query<{ def: string }>(
        `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'orders_pkey'`,
      );
      expect(pk).toEqual([{ def: 'PRIMARY KEY (till_id, order_number, created_at)' }]);

      // The moved history answers as before.
      expect(await service.push(a, { tillId: a.id, events: history })).toMatchObject({ stored: 0, duplicates: 2 });
      await expect(
        service.push(a, { tillId: a.id, events: [ev(1, sale('A-1', OCT, 'IA-9', 'fiscalized'))] }),
      ).rejects.toMatchObject({ code: 'batch_altered' });
      clock = NOV + 2 * 3600_000;
      const later = await service.push(a, { tillId: a.id, events: [ev(3, sale('A-1', OCT, 'IA-1', 'fiscalized'))] });
      expect(later).toMatchObject({ stored: 1, duplicates: 0 });
      expect(await db.query('SELECT seq FROM orders WHERE order_number = $1', ['A-1'])).toEqual([{ seq: 3 }]);
      const claim = await service.push(b, { tillId: b.id, events: [ev(1, sale('B-1', clock, 'IA-2', 'fiscalized'))] });
      expect(claim.refused?.map((r) => r.seq)).toEqual([1]);
      expect((await service.orderCount(shopId)).orders).toBe(2);
    }, 120_000);
  });
}
