/**
 * Issue 39, PIN hashes: a till's credential in a thief's hands. Each attack is made with a real enrolled till's
 * credential over real HTTP to a hub server, on PGlite and on a real PostgreSQL 15 (each failed on main):
 * - the staff pull holds no PIN hash of the hub (managers' included); what it holds about PINs is a verifier made
 *   for that till only, which does not verify at another till;
 * - a cashier's PIN is not changed by a stolen hash, nor without the current PIN; with it, through the hub, it is,
 *   and every till gets its own verifier of the new PIN;
 * - a PIN a till asks the hub about (an online approval) is counted by the hub's PIN throttle, per till and shop.
 */
import { describe, expect, it } from 'vitest';
import { hashPin, verifyPin } from '../../shared/node/pin.ts';
import { verifyTillVerifier } from '../../shared/node/pin-verifier.ts';
import { BACKENDS } from './backends.ts';
import { serveHub } from './served-hub.ts';

const ADMIN = 'pins-admin-token-0123456789abcdefghijkl';

interface Pulled {
  cursor: number;
  pinKey?: string;
  staff: Record<string, unknown>[];
}

describe.each(BACKENDS)('PIN hashes and a stolen till credential, on $name', (backend) => {
  const tills: { tillId: number; credential: string }[] = [];
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    staff: [
      { name: 'Ана', role: 'manager', pin: '246810' },
      { name: 'Вера', role: 'cashier', pin: '1357' },
    ],
    seed: async (service, shop) => {
      for (const name of ['Каса 1', 'Каса 2']) tills.push(await service.enrol(await service.newEnrolCode(shop), name));
    },
  });
  const call = (token: string, method: string, p: string, body?: unknown) => hub.call(token, method, p, body);
  const cred = (i: number): string => tills[i]?.credential ?? '';
  const pull = async (i: number, since = 0): Promise<Pulled> =>
    (await call(cred(i), 'GET', `/api/till/changes?since=${since}`)).body as unknown as Pulled;
  const hubRows = () =>
    hub.db.query<{ id: string; name: string; role: string; pin_hash: string }>(
      'SELECT id, name, role, pin_hash FROM staff WHERE shop_id = $1 ORDER BY name',
      [hub.shop],
    );
  const idOf = async (name: string): Promise<string> => (await hubRows()).find((r) => r.name === name)?.id ?? '';

  it("the staff pull holds none of the hub's PIN hashes; a till's verifiers verify at that till only", async () => {
    // Before any PIN was seen at the hub: no hash, and nothing to verify with (a verifier needs the PIN in clear).
    const first = JSON.stringify(await pull(0));
    for (const r of await hubRows()) expect(first).not.toContain(r.pin_hash);
    // A PIN the hub sees (a manager's approval asked of the hub at each till) makes that till's verifier of it.
    expect((await call(cred(0), 'POST', '/api/till/pin', { pin: '246810' })).status).toBe(200);
    expect((await call(cred(1), 'POST', '/api/till/pin', { pin: '246810' })).status).toBe(200);
    const hashes = (await hubRows()).map((r) => r.pin_hash);
    const [a, b] = [await pull(0), await pull(1)];
    for (const got of [a, b]) {
      const text = JSON.stringify(got);
      for (const h of hashes) expect(text).not.toContain(h.split('$')[2] ?? h);
      expect(text).not.toContain('scrypt$');
      for (const s of got.staff) expect(s).not.toHaveProperty('pinHash');
    }
    const ana = await idOf('Ана');
    const va = a.staff.find((s) => s.id === ana)?.verifier as string;
    const vb = b.staff.find((s) => s.id === ana)?.verifier as string;
    expect(va).toMatch(/^tv1\$/);
    expect(vb).toMatch(/^tv1\$/);
    expect(va).not.toBe(vb);
    const [ka, kb] = [a.pinKey ?? '', b.pinKey ?? ''];
    const [ia, ib] = [tills[0]?.tillId ?? 0, tills[1]?.tillId ?? 0];
    // Each verifies the PIN at its own till; copied to the other till (its key, its id), it verifies nothing.
    expect(await verifyTillVerifier('246810', va, ka, ia, ana)).toBe(true);
    expect(await verifyTillVerifier('246810', vb, kb, ib, ana)).toBe(true);
    expect(await verifyTillVerifier('246810', va, kb, ib, ana)).toBe(false);
    // Nor is it the hub's hash: it proves nothing there.
    expect(await verifyPin('246810', va)).toBe(false);
  });

  it("a cashier's PIN is not set by a stolen hash nor without her current PIN; with it, through the hub, it is", async () => {
    const vera = await idOf('Вера');
    const before = (await hubRows()).find((r) => r.name === 'Вера')?.pin_hash ?? '';
    // The thief's till pushes Vera's new PIN with the hash before as proof (the hash stolen from any till or a backup).
    const pushed = await call(cred(0), 'POST', '/api/till/push', {
      tillId: tills[0]?.tillId,
      events: [
        {
          seq: 1,
          kind: 'staff',
          ref: 'Вера',
          payload: {
            id: vera,
            name: 'Вера',
            role: 'cashier',
            pin_hash: await hashPin('9999'),
            prev_pin_hash: before,
            active: 1,
          },
        },
      ],
    });
    expect(pushed.status).toBe(200);
    expect(pushed.body.refused).toEqual([expect.objectContaining({ code: 'staff_unapproved' })]);
    // Without her current PIN (a guess): 401 at `pin`, counted; nothing changes.
    const guessed = await call(cred(0), 'POST', '/api/till/pin', { pin: '0001', id: vera, newPin: '9999' });
    expect(guessed).toMatchObject({ status: 401, body: { code: 'pin_unknown', field: 'pin' } });
    // Nor by a manager's approval in the place of her PIN: the current PIN is hers, checked against her own hash.
    const byManager = await call(cred(0), 'POST', '/api/till/pin', { pin: '246810', id: vera, newPin: '9999' });
    expect(byManager).toMatchObject({ status: 401, body: { field: 'pin' } });
    expect((await hubRows()).find((r) => r.name === 'Вера')?.pin_hash).toBe(before);

    // Vera at till 2 with her current PIN: set at the hub, and every till gets its own verifier of the new PIN.
    const cursor = (await pull(0)).cursor;
    const changed = await call(cred(1), 'POST', '/api/till/pin', { pin: '1357', id: vera, newPin: '8642' });
    expect(changed).toMatchObject({ status: 200, body: { id: vera, name: 'Вера', role: 'cashier' } });
    const after = (await hubRows()).find((r) => r.name === 'Вера')?.pin_hash ?? '';
    expect(await verifyPin('8642', after)).toBe(true);
    const down = await pull(0, cursor);
    const v = down.staff.find((s) => s.id === vera)?.verifier as string;
    expect(await verifyTillVerifier('8642', v, down.pinKey ?? '', tills[0]?.tillId ?? 0, vera)).toBe(true);
    expect(await verifyTillVerifier('1357', v, down.pinKey ?? '', tills[0]?.tillId ?? 0, vera)).toBe(false);
    // Audited with the person and the till, never the PIN or a hash.
    const audit = await hub.db.query<{ actor: string; detail: unknown }>(
      "SELECT actor, detail FROM hub_audit WHERE action = 'staff_own_pin' AND shop_id = $1",
      [hub.shop],
    );
    expect(audit).toEqual([{ actor: 'Вера', detail: { name: 'Вера', till: 'Каса 2 (#' + tills[1]?.tillId + ')' } }]);
    expect(JSON.stringify(audit)).not.toMatch(/8642|1357|scrypt|tv1/);
  });

  it("a till's PIN check is the hub's: counted per till and shop before the compare, then refused", async () => {
    const tillId = tills[0]?.tillId ?? 0;
    const failures = async (scope: string): Promise<number> =>
      Number(
        (await hub.db.query<{ f: number }>('SELECT failures AS f FROM auth_attempts WHERE scope = $1', [scope]))[0]
          ?.f ?? 0,
      );
    const t0 = await failures(`till:${tillId}`);
    const s0 = await failures(`shop:${hub.shop}`);
    expect(await call(cred(0), 'POST', '/api/till/pin', { pin: '111111' })).toMatchObject({
      status: 401,
      body: { code: 'pin_unknown', field: 'pin' },
    });
    expect(await failures(`till:${tillId}`)).toBe(t0 + 1);
    expect(await failures(`shop:${hub.shop}`)).toBe(s0 + 1);
    // A right one is answered with its person (never a hash) and takes the attempt back.
    const right = await call(cred(0), 'POST', '/api/till/pin', { pin: '246810' });
    expect(right).toMatchObject({ status: 200, body: { name: 'Ана', role: 'manager' } });
    expect(JSON.stringify(right.body)).not.toContain('scrypt$');
    // Five wrong ones lock that till at the hub (429), not the shop: the other till's check still goes through.
    for (let i = 0; i < 6; i++) await call(cred(0), 'POST', '/api/till/pin', { pin: '111111' });
    expect((await call(cred(0), 'POST', '/api/till/pin', { pin: '246810' })).status).toBe(429);
    expect((await call(cred(1), 'POST', '/api/till/pin', { pin: '246810' })).status).toBe(200);
  });
});
