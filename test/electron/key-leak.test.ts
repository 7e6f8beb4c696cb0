/**
 * The API key never lands on disk: a real core in host mode with KASA_API_KEY set to a distinctive value
 * talks to a standalone sandbox gateway (through a tiny proxy that swaps that key for the sandbox's
 * 'demo-key', so the distinctive key is really used on every request), makes sales, takes the daily
 * backup, logs a line that contains the key on purpose; then every file under the data dir (database,
 * WAL, backups, logs) is searched for the key's bytes in several spellings: none may be there.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../electron/core.ts';
import { signIn } from '../support/session.ts';
import { backupInWorker } from '../../electron/db/maintenance.ts';
import { requestRestore } from '../../electron/db/backup.ts';
import { createLogger } from '../../electron/log/logger.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { saleInput } from '../support/rig.ts';

const KEY = 'KASA-LEAK-CANARY-7c2e91f0b4d84a6f9e13';
const spellings = (k: string): Buffer[] => [
  Buffer.from(k, 'utf8'),
  Buffer.from(k, 'utf16le'),
  Buffer.from(Buffer.from(k).toString('base64')),
  Buffer.from(Buffer.from(k).toString('hex')),
  Buffer.from(k.slice(0, 24)), // a truncated copy
];

let sandbox: Sandbox;
let proxy: http.Server;
let proxyUrl = '';
let dataDir = '';
let core: Core | null = null;
let usedKey = 0;

/** Forwards to the sandbox, replacing `Bearer KEY` by `Bearer demo-key` (any other key passes unchanged). */
function startProxy(target: string): Promise<void> {
  proxy = http.createServer((req, res) => {
    const headers = { ...req.headers };
    if (headers.authorization === `Bearer ${KEY}`) {
      usedKey++;
      headers.authorization = 'Bearer demo-key';
    }
    const u = new URL(req.url ?? '/', target);
    delete headers.host;
    const out = http.request(u, { method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return new Promise((resolve) =>
    proxy.listen(0, '127.0.0.1', () => {
      const a = proxy.address();
      proxyUrl = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
      resolve();
    }),
  );
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

function leaks(dir: string): string[] {
  const found: string[] = [];
  for (const file of filesUnder(dir)) {
    const bytes = fs.readFileSync(file);
    spellings(KEY).forEach((s, i) => {
      if (bytes.includes(s)) found.push(`${path.relative(dir, file)} (spelling ${i})`);
    });
  }
  return found;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  await startProxy(sandbox.url);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-leak-'));
  core = await createCore({
    dataDir,
    transport: 'host',
    env: { KASA_API_KEY: KEY, KASA_GATEWAY_URL: proxyUrl, KASA_LANG: 'en', KASA_ONLINE_BUDGET_MS: '5000' },
    logger: createLogger({ dir: path.join(dataDir, 'logs'), echo: false }),
  });
  await signIn(core);
}, 60_000);

afterAll(async () => {
  await core?.close();
  await new Promise((r) => proxy.close(r));
  await sandbox.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the API key at rest', () => {
  it('is in no file of the data dir after sales, a backup and a log line that contains it', async () => {
    const c = core as Core;
    expect(c.info().mode).toBe('live');
    for (let i = 1; i <= 3; i++) {
      const r = await c.dispatch('sales.checkout', saleInput(i, 150));
      expect(r.ok, JSON.stringify(r)).toBe(true);
    }
    const synced = await c.dispatch('sync.now', {});
    expect(synced.ok).toBe(true);
    const list = (await c.dispatch('orders.list', {})) as { ok: true; value: { orders: { state: string }[] } };
    expect(list.value.orders.map((o) => o.state)).toEqual(['fiscalized', 'fiscalized', 'fiscalized']);
    expect(usedKey).toBeGreaterThanOrEqual(4); // tax rates + three receipts, all with the distinctive key

    c.logger.warn(`a careless line with the key ${KEY} and Authorization: Bearer ${KEY}`);
    // The core takes the day's backup in the background after start; take one now that the sales are in.
    const backup = await backupInWorker(c.db, dataDir);
    expect(backup.bytes).toBeGreaterThan(0);
    // A restore point is compressed: search its pages as they come back, rebuilt by a restore (staged).
    requestRestore(dataDir, backup.name);

    // While running (the WAL holds recent pages) and after a clean close.
    const files = filesUnder(dataDir).map((f) => path.relative(dataDir, f));
    expect(files).toEqual(expect.arrayContaining(['kasa.sqlite', 'kasa.sqlite-wal', path.join('logs', 'kasa.log')]));
    expect(files.some((f) => f.startsWith('backups'))).toBe(true);
    expect(files).toContain(path.join('restore', 'staged.sqlite'));
    expect(leaks(dataDir)).toEqual([]);
    await c.close();
    core = null;
    expect(leaks(dataDir)).toEqual([]);

    // The log is useful for support: every gateway call with its correlationId.
    const log = fs.readFileSync(path.join(dataDir, 'logs', 'kasa.log'), 'utf8');
    const calls = log.split('\n').filter((l) => / gateway (GET|POST) /.test(l));
    expect(calls.length).toBeGreaterThanOrEqual(4);
    expect(calls.filter((l) => /correlationId=(?!-)\S+/.test(l)).length).toBeGreaterThanOrEqual(4);
    expect(log).toContain('[redacted]');
  }, 90_000);
});
