/**
 * TLS on the LAN (#25), through a real `node hub/cli.ts` process started as docs/hub.md says and real tills
 * (createCore, SQLite files) on ephemeral ports: the hub serves HTTPS with a certificate it made (0600 in its
 * data dir) and prints its fingerprint; a till enrols with that fingerprint and syncs; an enrolment against
 * another fingerprint is refused with the code left unspent; a hub restarted with another certificate is
 * refused by the enrolled till on every request (an alarm on its Hub tab) until a manager pins the new one;
 * a wrong Host, a text/plain or form body, a foreign Origin are refused; the UI cannot be framed; plain HTTP
 * never leaves loopback; a shop's own certificate is served and pinned.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core } from '../../electron/core.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { openPglite, type HubDb } from '../../hub/db/db.ts';
import { startHubServer } from '../../hub/server.ts';
import { createHubService } from '../../hub/service.ts';
import type { HubStatusView } from '../../shared/contract/hub.ts';
import type { Result } from '../../shared/contract/index.ts';
import { formatFingerprint, normalizeFingerprint } from '../../shared/hub/fingerprint.ts';
import { peerFingerprint } from '../../shared/node/pinned-fetch.ts';
import { certificateFingerprint, selfSignedCertificate } from '../../shared/node/tls-cert.ts';
import { runHubToExit, startHubProcess, type HubProcess } from '../support/hub-process.ts';
import { freePort } from '../support/ports.ts';
import { seedPgliteDir } from '../support/pglite-template.ts';
import { BREAD_AND_MILK, MANAGER_PIN } from '../support/session.ts';
import { until } from '../support/core-calls.ts';
import { openSandboxTill } from './till-rig.ts';

const ADMIN = 'kasa-tls-admin-token-0123456789abcdef';

const dirs: string[] = [];
const tmp = (): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-tls-'));
  dirs.push(d);
  return d;
};

/** The field a refused command names. */
const fieldOf = (r: Result<unknown>): string | undefined => (r.ok ? undefined : (r.error as { field?: string }).field);

/** The certificate a TLS server at `url` shows, by a real handshake (no CA asked). */
function shownFingerprint(url: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const s = tls.connect({ host: u.hostname, port: Number(u.port), rejectUnauthorized: false }, () => {
      resolve(peerFingerprint(s));
      s.end();
    });
    s.once('error', reject);
  });
}

