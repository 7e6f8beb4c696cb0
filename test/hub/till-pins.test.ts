/**
 * Issue 39, PINs at the tills: whole tills (createCore → dispatch, real SQLite files) enrolled with a real hub over
 * HTTP, on PGlite and a real PostgreSQL 15.
 * - A till holds its own verifiers, not the hub's hashes: one copied into another till's database opens nothing there.
 * - A manager's approval at an online till is the hub's decision (counted by its PIN throttle); offline the till's
 *   verifier decides, with the old PIN for a manager whose PIN changed meanwhile, until the till pulls again.
 * - A cashier's own PIN change goes through the hub with her current PIN and reaches the other till; with the hub
 *   away it waits, and nothing changes.
 * - Managers made at a till before its enrolment approve there with the hub stopped right after it (the till keeps
 *   the hashes it made until the hub sends its verifiers); online the hub decides (a PIN changed there is refused)
 *   and, seeing the PIN in clear, makes the till's verifier.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core } from '../../electron/core.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { startHubServer, type HubServer } from '../../hub/server.ts';
import { createHubService, type HubService } from '../../hub/service.ts';
import { verifyPin } from '../../shared/node/pin.ts';
import { BACKENDS } from './backends.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { ok, recordingLogger, until } from '../support/core-calls.ts';
import { awaitPulledManager } from '../support/host-process.ts';
import { openSandboxTill } from './till-rig.ts';

const ADMIN = 'kasa-pins-admin-token-0123456789abcdef';

describe.each(BACKENDS)('PINs at the tills on $name', (backend) => {
  let handle: Awaited<ReturnType<typeof backend.open>>;
  let service: HubService;
  let server: HubServer;
  let port = 0;
  let sandbox: Sandbox;
  let shopId: number;
  let compares = 0;
  const dirs: string[] = [];
  const cores: Core[] = [];
  /** Each till's last warnings (its hub sync's errors), for a wait that does not end. */
  const logs = new Map<Core, string[]>();

  const serve = async (): Promise<void> => {
    server = await startHubServer({ service, adminToken: ADMIN, port, onPinCompare: () => compares++ });
    port = Number(new URL(server.url).port);
  };

  beforeAll(async () => {
    handle = await backend.open();
    service = createHubService(handle.db);
    shopId = await service.ensureDefaultShop();
    await serve();
    sandbox = await startSandbox({ port: 0 });
  }, 120_000);
  afterAll(async () => {
    for (const c of cores) await c.close();
    await server?.close();
    await sandbox?.close();
    await handle?.dispose();
    dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
  });

  /** A whole till on a fresh data directory; with `hub`, enrolled at start-up with a code of the shop. */
  async function startTill(terminalId: string, hub: boolean): Promise<{ core: Core; dir: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-pins-'));
    dirs.push(dir);
    const { logger, lines } = recordingLogger();
    const core = await openSandboxTill(dir, terminalId, sandbox.url, {
      env: hub ? { KASA_HUB_URL: server.url, KASA_HUB_ENROL_CODE: await service.newEnrolCode(shopId) } : {},
      logger,
    });
    cores.push(core);
    logs.set(core, lines);
    return { core, dir };
  }

  async function till(terminalId: string): Promise<Core> {
    const { core, dir } = await startTill(terminalId, true);
    await until(() => core.db.prepare("SELECT 1 FROM hub_state WHERE key = 'till_id'").get() !== undefined);
    const managed =
      (await handle.db.query("SELECT 1 FROM staff WHERE shop_id = $1 AND role = 'manager' AND active", [shopId]))
        .length > 0;
    const hubManager = async () =>
      (await handle.db.query("SELECT 1 FROM staff WHERE shop_id = $1 AND role = 'manager' AND active", [shopId]))
        .length > 0;
    if (managed) await awaitPulledManager(dir);
    else {
      await ok(core, 'staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
      // Adopted by the shop with the till's next sync round: the next till takes this manager by pull.
      await until(hubManager);
    }
    await until(async () => (await core.dispatch('staff.login', { pin: MANAGER_PIN })).ok);
    return core;
  }
  /** The PIN credential a till holds for the shop's person of that name (a till's own first-run manager aside). */
  const verifierOf = (c: Core, name: string): string =>
    c.db
      .prepare<[string], { pin_hash: string }>('SELECT pin_hash FROM staff WHERE name = ? AND must_change_pin = 0')
      .get(name)?.pin_hash ?? '';
  /** Waits until the till holds its own verifier of the person (the hub made it and the till pulled it). */
  const holdsVerifier = (c: Core, name: string, not = '', pin?: string): Promise<void> =>
    until(
      async () => {
        // A login asks the hub while the till holds no verifier of the person (or a hash it made of them: kept).
        if (pin !== undefined) await c.dispatch('staff.login', { pin });
        await ok(c, 'sync.now', {});
        const v = verifierOf(c, name);
        return v.startsWith('tv1$') && v !== not;
      },
      stuck(c, name),
    );
  /**
   * What a wait on a till that does not end reports (well inside the test's 180 s): the till's people and hub state,
   * the hub's rows of them and its verifiers, the till's hub status and last warnings. PIN hashes cut to their kind.
   */
  const stuck = (c: Core, name: string) => ({
    ms: 60_000,
    state: async () => ({
      waitingFor: name,
      till: c.db
        .prepare('SELECT uid, name, role, substr(pin_hash, 1, 5) AS kind, must_change_pin, at_hub FROM staff')
        .all(),
      hubState: c.db
        .prepare("SELECT key, substr(value, 1, 24) AS value FROM hub_state WHERE key NOT IN ('credential', 'pin_key')")
        .all(),
      status: await c.dispatch('hub.status', {}),
      warnings: logs.get(c) ?? [],
      hubStaff: await handle.db.query('SELECT id, name, role, substr(pin_hash, 1, 7) AS kind, version FROM staff'),
      hubVerifiers: await handle.db.query('SELECT till_id, person_id, version FROM pin_verifiers'),
      hubTills: await handle.db.query('SELECT id, name, revoked_at FROM tills'),
    }),
  });
  /** A manager's approval at the till: a command that needs one (the audit log, read only). */
  const approve = (c: Core, pin: string) => c.dispatch('audit.list', { managerPin: pin, limit: 1 });
  const failures = async (scope: string): Promise<number> =>
    Number(
      (await handle.db.query<{ f: number }>('SELECT failures AS f FROM auth_attempts WHERE scope = $1', [scope]))[0]
        ?.f ?? 0,
    );

  let t1: Core;
  let t2: Core;

  it('a verifier copied from one till into another till’s database opens nothing there', async () => {
    t1 = await till('PINS1');
    t2 = await till('PINS2');
    const manager = t1.db.prepare<[], { name: string }>("SELECT name FROM staff WHERE role = 'manager'").get()?.name;
    const name = manager ?? '';
    // Each till's own login asks the hub (the till holds no verifier of the shop's manager yet), which makes it.
    await holdsVerifier(t1, name, '', MANAGER_PIN);
    await holdsVerifier(t2, name, '', MANAGER_PIN);
    const [v1, v2] = [verifierOf(t1, name), verifierOf(t2, name)];
    expect(v1).not.toBe(v2);
    // No hash of the hub on either till.
    const hubHash = (
      await handle.db.query<{ pin_hash: string }>('SELECT pin_hash FROM staff WHERE name = $1', [name])
    )[0]?.pin_hash;
    for (const c of [t1, t2])
      expect(JSON.stringify(c.db.prepare('SELECT pin_hash FROM staff').all())).not.toContain(hubHash ?? '-');

    await server.close();
    // The hub away, each till's own verifier opens it.
    expect((await t2.dispatch('staff.login', { pin: MANAGER_PIN })).ok).toBe(true);
    // Till 1's verifier copied into till 2's database (as a thief with both disks would): the right PIN opens nothing.
    t2.db.prepare('UPDATE staff SET pin_hash = ? WHERE name = ? AND must_change_pin = 0').run(v1, name);
    expect(await t2.dispatch('staff.login', { pin: MANAGER_PIN })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    t2.db.prepare('UPDATE staff SET pin_hash = ? WHERE name = ? AND must_change_pin = 0').run(v2, name);
    expect((await t2.dispatch('staff.login', { pin: MANAGER_PIN })).ok).toBe(true);
    await serve();
  }, 180_000);

  it('a manager’s approval at an online till is the hub’s (counted there); offline the till’s verifier decides', async () => {
    const tillId = Number(
      t1.db.prepare<[], { value: string }>("SELECT value FROM hub_state WHERE key = 'till_id'").get()?.value,
    );
    const name = t1.db.prepare<[], { name: string }>("SELECT name FROM staff WHERE role = 'manager'").get()?.name ?? '';
    await until(async () => (await t1.dispatch('staff.login', { pin: MANAGER_PIN })).ok);
    const old = verifierOf(t2, name);
    // Online: the hub compares the PIN; a wrong one is counted in the till's and the shop's scope at the hub.
    const before = compares;
    expect((await approve(t1, MANAGER_PIN)).ok).toBe(true);
    expect(compares).toBe(before + 1);
    const wrong0 = await failures(`till:${tillId}`);
    expect(await approve(t1, '975312')).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await failures(`till:${tillId}`)).toBe(wrong0 + 1);

    // The hub away: the till's verifier approves, and the hub compares nothing.
    await server.close();
    const offline = compares;
    expect((await approve(t1, MANAGER_PIN)).ok).toBe(true);
    // The manager's PIN changes at the hub while till 1 is away: there the old PIN still approves (the price).
    await service.setStaffPin(shopId, name, '864213');
    expect((await approve(t1, MANAGER_PIN)).ok).toBe(true);
    expect(compares).toBe(offline);
    // Back online: the hub decides at once (the old PIN refused before the till pulled), then the till's new verifier.
    await serve();
    expect(await approve(t1, MANAGER_PIN)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await approve(t1, '864213')).ok).toBe(true);
    await holdsVerifier(t2, name, old);
    await server.close();
    expect((await approve(t2, '864213')).ok).toBe(true);
    expect(await approve(t2, MANAGER_PIN)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await serve();
  }, 180_000);

  it('a cashier changes her own PIN through the hub with her current PIN; the other till gets it; away, it waits', async () => {
    let login: unknown = null;
    await until(
      async () => {
        const r = await t1.dispatch('staff.login', { pin: '864213' });
        login = r;
        return r.ok;
      },
      { ms: 60_000, state: async () => ({ login, ...(await stuck(t1, 'Менаџер').state()) }) },
    );
    await ok(t1, 'staff.create', { managerPin: '864213', name: 'Вера', role: 'cashier', pin: '1357' });
    await holdsVerifier(t2, 'Вера');
    const old = verifierOf(t2, 'Вера');
    // A wrong current PIN: refused (checked at the hub), nothing changes.
    const wrong = await t1.dispatch('staff.changePin', { currentPin: '1358', newPin: '2468' });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'forbidden', field: 'currentPin' } });
    await ok(t1, 'staff.changePin', { currentPin: '1357', newPin: '2468' });
    await holdsVerifier(t2, 'Вера', old);
    await server.close();
    expect((await t2.dispatch('staff.login', { pin: '2468' })).ok).toBe(true);
    expect((await t2.dispatch('staff.login', { pin: '1357' })).ok).toBe(false);
    // The hub away, her PIN change waits: refused in words, the PIN she has stays.
    const away = await t2.dispatch('staff.changePin', { currentPin: '2468', newPin: '3579' });
    expect(away).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect((await t2.dispatch('staff.login', { pin: '2468' })).ok).toBe(true);
    await serve();
  }, 180_000);

  it('a person made at a till who changes her PIN there at once, before its pull brings her back: through the hub', async () => {
    await ok(t1, 'staff.create', { managerPin: '864213', name: 'Зорица', role: 'cashier', pin: '1471' });
    // No wait for the pull: the till still holds the hash it made of her, and the change must still reach the hub
    // (changed at this till alone, the hub and the other till would keep her first PIN: a CI run caught it).
    await ok(t1, 'staff.changePin', { currentPin: '1471', newPin: '2582' });
    const hash = (await handle.db.query<{ pin_hash: string }>("SELECT pin_hash FROM staff WHERE name = 'Зорица'"))[0]
      ?.pin_hash;
    expect(await verifyPin('2582', hash ?? '')).toBe(true);
    expect(await verifyPin('1471', hash ?? '')).toBe(false);
  }, 60_000);

  it('managers made at a till before its enrolment approve there with the hub away; online the hub decides', async () => {
    const shop = await service.createShop('Shop of a till set up alone');
    const { core: t3 } = await startTill('PINS3', false);
    // Set up alone: the first-run manager's own PIN and a second manager, both hashes this till made.
    await ok(t3, 'staff.changePin', { currentPin: '0000', newPin: '582947' });
    await ok(t3, 'staff.login', { pin: '582947' });
    await ok(t3, 'staff.create', { managerPin: '582947', name: 'Зора', role: 'manager', pin: '694158' });
    const first = t3.db.prepare<[], { name: string }>("SELECT name FROM staff WHERE name <> 'Зора'").get()?.name ?? '';
    await ok(t3, 'hub.enrol', { managerPin: '582947', url: server.url, code: await service.newEnrolCode(shop) });
    const tillId = Number(
      t3.db.prepare<[], { value: string }>("SELECT value FROM hub_state WHERE key = 'till_id'").get()?.value,
    );
    // The shop had no manager: it adopted both; the till pulls them back (and its PIN key) in its next round.
    const hubVersion = async () =>
      Number(
        (await handle.db.query<{ v: string }>('SELECT max(version) AS v FROM staff WHERE shop_id = $1', [shop]))[0]?.v,
      );
    const state = (key: string) =>
      t3.db.prepare<[string], { value: string }>('SELECT value FROM hub_state WHERE key = ?').get(key)?.value;
    await until(async () => {
      await ok(t3, 'sync.now', {});
      return state('pin_key') !== undefined && Number(state('cursor')) >= (await hubVersion());
    });

    // The hub stopped right after the enrolment (the shop's internet gone on day one): the till's own hashes approve.
    await server.close();
    expect((await approve(t3, '582947')).ok).toBe(true);
    expect((await approve(t3, '694158')).ok).toBe(true);
    expect(await approve(t3, '975312')).toMatchObject({ ok: false, error: { code: 'forbidden' } });

    // The first manager's PIN changes at the hub meanwhile: back online, the hub refuses the old one at once, though
    // the till still holds its own hash of it, and approves the new one.
    await service.setStaffPin(shop, first, '461739');
    await serve();
    expect(verifierOf(t3, first)).toMatch(/^scrypt\$/);
    expect(await approve(t3, '582947')).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await approve(t3, '461739')).ok).toBe(true);

    // Зора's PIN approved online: the hub saw it in clear and made the till's verifier, which replaces the hash.
    const compared = compares;
    expect((await approve(t3, '694158')).ok).toBe(true);
    expect(compares).toBe(compared + 1);
    const made = await handle.db.query('SELECT 1 FROM pin_verifiers WHERE till_id = $1', [tillId]);
    expect(made.length).toBe(2);
    await holdsVerifier(t3, 'Зора');
    await server.close();
    expect((await approve(t3, '694158')).ok).toBe(true);
    expect((await approve(t3, '461739')).ok).toBe(true);
    expect(await approve(t3, '582947')).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await serve();
  }, 180_000);
});
