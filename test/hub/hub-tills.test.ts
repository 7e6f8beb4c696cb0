/**
 * Revoking a till and enrolment codes (#25), on PGlite and on a real PostgreSQL 15, over real HTTP to a hub
 * server: a till revoked from the hub (admin token or the shop's manager) is refused on every till route
 * while its shop's other tills go on; a manager cannot revoke another shop's till; an enrolment code is
 * single-use and refused once expired (24 h by default, shorter when configured). The service's clock is
 * moved past the expiry, so the test does not wait.
 */
import { describe, expect, it } from 'vitest';
import { createHubService, type HubService } from '../../hub/service.ts';
import { hashPin } from '../../shared/node/pin.ts';
import { BACKENDS } from './backends.ts';
import { serveHub } from './served-hub.ts';

const ADMIN = 'admin-token-for-tests-0123456789ab';
const HOUR = 3600_000;

describe.each(BACKENDS)('hub tills and enrolment codes on $name', (backend) => {
  let shortCodes: HubService;
  let clock = Date.parse('2026-11-26T08:00:00.000Z');
  let shop = 0;
  let otherShop = 0;
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    service: { now: () => new Date(clock) },
    seed: async (service) => {
      shortCodes = createHubService(hub.db, { now: () => new Date(clock), enrolCodeTtlMs: HOUR });
      shop = await service.ensureDefaultShop('A');
      otherShop = await service.createShop('B');
      await service.upsertStaff(otherShop, [{ name: 'Бора', role: 'manager', pinHash: await hashPin('135791') }]);
      await service.upsertStaff(shop, [{ name: 'Ана', role: 'manager', pinHash: await hashPin('246810') }]);
    },
  });
  const call = (token: string, method: string, p: string, body?: unknown) => hub.call(token, method, p, body);
  const enrol = (code: string, name: string) => hub.enrol(code, name);
  const login = async (pin: string, shopId: number): Promise<string> => (await hub.login(pin, shopId)).token;
  /** Admitted as the till it claims to be (the answer may still refuse the input: 400, or 404 for nothing found). */
  const admitted = (statuses: number[]): boolean => statuses.every((s) => s !== 401 && s !== 403);
  /** Every till route, as this till: the statuses (the caller is checked before the input is read). */
  const tillRoutes = async (cred: string, tillId: number): Promise<number[]> => [
    (await call(cred, 'POST', '/api/till/push', { tillId, events: [] })).status,
    (await call(cred, 'GET', '/api/till/changes?since=0')).status,
    (await call(cred, 'POST', '/api/till/lookup', { orderNumber: 'X-1' })).status,
    (await call(cred, 'GET', '/api/till/parked')).status,
    (await call(cred, 'PUT', '/api/till/parked', { localId: 1, name: null, createdAt: 'x', cart: { lines: [] } }))
      .status,
    (await call(cred, 'POST', '/api/till/parked/take', { id: 1 })).status,
  ];

  it('an enrolment code is single-use', async () => {
    const code = await hub.service.newEnrolCode(shop);
    expect((await enrol(code, 'Каса 1')).status).toBe(201);
    const again = await enrol(code, 'Каса 2');
    expect(again).toMatchObject({ status: 403, body: { code: 'enrol_code_used', field: 'code' } });
  });

  it('an enrolment code expires after 24 h (or the configured time) and is then refused', async () => {
    const code = await hub.service.newEnrolCode(shop);
    const short = await shortCodes.newEnrolCode(shop);
    clock += HOUR + 1;
    expect(await enrol(short, 'Каса кратка')).toMatchObject({
      status: 403,
      body: { code: 'enrol_code_expired', field: 'code' },
    });
    clock += 23 * HOUR;
    expect(await enrol(code, 'Каса касна')).toMatchObject({
      status: 403,
      body: { code: 'enrol_code_expired', field: 'code' },
    });
    // A fresh code, from the manager's route, still works.
    const fresh = await call(ADMIN, 'POST', '/api/admin/enrol-codes', { shopId: shop });
    expect(fresh.status).toBe(201);
    expect((await enrol(String(fresh.body.code), 'Каса нова')).status).toBe(201);
  });

  it('a revoked till is refused on every till route; the shop’s other till goes on; only its shop may revoke', async () => {
    const a = (await enrol(await hub.service.newEnrolCode(shop), 'Каса А')).body as {
      tillId: number;
      credential: string;
    };
    const b = (await enrol(await hub.service.newEnrolCode(shop), 'Каса Б')).body as {
      tillId: number;
      credential: string;
    };
    const before = await tillRoutes(a.credential, a.tillId);
    expect(admitted(before)).toBe(true);

    // Another shop's manager may not revoke it.
    const bora = await login('135791', otherShop);
    expect((await call(bora, 'POST', '/api/admin/tills/revoke', { tillId: a.tillId })).status).toBe(404);
    expect(admitted(await tillRoutes(a.credential, a.tillId))).toBe(true);
    // The shop's manager revokes it.
    const ana = await login('246810', shop);
    const revoked = await call(ana, 'POST', '/api/admin/tills/revoke', { tillId: a.tillId });
    expect(revoked).toMatchObject({ status: 200, body: { revoked: a.tillId } });

    expect(await tillRoutes(a.credential, a.tillId)).toEqual([403, 403, 403, 403, 403, 403]);
    const refusal = await call(a.credential, 'GET', '/api/till/changes?since=0');
    expect(refusal.body).toMatchObject({ code: 'till_revoked' });
    expect(admitted(await tillRoutes(b.credential, b.tillId))).toBe(true);

    const tills = await call(ana, 'GET', '/api/admin/tills');
    const listed = (tills.body.tills as { tillId: number; revoked: boolean; alarms: string[] }[]).find(
      (t) => t.tillId === a.tillId,
    );
    expect(listed).toMatchObject({ revoked: true, alarms: [] });
    // The admin token may revoke any shop's till; an unknown till is named.
    expect((await call(ADMIN, 'POST', '/api/admin/tills/revoke', { tillId: b.tillId })).status).toBe(200);
    expect((await tillRoutes(b.credential, b.tillId))[0]).toBe(403);
    expect(await call(ADMIN, 'POST', '/api/admin/tills/revoke', { tillId: 99999 })).toMatchObject({
      status: 404,
      body: { field: 'tillId' },
    });
  });
});
