/**
 * Lockouts an outsider cannot use against the shop (issue 39), on PGlite and on a real PostgreSQL 15, over real
 * HTTP to a hub server from several loopback source addresses (each another machine to the hub). A burst of
 * wrong PINs from one machine slows that machine (at most 5 compares, then its own lockouts, each twice as
 * long); the shop's manager at another machine still logs in, and a till's staff change approved with the
 * manager's PIN still goes through. A guess spread over many machines is still bounded: at most
 * `SHOP_ALLOWANCE` compares, then the shop's lockout. Compares are counted by the server's `onPinCompare` hook.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SHOP_ALLOWANCE } from '../../hub/login-throttle.ts';
import { hashPin } from '../../shared/node/pin.ts';
import { MAX_FAILURES } from '../../shared/auth/attempts.ts';
import { BACKENDS } from './backends.ts';
import { postFrom } from '../support/http.ts';
import { serveHub } from './served-hub.ts';

const ADMIN = 'lockout-admin-token-0123456789abcdefgh';

/** POSTs JSON from a chosen loopback source address (127.0.0.x is another machine to the hub). */
describe.each(BACKENDS)('hub lockouts on $name', (backend) => {
  let clock = Date.now();
  let compares = 0;
  let credential = '';
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    server: { now: () => clock, onPinCompare: () => compares++ },
    staff: [{ name: 'Ана', role: 'manager', pin: '246810' }],
    seed: async (service, shop) => {
      ({ credential } = await service.enrol(await service.newEnrolCode(shop), 'Каса 1'));
    },
  });

  const login = (pin: string, from: string) => postFrom(`${hub.url}/api/admin/login`, { pin, shopId: hub.shop }, from);
  /** A till's staff change (a new cashier) approved with a manager's PIN, as the till sends it. */
  const approve = async (pin: string) =>
    postFrom(
      `${hub.url}/api/till/staff/change`,
      {
        approverPin: pin,
        people: [
          {
            id: crypto.randomUUID(),
            name: `Благајник ${compares}`,
            role: 'cashier',
            pinHash: await hashPin('1357'),
            active: true,
          },
        ],
      },
      '127.0.0.1',
      credential,
    );
  const wrongPins = (from: string, n: number, base: number) =>
    Promise.all(Array.from({ length: n }, (_, i) => login(String(base + i), from)));

  it("one machine's burst slows that machine only: the manager elsewhere logs in, a till's approval goes through", async () => {
    compares = 0;
    const burst = await wrongPins('127.0.0.9', 40, 100000);
    expect(compares).toBeLessThanOrEqual(MAX_FAILURES);
    expect(burst.filter((r) => r.status === 401).length).toBe(compares);
    expect(burst.filter((r) => r.status === 429).length).toBe(40 - compares);
    // The attacker's machine is paused, even with the right PIN.
    expect(await login('246810', '127.0.0.9')).toMatchObject({ status: 429, body: { code: 'login_paused' } });
    // The manager at another machine logs in; a till's staff change approved with the manager's PIN goes through.
    expect(await login('246810', '127.0.0.2')).toMatchObject({ status: 200, body: { name: 'Ана' } });
    expect(await approve('246810')).toMatchObject({ status: 200, body: { changed: 1, approver: 'Ана' } });
  });

  it("the same machine's next lockout is twice as long", async () => {
    const [row] = await hub.db.query<{ lockouts: number; locked_until: number }>(
      'SELECT lockouts, locked_until FROM auth_attempts WHERE scope = $1',
      [`source:127.0.0.9|shop:${hub.shop}`],
    );
    expect(row?.lockouts).toBe(1);
    clock = Number(row?.locked_until) + 1;
    compares = 0;
    await wrongPins('127.0.0.9', 10, 200000);
    expect(compares).toBe(MAX_FAILURES);
    const [again] = await hub.db.query<{ lockouts: number; locked_until: number }>(
      'SELECT lockouts, locked_until FROM auth_attempts WHERE scope = $1',
      [`source:127.0.0.9|shop:${hub.shop}`],
    );
    expect(again?.lockouts).toBe(2);
    expect(Number(again?.locked_until) - clock).toBe(60_000);
    expect((await login('246810', '127.0.0.3')).status).toBe(200);
  });

  it('a guess spread over many machines is bounded by the shop allowance, then the shop is paused', async () => {
    compares = 0;
    const sources = Array.from({ length: 16 }, (_, i) => `127.0.1.${i + 1}`);
    const replies = (await Promise.all(sources.map((s, i) => wrongPins(s, MAX_FAILURES, 300000 + i * 10)))).flat();
    // Earlier wrong PINs of this shop count too: the shop's whole allowance is never exceeded.
    const [row] = await hub.db.query<{ failures: number; lockouts: number }>(
      'SELECT failures, lockouts FROM auth_attempts WHERE scope = $1',
      [`shop:${hub.shop}`],
    );
    expect(compares).toBeLessThanOrEqual(SHOP_ALLOWANCE);
    expect(compares).toBeGreaterThan(SHOP_ALLOWANCE - 2 * MAX_FAILURES - 2);
    expect(row?.lockouts).toBe(1);
    expect(replies.filter((r) => r.status === 429).length).toBe(replies.length - compares);
    // Now the shop is paused for every machine, and for the tills' approvals: the bound holds.
    expect((await login('246810', '127.0.0.4')).status).toBe(429);
    expect((await approve('246810')).status).toBe(429);
  });
});
