/**
 * The hub's audit (#25), on PGlite and on a real PostgreSQL 15, over real HTTP to a hub server: the admin
 * token's and a manager's actions are recorded (who, what, when, which shop) without secrets (no PIN, PIN
 * hash, session token or enrolment code); a manager reads their shop's entries only, the admin token all.
 */
import { describe, expect, it } from 'vitest';
import type { HubAuditEntry } from '../../hub/audit.ts';
import { hashPin } from '../../shared/node/pin.ts';
import { BACKENDS } from './backends.ts';
import { serveHub } from './served-hub.ts';

const ADMIN = 'admin-token-for-tests-0123456789ab';

describe.each(BACKENDS)('hub audit on $name', (backend) => {
  const hub = serveHub(backend, { adminToken: ADMIN, staff: [{ name: 'Ана', role: 'manager', pin: '246810' }] });
  const call = (token: string, method: string, p: string, body?: unknown) => hub.call(token, method, p, body);

  it('records admin and manager actions without secrets; a manager sees their shop only', async () => {
    const other = (await call(ADMIN, 'POST', '/api/admin/shops', { name: 'Б' })).body.shopId as number;
    const token = (await hub.login('246810', hub.shop)).token;
    const code = (await call(token, 'POST', '/api/admin/enrol-codes', {})).body.code as string;
    const { tillId } = (await hub.enrol(code, 'Каса 1')).body as { tillId: number };
    expect(
      (
        await call(token, 'PUT', '/api/admin/products', {
          products: [{ code: '1001', name: 'Млеко', pricePara: 15_990, label: 'A', unit: 'piece' }],
        })
      ).status,
    ).toBe(200);
    expect((await call(token, 'PUT', '/api/admin/settings', { settings: { discountLimitPercent: 20 } })).status).toBe(
      200,
    );
    const pinHash = await hashPin('975310');
    expect(
      (await call(token, 'PUT', '/api/admin/staff', { staff: [{ name: 'Цеца', role: 'cashier', pinHash }] })).status,
    ).toBe(200);
    expect((await call(token, 'POST', '/api/admin/tills/revoke', { tillId })).status).toBe(200);
    // Admin staff change in the other shop: not the manager's to see.
    expect(
      (
        await call(ADMIN, 'PUT', '/api/admin/staff', {
          shopId: other,
          staff: [{ name: 'Бора', role: 'manager', pinHash }],
        })
      ).status,
    ).toBe(200);

    const mine = (await call(token, 'GET', '/api/admin/audit')).body.entries as HubAuditEntry[];
    expect(mine.map((e) => [e.actor, e.action])).toEqual([
      ['Ана', 'till_revoke'],
      ['Ана', 'staff'],
      ['Ана', 'settings'],
      ['Ана', 'products'],
      ['Ана', 'enrol_code'],
      ['Ана', 'login'],
    ]);
    expect(mine.every((e) => e.shopId === hub.shop && !Number.isNaN(Date.parse(e.at)))).toBe(true);
    expect(mine[0]?.detail).toMatchObject({ till: tillId, name: 'Каса 1' });
    expect(mine[1]?.detail).toMatchObject({ count: 1, names: 'Цеца' });
    expect(mine[3]?.detail).toMatchObject({ count: 1, codes: '1001' });
    // Another shop's manager-only query is refused.
    expect((await call(token, 'GET', `/api/admin/audit?shopId=${other}`)).status).toBe(403);

    const all = (await call(ADMIN, 'GET', '/api/admin/audit')).body.entries as HubAuditEntry[];
    expect(all.slice(0, 1).map((e) => [e.actor, e.action, e.shopId])).toEqual([['admin', 'staff', other]]);
    expect(all.some((e) => e.actor === 'admin' && e.action === 'shop_create' && e.shopId === other)).toBe(true);

    // Logout is recorded; nothing secret is anywhere in the log.
    expect((await call(token, 'POST', '/api/admin/logout', {})).status).toBe(200);
    const text = JSON.stringify((await call(ADMIN, 'GET', '/api/admin/audit')).body);
    expect(text).toContain('"logout"');
    for (const secret of [code, token, pinHash, '246810', '975310', ADMIN]) expect(text).not.toContain(secret);
  });

  it('records a login lockout, naming the scope and when it ends', async () => {
    const wrong = () => hub.login('000000', hub.shop);
    for (let i = 0; i < 6; i++) await wrong();
    const all = (await call(ADMIN, 'GET', '/api/admin/audit')).body.entries as HubAuditEntry[];
    const locked = all.filter((e) => e.action === 'login_locked');
    expect(locked.length).toBeGreaterThan(0);
    expect(locked[0]).toMatchObject({ shopId: hub.shop, actor: '127.0.0.1' });
    expect(typeof locked[0]?.detail.until).toBe('number');
  });
});
