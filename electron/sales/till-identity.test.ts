/** The till tag: kept beside the database, bumped every start, new on another machine; in every order number. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open.ts';
import { Settings } from '../settings/settings.ts';
import { nextOrderNumber } from './order-number.ts';
import { IDENTITY_FILE, orderTag, startTillIdentity } from './till-identity.ts';

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function open(): { dir: string; db: Db } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-ident-'));
  dirs.push(dir);
  const db = openDatabase(path.join(dir, 'kasa.sqlite'));
  dbs.push(db);
  return { dir, db };
}
const NOW = Date.UTC(2026, 10, 23, 9, 0, 0);

describe('till identity', () => {
  it('refuses to number an order before the identity has started', () => {
    const { db } = open();
    expect(() => nextOrderNumber(db, 'KASA1', NOW)).toThrow(/till identity not started/);
  });

  it('keeps the installation id beside the database and bumps the start count every start', () => {
    const { dir, db } = open();
    const first = startTillIdentity(db, dir, { machine: 'm1' });
    expect(first).toMatchObject({ starts: 1, created: true });
    expect(first.installationId).toMatch(/^[0-9A-HJKMNP-TV-Z]{6}$/);
    const n1 = nextOrderNumber(db, 'KASA1', NOW);
    expect(n1).toBe(`KASA1-${first.installationId}1-20261123-00001`);
    const second = startTillIdentity(db, dir, { machine: 'm1' });
    expect(second).toMatchObject({ installationId: first.installationId, starts: 2, created: false });
    expect(nextOrderNumber(db, 'KASA1', NOW)).toBe(`KASA1-${first.installationId}2-20261123-00001`);
    expect(JSON.parse(fs.readFileSync(path.join(dir, IDENTITY_FILE), 'utf8'))).toMatchObject({ installationId: first.installationId, starts: 2 });
  });

  it('a database put back (restore, copy by hand) cannot bring an old tag back: the file decides', () => {
    const { dir, db } = open();
    startTillIdentity(db, dir, { machine: 'm1' });
    const kept = orderTag(db);
    const used = nextOrderNumber(db, 'T', NOW);
    // The database forgets (as a restored backup does), the file beside it does not.
    db.prepare('DELETE FROM order_sequence').run();
    db.prepare("UPDATE settings SET value = 'OLDTAG' WHERE key = 'till.orderTag'").run();
    startTillIdentity(db, dir, { machine: 'm1' });
    expect(orderTag(db)).not.toBe(kept);
    expect(nextOrderNumber(db, 'T', NOW)).not.toBe(used);
  });

  it('another machine, a lost or damaged file: a new installation id', () => {
    const { dir, db } = open();
    const a = startTillIdentity(db, dir, { machine: 'm1' });
    const moved = startTillIdentity(db, dir, { machine: 'm2' });
    expect(moved.created).toBe(true);
    expect(moved.installationId).not.toBe(a.installationId);
    fs.writeFileSync(path.join(dir, IDENTITY_FILE), '{not json');
    const damaged = startTillIdentity(db, dir, { machine: 'm2' });
    expect(damaged.created).toBe(true);
    fs.rmSync(path.join(dir, IDENTITY_FILE));
    expect(startTillIdentity(db, dir, { machine: 'm2' }).created).toBe(true);
  });

  it('the default terminal id is per installation; a set one is kept', () => {
    const one = open();
    const two = open();
    const a = startTillIdentity(one.db, one.dir, { machine: 'm' });
    startTillIdentity(two.db, two.dir, { machine: 'm' });
    const sa = new Settings(one.db, {});
    expect(sa.terminalId()).toBe(`KASA${a.installationId}`);
    expect(sa.terminalId()).not.toBe(new Settings(two.db, {}).terminalId());
    expect(new Settings(one.db, { KASA_TERMINAL_ID: 'kasa-2' }).terminalId()).toBe('KASA2');
  });
});
