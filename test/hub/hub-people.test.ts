/**
 * People, not names (issue 39), on PGlite and on a real PostgreSQL 15, over real HTTP to a hub server, with a
 * till's real credential and a manager's approval as a till sends them. A hub session belongs to its person's id:
 * it ends when that person is renamed (or changed in any way), and never comes back for whoever takes the old name
 * later. Names follow one rule at the hub and at the till (shared/staff/person-name.ts): an invisible character, a
 * word mixing scripts („Mенаџер“ with a Latin M) or a look-alike of another person's name is 400 at its field,
 * nothing changed.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPin } from '../../shared/node/pin.ts';
import { BACKENDS } from './backends.ts';
import { serveHub } from './served-hub.ts';

const ADMIN = 'people-admin-token-0123456789abcdefghij';

describe.each(BACKENDS)('people, not names, on $name', (backend) => {
  let shop = 0;
  let credential = '';
  let anaHash = '';
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    seed: async (service) => {
      shop = await service.ensureDefaultShop('A');
      anaHash = await hashPin('246810');
      await service.upsertStaff(shop, [
        { name: 'Ана', role: 'manager', pinHash: anaHash },
        { name: 'Бора', role: 'manager', pinHash: await hashPin('135791') },
        { name: 'МАРКО', role: 'cashier', pinHash: await hashPin('4321') },
      ]);
      ({ credential } = await service.enrol(await service.newEnrolCode(shop), 'Каса 1'));
    },
  });
  const call = (token: string, method: string, path: string, body?: unknown) => hub.call(token, method, path, body);
  const login = async (pin: string): Promise<string> => {
    const r = await hub.login(pin, shop);
    expect(r.status).toBe(200);
    return r.token;
  };
  const idOf = async (name: string): Promise<string> =>
    (await hub.db.query<{ id: string }>('SELECT id FROM staff WHERE shop_id = $1 AND name = $2', [shop, name]))[0]
      ?.id ?? '';
  /** A till's staff change approved with Бора's PIN, as the till sends it. */
  const tillChange = (people: unknown[]) =>
    call(credential, 'POST', '/api/till/staff/change', { approverPin: '135791', people });

  it('a session ends when its person is renamed, and never comes back for whoever takes the name', async () => {
    const token = await login('246810');
    expect(await call(token, 'GET', '/api/admin/me')).toMatchObject({ status: 200, body: { name: 'Ана' } });
    const ana = await idOf('Ана');
    // Renamed at a till (Бора approves): the session is Ана's, and Ана changed.
    const renamed = await tillChange([{ id: ana, name: 'Ана Стара', role: 'manager', pinHash: anaHash, active: true }]);
    expect(renamed.status).toBe(200);
    expect((await call(token, 'GET', '/api/admin/me')).status).toBe(401);
    // Deactivated, and a new manager takes the name „Ана“: the old session does not come back for her.
    expect(
      (await call(ADMIN, 'POST', '/api/admin/staff/active', { shopId: shop, name: 'Ана Стара', active: false })).status,
    ).toBe(200);
    const added = await call(ADMIN, 'PUT', '/api/admin/staff', {
      shopId: shop,
      staff: [{ name: 'Ана', role: 'manager', pinHash: await hashPin('864200') }],
    });
    expect(added.status).toBe(200);
    expect((await call(token, 'GET', '/api/admin/me')).status).toBe(401);
    // The new Ана logs in with her own PIN, as herself.
    const hers = await login('864200');
    expect(await call(hers, 'GET', '/api/admin/me')).toMatchObject({ status: 200, body: { name: 'Ана' } });
    // Sessions are kept by the person's id: none names a person by name alone.
    const rows = await hub.db.query<{ person_id: string }>('SELECT person_id FROM hub_sessions');
    expect(rows.map((r) => r.person_id)).toEqual([await idOf('Ана')]);
  });

  it('an invisible character, a word mixing scripts or a look-alike name is 400 at its field; nothing changed', async () => {
    const before = await hub.db.query('SELECT id, name, version FROM staff ORDER BY id');
    const person = async (name: string) => ({
      id: crypto.randomUUID(),
      name,
      role: 'manager',
      pinHash: await hashPin('97531'),
      active: true,
    });
    const cases: [string, string][] = [
      ['Mенаџер', 'name_mixed_script'],
      ['Ана\u200B', 'name_invisible'],
      ['\u202EБора', 'name_invisible'],
      ['MAPKO', 'name_lookalike'],
    ];
    for (const [name, code] of cases) {
      const r = await tillChange([await person('Нада'), await person(name)]);
      expect({ name, status: r.status, code: r.body.code, field: r.body.field }).toEqual({
        name,
        status: 400,
        code,
        field: 'people.1.name',
      });
      const hub = await call(ADMIN, 'PUT', '/api/admin/staff', {
        shopId: shop,
        staff: [{ name, role: 'cashier', pinHash: await hashPin('9753') }],
      });
      expect({ name, status: hub.status, code: hub.body.code, field: hub.body.field }).toEqual({
        name,
        status: 400,
        code,
        field: 'staff.0.name',
      });
    }
    expect(await hub.db.query('SELECT id, name, version FROM staff ORDER BY id')).toEqual(before);
    // A name in NFC (a decomposed „ć“ typed) is kept composed.
    const nfc = await tillChange([await person('Ненад Ћосић'.normalize('NFD'))]);
    expect(nfc.status).toBe(200);
    expect(await idOf('Ненад Ћосић'.normalize('NFC'))).not.toBe('');
  });
});
