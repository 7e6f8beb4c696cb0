/**
 * Staff management at the hub (#26), on PGlite and on a real PostgreSQL 15, over real HTTP to a hub server:
 * a manager lists the shop's people (never a PIN hash), deactivates, reactivates and sets a new PIN; each is
 * in the hub's audit, ends the person's sessions and reaches the enrolled tills through the staff sync. A
 * manager's PIN has at least 6 digits; nobody deactivates themself; the last active manager stays.
 */
import { describe, expect, it } from 'vitest';
import { hashPin } from '../../shared/node/pin.ts';
import { BACKENDS } from './backends.ts';
import { serveHub } from './served-hub.ts';

const ADMIN = 'admin-token-for-staff-tests-0123456789';

describe.each(BACKENDS)('hub staff on $name', (backend) => {
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    staff: [
      { name: 'Ана', role: 'manager', pin: '246810' },
      { name: 'Бора', role: 'manager', pin: '135791' },
      { name: 'Вера', role: 'cashier', pin: '1357' },
    ],
  });
  const call = (token: string, method: string, p: string, body?: unknown) => hub.call(token, method, p, body);
  const login = (pin: string): Promise<{ status: number; token: string }> => hub.login(pin, hub.shop);

  it('deactivates, reactivates and resets a PIN: audited, sessions end, the tills get it', async () => {
    const ana = (await login('246810')).token;
    const bora = (await login('135791')).token;
    const code = (await call(ana, 'POST', '/api/admin/enrol-codes', {})).body.code as string;
    const till = (await hub.enrol(code, 'Каса 1')).body as { credential: string };
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

    // Ana is now the last active manager: she cannot deactivate herself, and the admin cannot either. She is told
    // she is the last (issue 38: „another manager does that“ named nobody).
    const self = await call(ana, 'POST', '/api/admin/staff/active', { name: 'Ана', active: false });
    expect(self).toMatchObject({ status: 409, body: { code: 'last_manager', field: 'active' } });
    const last = await call(ADMIN, 'POST', '/api/admin/staff/active', { shopId: hub.shop, name: 'Ана', active: false });
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
    const other = await hub.service.createShop('Б');
    await hub.service.upsertStaff(other, [{ name: 'Гога', role: 'manager', pinHash: await hashPin('975310') }]);
    const hashOf = async (): Promise<string | undefined> =>
      (
        await hub.db.query<{ h: string }>(`SELECT pin_hash || active::text AS h FROM staff WHERE shop_id = $1`, [other])
      )[0]?.h;
    const before = await hashOf();
    const last = await call(ADMIN, 'PUT', '/api/admin/staff', {
      shopId: other,
      staff: [{ name: 'Гога', role: 'manager', pinHash: await hashPin('975310'), active: false }],
    });
    expect(last).toMatchObject({ status: 409, body: { code: 'last_manager' } });
    // The last manager demoting herself through the bulk route: she is the last, said so; nothing changes.
    await expect(
      hub.service.upsertStaff(other, [{ name: 'Гога', role: 'cashier', pinHash: await hashPin('975310') }], 'Гога'),
    ).rejects.toMatchObject({ code: 'last_manager' });
    expect(await hashOf()).toBe(before);
    // With a second manager, demoting herself is still hers to ask of another manager.
    await hub.service.upsertStaff(other, [{ name: 'Дана', role: 'manager', pinHash: await hashPin('864213') }]);
    await expect(
      hub.service.upsertStaff(other, [{ name: 'Гога', role: 'cashier', pinHash: await hashPin('975310') }], 'Гога'),
    ).rejects.toMatchObject({ code: 'staff_self' });
    expect(await hashOf()).toBe(before);
  });

  it('adds a person from the hub UI by the till’s rules: name, role, PIN; audited; the tills get them', async () => {
    const shop3 = await hub.service.createShop('В');
    await hub.service.upsertStaff(shop3, [{ name: 'Жарко', role: 'manager', pinHash: await hashPin('112233') }]);
    const zarko = (await hub.login('112233', shop3)).token;
    const count = async (): Promise<number> =>
      Number(
        (await hub.db.query<{ n: number }>('SELECT count(*)::int AS n FROM staff WHERE shop_id = $1', [shop3]))[0]?.n,
      );
    const add = (body: Record<string, unknown>) => call(zarko, 'POST', '/api/admin/staff/add', body);

    // Each refusal at its field, nothing written: the person asked for, and the answer.
    const refusals: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { name: 'Зоран', role: 'manager', pin: '1234' },
        { status: 400, body: { code: 'pin_short', field: 'pin' } },
      ],
      [
        { name: 'Зоран', role: 'cashier', pin: '12a4' },
        { status: 400, body: { code: 'pin_format', field: 'pin' } },
      ],
      [
        { name: 'Зоран', role: 'cashier', pin: '112233' },
        { status: 409, body: { code: 'pin_taken', field: 'pin' } },
      ],
      // „Жарко“ with a Latin „a“: a look-alike of another person; a Latin M in a Cyrillic word; a name taken.
      [
        { name: 'Жaрко', role: 'cashier', pin: '4321' },
        { status: 400, body: { field: 'name' } },
      ],
      [
        { name: 'Mилан', role: 'cashier', pin: '4321' },
        { status: 400, body: { code: 'name_mixed_script', field: 'name' } },
      ],
      [
        { name: 'Жарко', role: 'cashier', pin: '4321' },
        { status: 409, body: { code: 'staff_name_taken', field: 'name' } },
      ],
      [{ name: 'Зоран', role: 'chef', pin: '4321' }, { status: 400 }],
    ];
    for (const [person, answer] of refusals) expect(await add(person), JSON.stringify(person)).toMatchObject(answer);
    expect(await count()).toBe(1);

    // Added: listed, logs in with the PIN (a manager), reaches an enrolled till, audited without the PIN.
    const code = (await call(zarko, 'POST', '/api/admin/enrol-codes', {})).body.code as string;
    const till = (await hub.enrol(code, 'Каса В')).body as { credential: string };
    const cursor = Number((await call(till.credential, 'GET', '/api/till/changes?since=0')).body.cursor);
    expect(await add({ name: 'Зоран', role: 'manager', pin: '445566' })).toEqual({
      status: 200,
      body: { name: 'Зоран' },
    });
    expect(await add({ name: 'Исидора', role: 'cashier', pin: '7788' })).toMatchObject({ status: 200 });
    expect((await call(zarko, 'GET', '/api/admin/staff')).body.staff).toEqual([
      { name: 'Жарко', role: 'manager', active: true },
      { name: 'Зоран', role: 'manager', active: true },
      { name: 'Исидора', role: 'cashier', active: true },
    ]);
    const zoran = await hub.login('445566', shop3);
    expect(zoran.status).toBe(200);
    const changes = await call(till.credential, 'GET', `/api/till/changes?since=${cursor}`);
    expect((changes.body.staff as { name: string }[]).map((p) => p.name).sort()).toEqual(['Зоран', 'Исидора']);
    const audit = (await call(zarko, 'GET', '/api/admin/audit')).body.entries as {
      actor: string;
      action: string;
      detail: Record<string, unknown>;
    }[];
    expect(
      audit
        .filter((e) => e.action === 'staff_create')
        .reverse()
        .map((e) => [e.actor, e.detail.name, e.detail.role]),
    ).toEqual([
      ['Жарко', 'Зоран', 'manager'],
      ['Жарко', 'Исидора', 'cashier'],
    ]);
    expect(JSON.stringify(audit)).not.toMatch(/445566|7788|scrypt/);
  });
});
