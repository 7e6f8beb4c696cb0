/**
 * Scheduled price changes are a durable job (electron/prices/service.ts `applyDue`): over random schedules and
 * random runs of the till around their moments (fast-check) — passes at random times, restarts (the database
 * closed and opened again), and crashes inside the applying transaction (the catalog's write fails after the
 * change was claimed) — each change is applied exactly once, never before its moment, with exactly one price
 * change record (нивелација) dated at its moment when goods are on hand, and the catalog ends at the price of the
 * last change. Real SQLite files.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../../electron/db/open.ts';
import { createCatalogService, type CatalogService } from '../../electron/catalog/service.ts';
import { createPricesService } from '../../electron/prices/service.ts';
import { move } from '../../electron/goods/ledger.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const T0 = Date.parse('2026-11-28T10:00:00Z');
const HOUR = 3_600_000;

describe('scheduled price changes across restarts and crashes', () => {
  it('apply each change once, at or after its moment, with one нивелација', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            code: fc.constantFrom('A', 'B'),
            inHours: fc.integer({ min: 1, max: 48 }),
            price: fc.integer({ min: 1, max: 9_999 }),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        fc.array(
          fc.oneof(
            fc.record({ t: fc.constant('pass' as const), at: fc.integer({ min: 0, max: 60 * HOUR }) }),
            fc.record({ t: fc.constant('restart' as const) }),
            fc.record({ t: fc.constant('crash' as const), at: fc.integer({ min: 0, max: 60 * HOUR }) }),
          ),
          { maxLength: 12 },
        ),
        (changes, runs) => {
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-sched-'));
          dirs.push(dir);
          const file = path.join(dir, 'kasa.sqlite');
          let clock = T0;
          let failNext = false;
          const open = () => {
            const db = openDatabase(file);
            const real = createCatalogService(db, () => new Date(clock));
            // A crash inside the applying transaction: the catalog's write throws after the change was claimed.
            const catalog: CatalogService = {
              ...real,
              put(p, source, at) {
                if (failNext) {
                  failNext = false;
                  throw new Error('power cut');
                }
                real.put(p, source, at);
              },
            };
            const prices = createPricesService(db, catalog, { audit: () => {}, now: () => clock });
            return { db, catalog: real, prices };
          };
          let t = open();
          for (const code of ['A', 'B'])
            t.catalog.put({
              code,
              name: `Артикал ${code}`,
              pricePara: 10_000,
              label: 'A',
              unit: 'piece',
              group: null,
              favourite: false,
              barcodes: [],
            });
          // Goods on hand of A only: B's changes have no record to write.
          move(t.db, {
            code: 'A',
            name: 'Артикал A',
            at: new Date(T0).toISOString(),
            kind: 'receipt',
            source: 'receipt:1',
            line: 0,
            qtyMilli: 5_000,
            pricePara: 10_000,
          });
          const ids: { code: string; at: string; price: number }[] = [];
          for (const ch of changes) {
            const at = new Date(T0 + ch.inHours * HOUR).toISOString();
            t.prices.schedule({ code: ch.code, price: ch.price / 100, at });
            ids.push({ code: ch.code, at, price: ch.price });
          }
          const appliedOnce = (db: Db) =>
            db
              .prepare<[], { id: number; at: string; applied_at: string }>(
                "SELECT id, at, applied_at FROM scheduled_prices WHERE state = 'applied'",
              )
              .all();
          for (const r of runs) {
            if (r.t === 'restart') {
              t.db.close();
              t = open();
              // A start applies what is due.
              t.prices.applyDue();
            } else {
              clock = Math.max(clock, T0 + r.at);
              if (r.t === 'crash') failNext = true;
              try {
                t.prices.applyDue();
              } catch {
                // The pass failed: the loop tries again later.
              }
              failNext = false;
            }
            // Never before its moment.
            for (const a of appliedOnce(t.db)) expect(a.applied_at >= a.at).toBe(true);
          }
          clock = T0 + 60 * HOUR;
          t.prices.applyDue();
          t.prices.applyDue();
          const rows = t.db
            .prepare<[], { product_code: string; price_para: number; state: string }>(
              'SELECT product_code, price_para, state FROM scheduled_prices ORDER BY at, id',
            )
            .all();
          expect(rows.every((r) => r.state === 'applied' || r.state === 'skipped')).toBe(true);
          // The catalog ends at each product's last change; the book's records are one per effective change of A.
          for (const code of ['A', 'B']) {
            const mine = rows.filter((r) => r.product_code === code);
            const price = t.db
              .prepare<[string], { price_para: number }>('SELECT price_para FROM products WHERE code = ?')
              .get(code);
            expect(price?.price_para).toBe(
              mine.length ? (mine[mine.length - 1] as { price_para: number }).price_para : 10_000,
            );
          }
          const records = t.db
            .prepare<[], { at: string; new_para: number }>(
              "SELECT at, new_para FROM price_changes WHERE product_code = 'A' ORDER BY id",
            )
            .all();
          // Each change of A that moved its price made exactly one record, dated at its own moment.
          let last = 10_000;
          const expected: { at: string; new_para: number }[] = [];
          for (const ch of [...ids].filter((c) => c.code === 'A').sort((a, b) => a.at.localeCompare(b.at))) {
            if (ch.price !== last) expected.push({ at: ch.at, new_para: ch.price });
            last = ch.price;
          }
          expect(records).toEqual(expected);
          t.db.close();
        },
      ),
      { numRuns: 30 },
    );
  });
});
