import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Migration } from './open.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { tempDirs } from '../../test/support/temp-dirs.ts';

const { file: tmpFile, cleanup } = tempDirs('kasa-db-');
afterEach(cleanup);

const tables = (db: ReturnType<typeof openDatabase>): string[] =>
  db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((r) => r.name);

describe('database', () => {
  it('opens with WAL, synchronous=FULL and foreign keys, and applies every migration', () => {
    const db = openDatabase(tmpFile());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
  });

  it('migration 1 creates the core tables and an order cannot exist twice under one number', () => {
    const file = tmpFile();
    const db = openDatabase(file, MIGRATIONS.slice(0, 1));
    expect(tables(db)).toEqual(
      expect.arrayContaining(['settings', 'tax_rates', 'order_sequence', 'orders', 'outbox', 'attempts', 'audit_log']),
    );
    const insert = db.prepare(
      `INSERT INTO orders (order_number, kind, invoice_type, transaction_type, state, created_at, total_para, data)
       VALUES ('T-1', 'sale', 'normal', 'sale', 'queued', '2026-01-01', 100, '{}')`,
    );
    insert.run();
    expect(() => insert.run()).toThrow(/UNIQUE/);
    expect(() => db.prepare('INSERT INTO outbox (order_id, due_at) VALUES (999, 0)').run()).toThrow(/FOREIGN KEY/);
    db.close();
  });

  it('every migration applies on top of the previous ones, once, and reopening applies nothing', () => {
    const file = tmpFile();
    for (let n = 1; n <= MIGRATIONS.length; n++) {
      const db = openDatabase(file, MIGRATIONS.slice(0, n));
      expect(db.pragma('user_version', { simple: true })).toBe(n);
      expect(migrate(db, MIGRATIONS.slice(0, n))).toEqual([]);
      db.close();
    }
  });

  it('a failing migration rolls back whole and leaves user_version where it was', () => {
    const file = tmpFile();
    const broken: Migration = {
      name: 'broken',
      up(db) {
        db.exec('CREATE TABLE half_done (x)');
        throw new Error('boom');
      },
    };
    expect(() => openDatabase(file, [...MIGRATIONS, broken])).toThrow('boom');
    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(tables(db)).not.toContain('half_done');
    db.close();
  });

  it('migration 006 (auth_attempts) keeps PIN attempt counters per scope and the approver in the audit log', () => {
    const db = openDatabase(tmpFile());
    expect(tables(db)).toContain('auth_attempts');
    db.prepare("INSERT INTO auth_attempts (scope, failures, updated_at) VALUES ('till', 3, 0)").run();
    expect(() => db.prepare("INSERT INTO auth_attempts (scope, updated_at) VALUES ('till', 0)").run()).toThrow(
      /UNIQUE/,
    );
    db.prepare(
      "INSERT INTO audit_log (at, actor, action, approver) VALUES ('2026-01-01', 'Ана', 'x', 'Менаџер')",
    ).run();
    expect(db.prepare<[], { approver: string }>('SELECT approver FROM audit_log').get()?.approver).toBe('Менаџер');
    db.close();
  });
});
