/**
 * Till migration 009 (hub_sync): the triggers write a hub_outbox row in the very transaction that writes
 * the order / state change / audit entry / staff change, only once the till is enrolled; a rolled-back
 * transaction leaves no row behind; a database with history from before migrates without loss.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../electron/db/open.ts';
import { MIGRATIONS } from '../../electron/db/migrations/index.ts';
import { m009 } from '../../electron/db/migrations/009_hub_sync.ts';
import { m017 } from '../../electron/db/migrations/017_hub_shifts.ts';
import { tempDirs } from '../support/temp-dirs.ts';

const { file: tmpFile, cleanup } = tempDirs('kasa-m009-');
afterEach(cleanup);

const addOrder = (db: Db, n: string): void => {
  db.prepare(
    `INSERT INTO orders (order_number, kind, invoice_type, transaction_type, state, created_at, total_para, data)
     VALUES (?, 'sale', 'normal', 'sale', 'queued', '2026-11-23T08:00:00.000Z', 12300, '{"lines":[]}')`,
  ).run(n);
};
const outbox = (db: Db): { seq: number; kind: string; ref: string; payload: string }[] =>
  db
    .prepare<[], { seq: number; kind: string; ref: string; payload: string }>(
      'SELECT seq, kind, ref, payload FROM hub_outbox ORDER BY seq',
    )
    .all();

describe('migration 009 hub_sync', () => {
  it('applies on a database holding history from before', () => {
    const at = MIGRATIONS.indexOf(m009);
    expect(at).toBeGreaterThan(0);
    const file = tmpFile();
    const before = openDatabase(file, MIGRATIONS.slice(0, at));
    addOrder(before, 'OLD-1');
    before.close();
    const db = openDatabase(file);
    expect(db.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 1 });
    expect(outbox(db)).toEqual([]);
    db.close();
  });

  it('writes nothing for a till that is not enrolled', () => {
    const db = openDatabase(tmpFile());
    addOrder(db, 'A-1');
    db.prepare("UPDATE orders SET state = 'fiscalized', invoice_number = 'X-1' WHERE order_number = 'A-1'").run();
    db.prepare("INSERT INTO audit_log (at, actor, action, detail) VALUES ('2026-11-23', 'Ана', 'test', '{}')").run();
    expect(outbox(db)).toEqual([]);
    db.close();
  });

  it('once enrolled: one row per capture and per real change, in the same transaction, none from a rollback', () => {
    const db = openDatabase(tmpFile());
    db.prepare("INSERT INTO hub_state (key, value) VALUES ('till_id', '7')").run();
    addOrder(db, 'A-1');
    db.prepare("UPDATE orders SET state = 'queued' WHERE order_number = 'A-1'").run(); // no change: no row
    db.prepare("UPDATE orders SET state = 'fiscalized', invoice_number = 'X-1' WHERE order_number = 'A-1'").run();
    expect(() =>
      db.transaction(() => {
        addOrder(db, 'A-2');
        throw new Error('crash before commit');
      })(),
    ).toThrow('crash before commit');
    addOrder(db, 'A-3');
    const rows = outbox(db);
    expect(rows.map((r) => [r.kind, r.ref])).toEqual([
      ['order', 'A-1'],
      ['order', 'A-1'],
      ['order', 'A-3'],
    ]);
    // Consecutive sequence numbers: the rolled-back capture left no hole for the hub to report.
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3]);
    const last = JSON.parse(rows[1]?.payload ?? '{}') as {
      state: string;
      invoice_number: string;
      data: unknown;
      total_para: number;
    };
    expect(last).toMatchObject({ state: 'fiscalized', invoice_number: 'X-1', total_para: 12300, data: { lines: [] } });
    db.close();
  });
});

describe('migration 017 hub_shifts', () => {
  it('keeps the rows waiting and the sequence (never reused), and queues a shift at open, move and close', () => {
    const file = tmpFile();
    const before = openDatabase(file, MIGRATIONS.slice(0, MIGRATIONS.indexOf(m017)));
    before.prepare("INSERT INTO hub_state (key, value) VALUES ('till_id', '7')").run();
    addOrder(before, 'A-1');
    addOrder(before, 'A-2');
    before.prepare('DELETE FROM hub_outbox WHERE seq = 1').run(); // sent; seq 2 still waits
    before.close();
    const db = openDatabase(file);
    expect(outbox(db).map((r) => [r.seq, r.ref])).toEqual([[2, 'A-2']]);
    db.prepare('DELETE FROM hub_outbox').run();
    addOrder(db, 'A-3'); // the 009 triggers still write into the rebuilt table, after seq 2
    db.prepare(
      "INSERT INTO shifts (cashier, opened_at, opening_float_para) VALUES ('Ана', '2026-11-23T07:00Z', 500000)",
    ).run();
    db.prepare(
      `INSERT INTO shift_moves (shift_id, kind, amount_para, reason, at)
       VALUES (1, 'out', 100000, 'Банка', '2026-11-23T09:00Z')`,
    ).run();
    db.prepare(
      "UPDATE shifts SET closed_at = '2026-11-23T15:00Z', expected_para = 400000, counted_para = 398000 WHERE id = 1",
    ).run();
    const rows = outbox(db);
    expect(rows.map((r) => [r.seq, r.kind, r.ref])).toEqual([
      [3, 'order', 'A-3'],
      [4, 'shift', 'shift:1'],
      [5, 'shift', 'shift:1'],
      [6, 'shift', 'shift:1'],
    ]);
    expect(JSON.parse(rows[3]?.payload ?? '{}')).toMatchObject({
      cashier: 'Ана',
      opening_float_para: 500000,
      cash_out_para: 100000,
      expected_para: 400000,
      counted_para: 398000,
    });
    expect(() => db.prepare("INSERT INTO hub_outbox (kind, ref, payload) VALUES ('other', 'x', '{}')").run()).toThrow();
    db.close();
  });
});
