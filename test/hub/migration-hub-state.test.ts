/**
 * Till migration 013 (hub_state): a till enrolled before it keeps its enrolment (the link stays in
 * `hub_state`, the outbox triggers still fire) and its parked carts' marks move from prefixed keys into
 * `hub_parked`, typed, nothing left behind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/db/open.ts';
import { MIGRATIONS } from '../../electron/db/migrations/index.ts';
import { m013 } from '../../electron/db/migrations/013_hub_state.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('migration 013 hub_state', () => {
  it('follows tax_time (012) in order', () => {
    const at = MIGRATIONS.indexOf(m013);
    expect(MIGRATIONS[at - 1]?.name).toBe('tax_time');
    expect(at + 1).toBe(13);
  });

  it('an enrolled till keeps its link and its outbox; its parked-cart keys become hub_parked rows', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-m013-'));
    dirs.push(dir);
    const file = path.join(dir, 'kasa.sqlite');
    const before = openDatabase(file, MIGRATIONS.slice(0, MIGRATIONS.indexOf(m013)));
    const put = before.prepare('INSERT INTO hub_state (key, value) VALUES (?, ?)');
    for (const [k, v] of [
      ['url', 'http://hub.local:8080'],
      ['till_id', '7'],
      ['shop_id', '2'],
      ['cursor', '41'],
      ['parked:3', '103'],
      ['parked:12', '112'],
      ['parked_owed:5', '1'],
      ['parked:9', '109'],
      ['parked_owed:9', '1'],
    ])
      put.run(k, v);
    before.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT key, value FROM hub_state ORDER BY key').all()).toEqual([
      { key: 'cursor', value: '41' },
      { key: 'shop_id', value: '2' },
      { key: 'till_id', value: '7' },
      { key: 'url', value: 'http://hub.local:8080' },
    ]);
    expect(db.prepare('SELECT local_id, hub_id, owed FROM hub_parked ORDER BY local_id').all()).toEqual([
      { local_id: 3, hub_id: 103, owed: 0 },
      { local_id: 5, hub_id: null, owed: 1 },
      { local_id: 9, hub_id: 109, owed: 1 },
      { local_id: 12, hub_id: 112, owed: 0 },
    ]);
    // Still enrolled: a sale captured now is queued for the hub by the triggers of migration 009.
    db.prepare(
      `INSERT INTO orders (order_number, kind, invoice_type, transaction_type, state, created_at, total_para, data)
       VALUES ('K7-1', 'sale', 'normal', 'sale', 'queued', '2026-11-25T08:00:00.000Z', 100, '{"lines":[]}')`,
    ).run();
    expect(db.prepare('SELECT kind, ref FROM hub_outbox').all()).toEqual([{ kind: 'order', ref: 'K7-1' }]);
    // A mark is one of two facts or both; a row with neither is refused.
    expect(() => db.prepare('INSERT INTO hub_parked (local_id) VALUES (20)').run()).toThrow(/CHECK/);
    db.close();
  });
});
