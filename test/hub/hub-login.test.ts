/**
 * Hub login like the till's (#25), on PGlite and on a real PostgreSQL 15, over real HTTP to a hub server:
 * attempts are counted per source address and shop, and per shop, before the PIN compare (the counting shared
 * with the till; hub/login-throttle.ts), so a 300-request parallel burst of wrong PINs from one machine gets at
 * most 5 compares; another shop's manager, and this shop's from another machine, log in meanwhile; the right PIN
 * works from that machine once the lockout has passed (the hub's login clock is moved past it, so the test does
 * not wait 30 s). Evaluations are counted by the server's `onPinCompare` hook.
 */
import { describe, expect, it } from 'vitest';
import { hashPin } from '../../shared/node/pin.ts';
import { MAX_FAILURES } from '../../shared/auth/attempts.ts';
import { BACKENDS } from './backends.ts';
import { postFrom } from '../support/http.ts';
import { serveHub } from './served-hub.ts';

const ADMIN = 'admin-token-for-tests-0123456789ab';

/** POSTs JSON from a chosen loopback source address (127.0.0.2 is another machine to the hub). */
describe.each(BACKENDS)('hub login on $name', (backend) => {
  let clock = Date.now();
  const compares: number[] = [];
  let shopA = 0;
  let shopB = 0;
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    server: { now: () => clock, onPinCompare: (shop) => compares.push(shop) },
    seed: async (service) => {
      shopA = await service.ensureDefaultShop('A');
      shopB = await service.createShop('B');
      await service.upsertStaff(shopA, [{ name: 'Ана', role: 'manager', pinHash: await hashPin('246810') }]);
      await service.upsertStaff(shopB, [{ name: 'Бора', role: 'manager', pinHash: await hashPin('135791') }]);
    },
  });

  const login = (pin: string, shopId: number, from?: string) =>
    postFrom(`${hub.url}/api/admin/login`, { pin, shopId }, from);

  it('a PIN is compared only with the named shop; a hub of several shops needs the shop named', async () => {
    // Shop B's manager's PIN does not open shop A.
    const wrongShop = await login('135791', shopA, '127.0.0.3');
    expect(wrongShop.status).toBe(401);
    expect(wrongShop.body).toMatchObject({ field: 'pin' });
    const unnamed = await postFrom(`${hub.url}/api/admin/login`, { pin: '135791' }, '127.0.0.3');
    expect(unnamed.status).toBe(400);
    expect(unnamed.body).toMatchObject({ field: 'shopId' });
    const ok = await login('135791', shopB, '127.0.0.3');
    expect(ok).toMatchObject({ status: 200, body: { shopId: shopB, name: 'Бора' } });
    const shops = (await (await fetch(`${hub.url}/api/shops`)).json()) as { shops: { id: number }[] };
    expect(shops.shops.map((s) => s.id)).toEqual([shopA, shopB]);
  });

  it('a 300-request parallel burst gets at most 5 compares; another shop logs in meanwhile; then the right PIN', async () => {
    compares.length = 0;
    const burst = Array.from({ length: 300 }, (_, i) => login(String(100000 + i), shopA));
    // Shop B's manager, at another machine, during the burst.
    const other = login('135791', shopB, '127.0.0.2');
    const [replies, otherReply] = await Promise.all([Promise.all(burst), other]);
    expect(otherReply).toMatchObject({ status: 200, body: { shopId: shopB } });

    const onA = compares.filter((s) => s === shopA).length;
    expect(onA).toBeLessThanOrEqual(MAX_FAILURES);
    expect(onA).toBeGreaterThan(0);
    const wrong = replies.filter((r) => r.status === 401).length;
    const paused = replies.filter((r) => r.status === 429);
    expect(wrong).toBe(onA);
    expect(paused.length).toBe(300 - wrong);
    expect(paused[0]?.body).toMatchObject({ code: 'login_paused', field: 'pin' });

    // This machine is paused for shop A: its right PIN is refused without a compare. Another machine is not
    // (issue 39: an outsider's burst does not lock the shop's managers out), and shop B never was.
    const before = compares.length;
    expect((await login('246810', shopA)).status).toBe(429);
    expect(compares.length).toBe(before);
    expect((await login('246810', shopA, '127.0.0.4')).status).toBe(200);
    expect((await login('135791', shopB, '127.0.0.5')).status).toBe(200);

    // The machine's scope for the shop is locked (its allowance was spent).
    const rows = await hub.db.query<{ scope: string; lockouts: number; locked_until: number }>(
      'SELECT scope, lockouts, locked_until FROM auth_attempts WHERE scope = $1',
      [`source:127.0.0.1|shop:${shopA}`],
    );
    expect(rows.map((r) => [r.scope, r.lockouts])).toEqual([[`source:127.0.0.1|shop:${shopA}`, 1]]);
    // After the backoff the right PIN works.
    clock = Math.max(...rows.map((r) => r.locked_until)) + 1;
    const ok = await login('246810', shopA);
    expect(ok).toMatchObject({ status: 200, body: { shopId: shopA, name: 'Ана' } });
    const token = String(ok.body.token);
    const me = await fetch(`${hub.url}/api/admin/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toMatchObject({ shopId: shopA, name: 'Ана' });
  });

  it('the next lockout of a scope is twice as long', async () => {
    for (let i = 0; i < MAX_FAILURES; i++) expect((await login('999999', shopA)).status).toBe(401);
    expect((await login('999999', shopA)).status).toBe(429);
    const [row] = await hub.db.query<{ lockouts: number; locked_until: number }>(
      'SELECT lockouts, locked_until FROM auth_attempts WHERE scope = $1',
      [`source:127.0.0.1|shop:${shopA}`],
    );
    expect(row?.lockouts).toBe(2);
    expect(row?.locked_until).toBe(clock + 60_000);
  });
});
