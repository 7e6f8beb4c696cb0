/**
 * Staff management at the hub (#26), on PGlite and on a real PostgreSQL 15, over real HTTP to a hub server:
 * a manager lists the shop's people (never a PIN hash), deactivates, reactivates and sets a new PIN; each is
 * in the hub's audit, ends the person's sessions and reaches the enrolled tills through the staff sync. A
 * manager's PIN has at least 6 digits; nobody deactivates themself; the last active manager stays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHubServer, type HubServer } from '../../hub/server.ts';
import { createHubService, type HubService } from '../../hub/service.ts';
import { hashPin } from '../../shared/node/pin.ts';
import { BACKENDS } from './backends.ts';

const ADMIN = 'admin-token-for-staff-tests-0123456789';

describe.each(BACKENDS)('hub staff on $name', (backend) => {
  let handle: Awaited<ReturnType<typeof backend.open>>;
  let service: HubService;
  let server: HubServer;
  let shop = 0;

  beforeAll(async () => {
    handle = await backend.open();
    service = createHubService(handle.db);
    shop = await service.ensureDefaultShop('A');
    await service.upsertStaff(shop, [
      { name: 'Ана', role: 'manager', pinHash: await hashPin('246810') },
      { name: 'Бора', role: 'manager', pinHash: await hashPin('135791') },
      { name: 'Вера', role: 'cashier', pinHash: await hashPin('1357') },
    ]);
    server = await startHubServer({ service, adminToken: ADMIN });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await handle?.dispose();
  });

  const call = async (token: string, method: string, p: string, body?: unknown) => {
    const r = await fetch(`${server.url}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const login = async (pin: string): Promise<{ status: number; token: string }> => {
    const r = await fetch(`${server.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pin, shopId: shop }),
    });
    return { status: r.status, token: ((await r.json()) as { token?: string }).token ?? '' };
  };

  it('deactivates, reactivates and resets a PIN: audited, sessions end, the tills get it', async () => {
    const ana = (await login('246810')).token;
    const bora = (await login('135791')).token;
    const code = (await call(ana, 'POST', '/api/admin/enrol-codes', {})).body.code as string;
    const enrol = await fetch(`${server.url}/api/enrol`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code, name: 'Каса 1' }),
    });
    const till = (await enrol.json()) as { credential: string };
    const cursor = Number((await call(till.credential, 'GET', '/api/till/changes?since=0')).body.cursor);

    const list = await call(ana, 'GET', '/api/admin/staff');
    expect(list.body.staff).toEqual([
      { name: 'Ана', role: 'manager', active: true },
      { name: 'Бора', role: 'manager', active: true },
      { name: 'Вера', role: 'cashier', active: true },
    ]);
    expect(JSON.stringify(list.body)).not.toContain('scrypt');

    // Ana deactivates Bora: his session ends, his PIN no longer logs in, the till receives the change.
    expect((await call(ana, 'POST', '/api/admin/staff/active', { name: 'Бора', active: false })).body).toEqual({
      changed: true,
    });
    expect((await call(bora, 'GET', '/api/admin/me')).status).toBe(401);
    expect((await login('135791')).status).toBe(401);
    const changes = await call(till.credential, 'GET', `/api/till/changes?since=${cursor}`);
    expect(changes.body.staff).toEqual([expect.objectContaining({ name: 'Бора', active: false })]);

    // Ana is now the last active manager: she cannot deactivate herself, and the admin cannot either.
    const self = await call(ana, 'POST', '/api/admin/staff/active', { name: 'Ана', active: false });
    expect(self).toMatchObject({ status: 409, body: { code: 'staff_self', field: 'active' } });
    const last = await call(ADMIN, 'POST', '/api/admin/staff/active', { shopId: shop, name: 'Ана', active: false });
    expect(last).toMatchObject({ status: 409, body: { code: 'last_manager', field: 'active' } });
    expect((await call(ana, 'GET', '/api/admin/me')).status).toBe(200);

    // Reactivated, Bora logs in again.
    await call(ana, 'POST', '/api/admin/staff/active', { name: 'Бора', active: true });
    const again = await login('135791');
    expect(again.status).toBe(200);

    // A manager's PIN: at least 6 digits, digits only, not another person's; then the new one works.
    const short = await call(ana, 'POST', '/api/admin/staff/pin', { name: 'Бора', pin: '1234' });
    expect(short).toMatchObject({ status: 400, body: { code: 'pin_short', field: 'pin' } });
    const letters = await call(ana, 'POST', '/api/admin/staff/pin', { name: 'Бора', pin: '12ab56' });
    expect(letters).toMatchObject({ status: 400, body: { code: 'pin_format', field: 'pin' } });
    const taken = await call(ana, 'POST', '/api/admin/staff/pin', { name: 'Бора', pin: '246810' });
    expect(taken).toMatchObject({ status: 409, body: { code: 'pin_taken', field: 'pin' } });
    // Not a PIN anyone tries first (issue 38): one digit repeated, a run up or down; nothing changes.
    for (const pin of ['123456', '654321', '999999', '3456789'])
      expect(await call(ana, 'POST', '/api/admin/staff/pin', { name: 'Бора', pin })).toMatchObject({
        status: 400,
        body: { code: 'pin_trivial', field: 'pin' },
      });
    expect((await login('135791')).status).toBe(200);
    expect((await call(ana, 'POST', '/api/admin/staff/pin', { name: 'Бора', pin: '975310' })).status).toBe(200);
    expect((await call(again.token, 'GET', '/api/admin/me')).status).toBe(401);
    expect((await login('135791')).status).toBe(401);
    expect((await login('975310')).status).toBe(200);
    // A cashier's PIN may have 4 digits.
    expect((await call(ana, 'POST', '/api/admin/staff/pin', { name: 'Вера', pin: '8642' })).status).toBe(200);
    const unknown = await call(ana, 'POST', '/api/admin/staff/pin', { name: 'Нико', pin: '864200' });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'staff_unknown', field: 'name' } });

    const audit = (await call(ana, 'GET', '/api/admin/audit')).body.entries as {
      actor: string;
      action: string;
      detail: Record<string, unknown>;
    }[];
    const staffLines = audit.filter((e) => e.action.startsWith('staff_')).reverse();
    expect(staffLines.map((e) => [e.actor, e.action, e.detail.name])).toEqual([
      ['Ана', 'staff_deactivate', 'Бора'],
      ['Ана', 'staff_reactivate', 'Бора'],
      ['Ана', 'staff_pin', 'Бора'],
      ['Ана', 'staff_pin', 'Вера'],
    ]);
    expect(JSON.stringify(audit)).not.toMatch(/975310|8642|scrypt/);
  }, 120_000);

  it('the bulk staff route keeps the same rules: no self-deactivation, never the last manager; nothing changes', async () => {
    const other = await service.createShop('Б');
    await service.upsertStaff(other, [{ name: 'Гога', role: 'manager', pinHash: await hashPin('975310') }]);
    const hashOf = async (): Promise<string | undefined> =>
      (
        await handle.db.query<{ h: string }>(`SELECT pin_hash || active::text AS h FROM staff WHERE shop_id = $1`, [
          other,
        ])
      )[0]?.h;
    const before = await hashOf();
    const last = await call(ADMIN, 'PUT', '/api/admin/staff', {
      shopId: other,
      staff: [{ name: 'Гога', role: 'manager', pinHash: await hashPin('975310'), active: false }],
    });
    expect(last).toMatchObject({ status: 409, body: { code: 'last_manager' } });
    await expect(
      service.upsertStaff(other, [{ name: 'Гога', role: 'cashier', pinHash: await hashPin('975310') }], 'Гога'),
    ).rejects.toMatchObject({ code: 'staff_self' });
    expect(await hashOf()).toBe(before);
  });
});
