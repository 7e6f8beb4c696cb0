/**
 * People have ids (#25): hub migration 18 gives every person already stored a stable id (the primary key with the
 * shop, names still one person's each) and till migration 21 gives the till's people a `uid` that its hub outbox's
 * staff rows carry, with the PIN hash before a change.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/db/open.ts';
import { MIGRATIONS } from '../../electron/db/migrations/index.ts';
import { m021 } from '../../electron/db/migrations/021_staff_uid.ts';
import { openPglite } from '../../hub/db/db.ts';
import { HUB_MIGRATIONS } from '../../hub/db/migrations/index.ts';
import { h018 } from '../../hub/db/migrations/018_staff_ids.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const tmp = (): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-ids-'));
  dirs.push(d);
  return d;
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HASH_A = 'scrypt$00$aa';
const HASH_B = 'scrypt$00$bb';

describe('staff ids', () => {
  it('till migration 21: every person gets a distinct uid; an enrolled till queues staff changes with it', () => {
    expect(MIGRATIONS[MIGRATIONS.indexOf(m021) - 1]?.name).toBe('hub_processor');
    const file = path.join(tmp(), 'kasa.sqlite');
    const before = openDatabase(file, MIGRATIONS.slice(0, MIGRATIONS.indexOf(m021)));
    const put = before.prepare(
      `INSERT INTO staff (name, role, pin_hash, active, must_change_pin, created_at, updated_at)
       VALUES (?, ?, ?, 1, 0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
    );
    put.run('Ана', 'manager', HASH_A);
    put.run('Бора', 'cashier', HASH_B);
    before.prepare("INSERT INTO hub_state (key, value) VALUES ('till_id', '3')").run();
    before.close();

    const db = openDatabase(file);
    const rows = db.prepare<[], { name: string; uid: string }>('SELECT name, uid FROM staff ORDER BY id').all();
    expect(rows.map((r) => r.name)).toEqual(['Ана', 'Бора']);
    for (const r of rows) expect(r.uid).toMatch(UUID);
    expect(rows[0]?.uid).not.toBe(rows[1]?.uid);
    db.prepare("UPDATE staff SET pin_hash = 'scrypt$01$cc' WHERE name = 'Бора'").run();
    const queued = db.prepare<[], { payload: string }>("SELECT payload FROM hub_outbox WHERE kind = 'staff'").all();
    expect(queued.map((q) => JSON.parse(q.payload) as unknown)).toEqual([
      { id: rows[1]?.uid, name: 'Бора', role: 'cashier', pin_hash: 'scrypt$01$cc', active: 1, prev_pin_hash: HASH_B },
    ]);
    db.close();
  });

  it('hub migration 18: people already stored get ids, one name stays one person of a shop', async () => {
    expect(HUB_MIGRATIONS[HUB_MIGRATIONS.indexOf(h018) - 1]?.name).toBe('report_months');
    const dir = tmp();
    const old = await openPglite(dir, HUB_MIGRATIONS.slice(0, HUB_MIGRATIONS.indexOf(h018)));
    await old.query("INSERT INTO chains (name) VALUES ('C')");
    await old.query("INSERT INTO shops (chain_id, name, created_at) VALUES (1, 'A', '2026-01-01T00:00:00Z')");
    for (const [name, hash] of [
      ['Ана', HASH_A],
      ['Бора', HASH_B],
    ])
      await old.query(
        `INSERT INTO staff (shop_id, name, role, pin_hash, version) VALUES (1, $1, 'manager', $2, nextval('change_seq'))`,
        [name, hash],
      );
    await old.close();
    const db = await openPglite(dir);
    const rows = await db.query<{ id: string; name: string }>('SELECT id, name FROM staff ORDER BY name');
    expect(rows.map((r) => r.name)).toEqual(['Ана', 'Бора']);
    for (const r of rows) expect(r.id).toMatch(UUID);
    expect(rows[0]?.id).not.toBe(rows[1]?.id);
    await expect(
      db.query(
        `INSERT INTO staff (shop_id, id, name, role, pin_hash, version)
         VALUES (1, gen_random_uuid()::text, 'Ана', 'cashier', $1, nextval('change_seq'))`,
        [HASH_B],
      ),
    ).rejects.toThrow(/staff_shop_name/);
    await db.close();
  }, 240_000);
});