/** A raw HTTPS request (no pinning: this is the attacker's or the browser's side), with any headers. */
function raw(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      { method: init.method ?? 'GET', headers: init.headers ?? {}, rejectUnauthorized: false },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('the hub on the LAN: HTTPS, pinning, Host, content type, framing', () => {
  let hub: HubProcess;
  let sandbox: Sandbox;
  let data: string;
  let hubEnv: Record<string, string>;
  /** An in-process hub database, for the servers started here directly. */
  let db: HubDb;
  const cores: Core[] = [];

  beforeAll(async () => {
    data = path.join(tmp(), 'hub');
    sandbox = await startSandbox({ port: 0 });
    // As docs/hub.md says: TLS is the default (KASA_HUB_TLS unset means on).
    hubEnv = { KASA_HUB_DATA: data, KASA_HUB_ADMIN_TOKEN: ADMIN, KASA_HUB_PORT: String(await freePort()) };
    hub = await startHubProcess({ ...hubEnv, KASA_HUB_TLS: 'on' });
    const dbDir = path.join(tmp(), 'db');
    await seedPgliteDir(dbDir);
    db = await openPglite(dbDir);
  }, 240_000);
  afterAll(async () => {
    for (const c of cores) await c.close();
    await hub?.stop();
    await db?.close();
    await sandbox?.close();
    dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
  });

  async function newCode(): Promise<{ code: string; fingerprint: string }> {
    const res = await hub.request(`${hub.url}/api/admin/enrol-codes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ shopId: 1 }),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { code: string; fingerprint: string };
  }

  async function till(terminalId: string): Promise<Core> {
    const dir = tmp();
    const core = await openSandboxTill(dir, terminalId, sandbox.url, { env: { KASA_ONLINE_BUDGET_MS: '3000' } });
    cores.push(core);
    await core.dispatch('staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
    const login = await core.dispatch('staff.login', { pin: MANAGER_PIN });
    if (!login.ok) throw new Error(`login: ${JSON.stringify(login.error)}`);
    return core;
  }
  const status = async (c: Core): Promise<HubStatusView> => {
    const r = (await c.dispatch('hub.status', {})) as Result<HubStatusView>;
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    return r.value;
  };

  it('serves HTTPS with a certificate it made at first start (0600 in its data dir) and prints its fingerprint', async () => {
    expect(hub.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const printed = normalizeFingerprint(hub.fingerprint ?? '');
    expect(hub.fingerprint).toMatch(/^([0-9A-F]{4} ){15}[0-9A-F]{4}$/);
    const cert = fs.readFileSync(path.join(data, 'tls', 'hub.crt'), 'utf8');
    expect(certificateFingerprint(cert)).toBe(printed);
    expect(await shownFingerprint(hub.url)).toBe(printed);
    expect(fs.statSync(path.join(data, 'tls', 'hub.key')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(data, 'tls', 'hub.crt')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(data, 'tls')).mode & 0o777).toBe(0o700);
    const x = new crypto.X509Certificate(cert);
    expect(x.subjectAltName).toContain('IP Address:127.0.0.1');
    // The enrolment code comes with the fingerprint the till pins.
    expect(normalizeFingerprint((await newCode()).fingerprint)).toBe(printed);
  });

  it('refuses an enrolment against another fingerprint (nothing sent: the code stays good), then enrols and syncs', async () => {
    const c = await till('TLS1');
    const { code, fingerprint } = await newCode();
    const wrong = formatFingerprint(certificateFingerprint(selfSignedCertificate({ hosts: [] }).cert));
    const refused = await c.dispatch('hub.enrol', { managerPin: MANAGER_PIN, url: hub.url, code, fingerprint: wrong });
    expect(refused.ok).toBe(false);
    expect(fieldOf(refused)).toBe('fingerprint');
    if (!refused.ok) {
      expect(refused.error.message).toContain(hub.fingerprint ?? '?');
      expect(refused.error.message).toContain('nothing was sent');
    }
    const missing = await c.dispatch('hub.enrol', { managerPin: MANAGER_PIN, url: hub.url, code });
    expect(missing.ok).toBe(false);
    expect(fieldOf(missing)).toBe('fingerprint');
    const garbled = await c.dispatch('hub.enrol', {
      managerPin: MANAGER_PIN,
      url: hub.url,
      code,
      fingerprint: 'AB:CD',
    });
    expect(garbled.ok).toBe(false);
    expect(fieldOf(garbled)).toBe('fingerprint');

    // The same code, with the hub's fingerprint as its screen shows it (in lower case, with colons).
    const typed = (normalizeFingerprint(fingerprint)?.match(/../g) ?? []).join(':').toLowerCase();
    const r = await c.dispatch('hub.enrol', { managerPin: MANAGER_PIN, url: hub.url, code, fingerprint: typed });
    expect(r.ok).toBe(true);
    expect((await status(c)).fingerprint).toBe(normalizeFingerprint(fingerprint));
    const sale = (await c.dispatch('sales.checkout', BREAD_AND_MILK)) as Result<{ orderNumber: string }>;
    expect(sale.ok).toBe(true);
    await until(async () => {
      const s = await status(c);
      return s.pending === 0 && s.lastOkAt !== null;
    });
    const orders = await hub.request(`${hub.url}/api/admin/report?shopId=1&from=2000-01-01&to=2100-01-01`, {
      method: 'GET',
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(orders.status).toBe(200);
    expect(((await orders.json()) as { total: { sales: { count: number } } }).total.sales.count).toBeGreaterThan(0);
  }, 180_000);

  it('a hub restarted with another certificate is refused by the enrolled till until a manager pins the new one', async () => {
    const c = await till('TLS2');
    const { code, fingerprint } = await newCode();
    expect((await c.dispatch('hub.enrol', { managerPin: MANAGER_PIN, url: hub.url, code, fingerprint })).ok).toBe(true);
    await until(async () => (await status(c)).lastOkAt !== null);

    // The shop's hub gets a new certificate (here: its own is deleted and it makes another at start).
    await hub.stop();
    fs.rmSync(path.join(data, 'tls'), { recursive: true });
    hub = await startHubProcess({ ...hubEnv, KASA_HUB_TLS: 'on' });
    expect(hub.fingerprint).not.toBe(formatFingerprint(fingerprint));
    const fresh = normalizeFingerprint(hub.fingerprint ?? '') ?? '';

    await await c.dispatch('sales.checkout', BREAD_AND_MILK);
    await until(async () => (await status(c)).pinMismatch?.seen === fresh);
    const s = await status(c);
    expect(s.pending).toBeGreaterThan(0);
    expect(s.fingerprint).toBe(normalizeFingerprint(fingerprint));

    // Pinning needs a manager's PIN, and a fingerprint the hub really shows.
    const noPin = await c.dispatch('hub.repin', { managerPin: '9999', fingerprint: fresh });
    expect(noPin.ok).toBe(false);
    const stale = await c.dispatch('hub.repin', { managerPin: MANAGER_PIN, fingerprint });
    expect(stale.ok).toBe(false);
    expect(fieldOf(stale)).toBe('fingerprint');
    expect((await c.dispatch('hub.repin', { managerPin: MANAGER_PIN, fingerprint: hub.fingerprint })).ok).toBe(true);
    await until(async () => {
      const after = await status(c);
      return after.pending === 0 && after.pinMismatch === null;
    });
    expect((await status(c)).fingerprint).toBe(fresh);
    const audit = c.db
      .prepare<[], { detail: string }>("SELECT detail FROM audit_log WHERE action = 'hub.repin'")
      .all()
      .map((a) => JSON.parse(a.detail) as { fingerprint: string });
    expect(audit).toEqual([{ fingerprint: fresh }]);
  }, 180_000);

  it('refuses a Host it does not serve, non-JSON bodies (415) and another web page (403); no framing', async () => {
    const wrongHost = await raw(`${hub.url}/api/health`, { headers: { host: 'rebound.example.com' } });
    expect(wrongHost.status).toBe(421);
    expect(JSON.parse(wrongHost.body)).toMatchObject({ code: 'host_refused' });
    expect((await raw(`${hub.url}/api/health`, { headers: { host: 'localhost' } })).status).toBe(200);

    const login = JSON.stringify({ pin: '123456', shopId: 1 });
    const plain = await raw(`${hub.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: login,
    });
    expect(plain.status).toBe(415);
    const form = await raw(`${hub.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'pin=123456',
    });
    expect(form.status).toBe(415);
    const untyped = await raw(`${hub.url}/api/admin/login`, { method: 'POST', body: login });
    expect(untyped.status).toBe(415);
    const foreign = await raw(`${hub.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: login,
    });
    expect(foreign.status).toBe(403);
    const own = await raw(`${hub.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: hub.url },
      body: login,
    });
    // The hub's own page reaches the route (a wrong PIN for a shop without that manager).
    expect(own.status).toBe(401);

    for (const r of [wrongHost, plain, await raw(`${hub.url}/`, {})]) {
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('serves the UI with the anti-framing headers', async () => {
    const ui = tmp();
    fs.writeFileSync(path.join(ui, 'hub.html'), '<!doctype html><title>hub</title>');
    const m = selfSignedCertificate({ hosts: ['127.0.0.1'] });
    const server = await startHubServer({ service: createHubService(db), adminToken: ADMIN, tls: m, staticDir: ui });
    try {
      const res = await raw(`${server.url}/`, {});
      expect(res.status).toBe(200);
      expect(res.body).toContain('<title>hub</title>');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toBe("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await server.close();
    }
  });

  it('never serves or uses plain HTTP off loopback', async () => {
    expect(() => startHubServer({ service: createHubService(db), adminToken: ADMIN, bind: '0.0.0.0' })).toThrow(
      /plain HTTP only on loopback/,
    );
    const off = await runHubToExit({
      KASA_HUB_DATA: path.join(tmp(), 'hub'),
      KASA_HUB_TLS: 'off',
      KASA_HUB_BIND: '0.0.0.0',
    });
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('loopback only');
    // A till refuses a plain-HTTP hub on the LAN before it sends its code.
    const c = await till('TLS3');
    const r = await c.dispatch('hub.enrol', {
      managerPin: MANAGER_PIN,
      url: 'http://192.0.2.7:8787',
      code: 'abcdefgh',
    });
    expect(r.ok).toBe(false);
    expect(fieldOf(r)).toBe('url');
    if (!r.ok) expect(r.error.message).toContain('https://');
  }, 180_000);

  it('stops at once with a client connected that never finished its handshake', async () => {
    const quiet = await startHubProcess(
      { KASA_HUB_DATA: path.join(tmp(), 'hub'), KASA_HUB_ADMIN_TOKEN: ADMIN, KASA_HUB_TLS: 'on' },
      { enrolCode: false },
    );
    const u = new URL(quiet.url);
    // A LAN client (or a till cut off mid-handshake) that opened a connection and sent nothing.
    const silent = net.connect(Number(u.port), u.hostname);
    await new Promise((resolve) => silent.once('connect', resolve));
    const closedByHub = new Promise<void>((resolve) => silent.once('close', () => resolve()));
    // Before, the hub's stop waited for the TLS handshake to time out (120 s), past this test's timeout.
    await quiet.stop();
    expect([quiet.child.exitCode, quiet.child.signalCode]).toEqual([0, null]);
    await closedByHub;
  });

  it("serves a shop's own certificate (KASA_HUB_TLS_CERT/KEY); a key others can read stops the hub", async () => {
    const dir = tmp();
    const own = selfSignedCertificate({ hosts: ['127.0.0.1', 'kasa-hub.shop.lan'], commonName: 'kasa-hub.shop.lan' });
    fs.writeFileSync(path.join(dir, 'hub.crt'), own.cert);
    fs.writeFileSync(path.join(dir, 'hub.key'), own.key, { mode: 0o644 });
    fs.chmodSync(path.join(dir, 'hub.key'), 0o644);
    const env = {
      KASA_HUB_DATA: path.join(dir, 'data'),
      KASA_HUB_TLS: 'on',
      KASA_HUB_TLS_CERT: path.join(dir, 'hub.crt'),
      KASA_HUB_TLS_KEY: path.join(dir, 'hub.key'),
    };
    const loose = await runHubToExit(env);
    expect(loose.code).toBe(1);
    expect(loose.stderr).toContain('chmod 600');
    fs.chmodSync(path.join(dir, 'hub.key'), 0o600);
    const shop = await startHubProcess(env);
    try {
      expect(normalizeFingerprint(shop.fingerprint ?? '')).toBe(certificateFingerprint(own.cert));
      expect(await shownFingerprint(shop.url)).toBe(certificateFingerprint(own.cert));
      expect(fs.existsSync(path.join(dir, 'data', 'tls', 'hub.crt'))).toBe(false);
    } finally {
      await shop.stop();
    }
  }, 180_000);
});
