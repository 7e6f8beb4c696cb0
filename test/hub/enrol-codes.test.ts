/**
 * Enrolment codes on request only (issue 39), through real `node hub/cli.ts` processes on PGlite and on a real
 * PostgreSQL 15: a hub start mints and prints no code (three starts, no code at the hub); `npm run hub --
 * enrol-code` prints one, asking the running hub through its control socket, or opening the database itself
 * when no hub runs; a till enrols with it; a manager lists the shop's codes (never a code or its hash) and revokes
 * an unspent one, which is then refused at enrolment (403 `enrol_code_revoked`), audited without the code.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPin } from '../../shared/node/pin.ts';
import { startHubProcess, type HubProcess } from '../support/hub-process.ts';
import { ROOT } from '../support/host-process.ts';
import { processBackends } from './backends.ts';

const ADMIN = 'enrol-codes-admin-token-0123456789abcdef';
const { backends: BACKENDS, onCleanup, cleanup } = processBackends('kasa-hub-codes-');
afterAll(cleanup);

/** `npm run hub -- enrol-code` with the hub's environment: its one JSON line. */
async function enrolCodeCommand(env: Record<string, string>): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'hub', 'cli.ts'), 'enrol-code'], {
    cwd: ROOT,
    env: { ...process.env, KASA_HUB_TLS: 'off', ...env },
  });
  return JSON.parse(stdout.trim()) as Record<string, unknown>;
}

describe.each(BACKENDS)('enrolment codes on $name', (backend) => {
  it('none at a start; minted on request, listed, revoked and then refused', async () => {
    const env = { ...(await backend.env()), KASA_HUB_ADMIN_TOKEN: ADMIN };
    let hub: HubProcess = await startHubProcess(env, { enrolCode: false });
    onCleanup(() => hub.stop());
    for (let i = 0; i < 2; i++) {
      await hub.stop();
      hub = await startHubProcess(env, { enrolCode: false });
    }
    expect(Object.keys(JSON.parse(hub.firstLine) as object)).not.toContain('enrolCode');
    const call = async (token: string, method: string, p: string, body?: unknown) => {
      const r = await fetch(`${hub.url}${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };
    const codes = async (token: string) =>
      (await call(token, 'GET', `/api/admin/enrol-codes?shopId=${hub.shopId}`)).body.codes as {
        id: number;
        state: string;
        tillId: number | null;
      }[];
    const enrol = (code: string) =>
      fetch(`${hub.url}/api/enrol`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code, name: 'Каса 1' }),
      });
    // Three starts: no code at the hub.
    expect(await codes(ADMIN)).toEqual([]);

    // The command asks the running hub (its control socket) for one; a till enrols with it.
    const minted = await enrolCodeCommand(env);
    expect(minted).toMatchObject({ shopId: hub.shopId, fingerprint: null });
    expect(String(minted.code).length).toBeGreaterThanOrEqual(6);
    expect(Date.parse(String(minted.expiresAt)) - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect((await enrol(String(minted.code))).status).toBe(201);

    // A manager of the shop makes another, lists both (no secret in the list) and revokes the unspent one.
    const put = await call(ADMIN, 'PUT', '/api/admin/staff', {
      shopId: hub.shopId,
      staff: [{ name: 'Ана', role: 'manager', pinHash: await hashPin('246810') }],
    });
    expect(put.status).toBe(200);
    const login = await fetch(`${hub.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pin: '246810' }),
    });
    const manager = ((await login.json()) as { token: string }).token;
    const second = await call(manager, 'POST', '/api/admin/enrol-codes', {});
    expect(second.status).toBe(201);
    const list = await codes(manager);
    expect(list.map((c) => c.state)).toEqual(['open', 'used']);
    expect(list[1]?.tillId).toBeGreaterThan(0);
    const listText = JSON.stringify(list);
    expect(listText).not.toContain(String(minted.code));
    expect(listText).not.toContain(String(second.body.code));
    const [open, used] = list;
    expect((await call(manager, 'POST', '/api/admin/enrol-codes/revoke', { id: open?.id })).status).toBe(200);
    const refused = await enrol(String(second.body.code));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'enrol_code_revoked', field: 'code' });
    expect((await codes(manager)).map((c) => c.state)).toEqual(['revoked', 'used']);
    // A spent code is not revoked (its till is); an unknown one is 404 at `id`.
    expect(await call(manager, 'POST', '/api/admin/enrol-codes/revoke', { id: used?.id })).toMatchObject({
      status: 409,
      body: { code: 'enrol_code_used', field: 'id' },
    });
    expect(await call(manager, 'POST', '/api/admin/enrol-codes/revoke', { id: 999_999 })).toMatchObject({
      status: 404,
      body: { field: 'id' },
    });
    // Audited, never with the code.
    const audit = (await call(manager, 'GET', '/api/admin/audit')).body.entries as { action: string }[];
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['enrol_code', 'enrol_code_revoke']));
    expect(JSON.stringify(audit)).not.toContain(String(second.body.code));

    // With the hub stopped the command opens the database itself; the hub started again takes that code.
    await hub.stop();
    const offline = await enrolCodeCommand(env);
    expect(offline).toMatchObject({ shopId: hub.shopId });
    hub = await startHubProcess(env, { enrolCode: false });
    expect((await enrol(String(offline.code))).status).toBe(201);
    expect((await codes(ADMIN)).map((c) => c.state)).toEqual(['used', 'revoked', 'used']);
  }, 180_000);
});
