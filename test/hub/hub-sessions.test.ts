/**
 * Hub UI sessions in the database (#25), through real `node hub/cli.ts` processes on PGlite and on a real
 * PostgreSQL 15: a session survives a hub restart; it ends on logout (the server's route), on its manager's
 * deactivation, role change or PIN change, whether the change comes from the admin token or from a till's
 * staff event; a manager whose session ended logs in again with the (new) PIN.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { hashPin } from '../../shared/node/pin.ts';
import { startHubProcess, type HubProcess } from '../support/hub-process.ts';
import { processBackends } from './backends.ts';

const ADMIN = 'sessions-test-admin-token-0123456789abcdef';
const { backends: BACKENDS, onCleanup, cleanup } = processBackends('kasa-hub-sessions-');
afterAll(cleanup);

describe.each(BACKENDS)('hub sessions on $name', (backend) => {
  it('survive a restart; end on logout, deactivation, role change and PIN change (admin or till)', async () => {
    const env = { ...(await backend.env()), KASA_HUB_ADMIN_TOKEN: ADMIN };
    let hub: HubProcess = await startHubProcess(env);
    onCleanup(() => hub.stop());
    const req = (token: string, method: string, p: string, body?: unknown): Promise<Response> =>
      fetch(`${hub.url}${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    const staff = async (list: { name: string; role: string; pin: string; active?: boolean }[]): Promise<void> => {
      const body = {
        shopId: hub.shopId,
        staff: await Promise.all(
          list.map(async (s) => ({
            name: s.name,
            role: s.role,
            pinHash: await hashPin(s.pin),
            active: s.active ?? true,
          })),
        ),
      };
      expect((await req(ADMIN, 'PUT', '/api/admin/staff', body)).status).toBe(200);
    };
    const login = async (pin: string): Promise<string> => {
      const r = await fetch(`${hub.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pin }),
      });
      expect(r.status).toBe(200);
      return ((await r.json()) as { token: string }).token;
    };
    const me = async (token: string): Promise<number> => (await req(token, 'GET', '/api/admin/me')).status;

    await staff([
      { name: 'Ана', role: 'manager', pin: '246810' },
      { name: 'Бора', role: 'manager', pin: '135791' },
      { name: 'Цеца', role: 'manager', pin: '112233' },
      { name: 'Дуле', role: 'manager', pin: '445566' },
      { name: 'Ева', role: 'manager', pin: '778899' },
    ]);
    const ana = await login('246810');
    const bora = await login('135791');
    const ceca = await login('112233');
    const dule = await login('445566');
    const eva = await login('778899');
    for (const t of [ana, bora, ceca, dule, eva]) expect(await me(t)).toBe(200);

    // A restart keeps every session.
    await hub.stop();
    hub = await startHubProcess(env);
    for (const t of [ana, bora, ceca, dule, eva]) expect(await me(t)).toBe(200);

    // Logout ends the session at the server: the token no longer works.
    const out = await req(ana, 'POST', '/api/admin/logout', {});
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ ended: true });
    expect(await me(ana)).toBe(401);
    expect((await req(ana, 'GET', '/api/admin/tills')).status).toBe(401);

    // Deactivation, a role change and a PIN change end that manager's session only.
    await staff([{ name: 'Бора', role: 'manager', pin: '135791', active: false }]);
    expect(await me(bora)).toBe(401);
    await staff([{ name: 'Цеца', role: 'cashier', pin: '112233' }]);
    expect(await me(ceca)).toBe(401);
    await staff([{ name: 'Дуле', role: 'manager', pin: '445567' }]);
    expect(await me(dule)).toBe(401);
    expect(await me(eva)).toBe(200);
    // Dule logs in again with the new PIN.
    expect(await me(await login('445567'))).toBe(200);

    // A PIN change that reaches the hub from a till ends the session too: Eva's own, approved by her PIN, which
    // the hub checks itself (#25). The same change pushed as a plain staff snapshot is refused and changes nothing.
    const enrol = await fetch(`${hub.url}/api/enrol`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: hub.enrolCode, name: 'Каса 1' }),
    });
    const till = (await enrol.json()) as { tillId: number; credential: string };
    const down = (await (await req(till.credential, 'GET', '/api/till/changes?since=0')).json()) as {
      staff: { id: string; name: string; pinHash: string }[];
    };
    const eva0 = down.staff.find((p) => p.name === 'Ева');
    const evaNew = { id: eva0?.id, name: 'Ева', role: 'manager', active: true, pinHash: await hashPin('778800') };
    const pushed = await req(till.credential, 'POST', '/api/till/push', {
      tillId: till.tillId,
      events: [
        {
          seq: 1,
          kind: 'staff',
          ref: 'Ева',
          payload: { ...evaNew, pinHash: undefined, pin_hash: evaNew.pinHash, prev_pin_hash: eva0?.pinHash, active: 1 },
        },
      ],
    });
    expect(pushed.status).toBe(200);
    expect(((await pushed.json()) as { refused?: { code: string }[] }).refused).toEqual([
      expect.objectContaining({ code: 'staff_unapproved' }),
    ]);
    expect(await me(eva)).toBe(200);
    const approved = await req(till.credential, 'POST', '/api/till/staff/change', {
      approverPin: '778899',
      people: [evaNew],
    });
    expect(approved.status).toBe(200);
    expect(await me(eva)).toBe(401);
  }, 120_000);
});
