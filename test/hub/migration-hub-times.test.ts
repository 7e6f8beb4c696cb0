/**
 * Hub migration 21 (#25: times are timestamptz): a hub with times stored as text keeps every one of them as the
 * same instant, read back as ISO UTC text by the driver; an empty text time (never written so, but text allowed
 * it) becomes NULL; the gateway's signing time stays the text the gateway wrote.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPglite } from '../../hub/db/db.ts';
import { HUB_MIGRATIONS } from '../../hub/db/migrations/index.ts';
import { h021 } from '../../hub/db/migrations/021_times.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('hub migration 21: times', () => {
  it('turns the text times into timestamptz, each the same instant', async () => {
    expect(HUB_MIGRATIONS[HUB_MIGRATIONS.indexOf(h021) - 1]?.name).toBe('staff_refusals');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-times-'));
    dirs.push(dir);
    const old = await openPglite(dir, HUB_MIGRATIONS.slice(0, HUB_MIGRATIONS.indexOf(h021)));
    await old.query("INSERT INTO chains (name) VALUES ('C')");
    await old.query("INSERT INTO shops (chain_id, name, created_at) VALUES (1, 'A', '2026-01-02T03:04:05.678Z')");
    await old.query(
      `INSERT INTO tills (shop_id, name, cred_hash, created_at, last_seen, revoked_at)
       VALUES (1, 'К1', 'h', '2026-01-02T03:04:05Z', '2026-11-25T10:00:00+01:00', '')`,
    );
    await old.query(
      `INSERT INTO shifts (till_id, shift_id, shop_id, seq, cashier, opened_at, closed_at, opening_float_para,
         cash_in_para, cash_out_para) VALUES (1, 1, 1, 1, 'Ана', '2026-11-25T07:00:00.000Z', NULL, 0, 0, 0)`,
    );
    await old.query(
      "INSERT INTO hub_audit (at, shop_id, actor, action, detail) VALUES ('2026-11-25T07:00:01.000Z', 1, 'a', 'login', '{}')",
    );
    await old.close();

    const db = await openPglite(dir);
    expect(await db.query('SELECT created_at FROM shops')).toEqual([{ created_at: '2026-01-02T03:04:05.678Z' }]);
    expect(await db.query('SELECT created_at, last_seen, revoked_at FROM tills')).toEqual([
      { created_at: '2026-01-02T03:04:05.000Z', last_seen: '2026-11-25T09:00:00.000Z', revoked_at: null },
    ]);
    expect(await db.query('SELECT opened_at, closed_at FROM shifts')).toEqual([
      { opened_at: '2026-11-25T07:00:00.000Z', closed_at: null },
    ]);
    expect(await db.query('SELECT at FROM hub_audit')).toEqual([{ at: '2026-11-25T07:00:01.000Z' }]);
    const types = await db.query<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT table_name, column_name, data_type FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name IN ('shops', 'enrol_codes', 'tills', 'parked_carts', 'shifts',
          'invoice_claims', 'hub_sessions', 'hub_audit', 'orders')
          AND (column_name ~ '(^at$|_at$|seen)' OR column_name = 'sdc_date_time') ORDER BY 1, 2`,
    );
    // (`expires_at` is epoch milliseconds, a number: compared with Date.now() in the hub's code.)
    const text = types.filter((t) => t.data_type === 'text').map((t) => t.column_name);
    expect(text).toEqual(['sdc_date_time']);
    expect(types.length).toBeGreaterThan(14);
    await db.close();
  }, 240_000);
});
