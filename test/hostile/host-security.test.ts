/**
 * Host security beyond test/host/host.test.ts: loopback-only bind, Host header and Origin variants,
 * token forms, CORS-simple content types, body and header size limits, traversal variants and a
 * symlink out of the static root. Real core, real HTTP, raw sockets for requests fetch refuses to send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Host } from '../../electron/host/server.ts';
import { startTestHost, type TestHost } from '../support/test-host.ts';
import { rawRequest, type RawOptions } from '../support/http.ts';

const TOKEN = 'sec-token-0123456789abcdef';
let host: Host;
let dataDir: string;
let staticDir: string;
let running: TestHost;

const raw = (options: RawOptions) => rawRequest(host.port, options);

const ok = (extra: Record<string, string> = {}) => ({
  Host: `127.0.0.1:${host.port}`,
  'Content-Type': 'application/json',
  Authorization: `Bearer ${TOKEN}`,
  ...extra,
});

beforeAll(async () => {
  running = await startTestHost({
    token: TOKEN,
    prefix: 'kasa-sec-',
    env: { KASA_LANG: 'en' },
    // Links out of the static root: to the whole data dir and to the secret itself.
    prepare: (d) => {
      fs.symlinkSync(d.dataDir, path.join(d.staticDir, 'data'));
      fs.symlinkSync(path.join(d.dataDir, 'secret.txt'), path.join(d.staticDir, 'secret.txt'));
    },
  });
  ({ host, dataDir, staticDir } = running);
});

afterAll(() => running.close());

describe('host security', () => {
  it('binds 127.0.0.1 only by default', async () => {
    const connects = (address: string) =>
      new Promise<boolean>((resolve) => {
        const s = net.connect({ host: address, port: host.port });
        s.once('connect', () => (s.destroy(), resolve(true)));
        s.once('error', () => resolve(false));
      });
    expect(await connects('127.0.0.1')).toBe(true);
    const others = [
      '127.0.0.2',
      ...Object.values(os.networkInterfaces())
        .flat()
        .filter((i) => i && !i.internal && i.family === 'IPv4')
        .map((i) => i!.address),
    ];
    for (const a of others) expect(await connects(a)).toBe(false);
  });

  it('refuses foreign, malformed and missing Host headers (DNS rebinding)', async () => {
    const p = host.port;
    for (const h of [
      `127.0.0.1:${p}.evil.example`,
      `evil.example:${p}`,
      '127.0.0.1',
      `localhost:${p + 1}`,
      `127.0.0.1:${p}@evil.example`,
      '',
    ]) {
      expect((await raw({ path: '/', headers: { Host: h } })).status, h).toBe(421);
    }
    expect(
      (await raw({ path: '/api/app.info', method: 'POST', headers: ok({ Host: `evil.example:${p}` }), body: '{}' }))
        .status,
    ).toBe(421);
    expect((await raw({ path: '/', headers: { Host: `LOCALHOST:${p}` } })).status).toBe(200);
  });

  it('refuses cross-origin API calls, including null and scheme/host mismatches', async () => {
    const p = host.port;
    for (const o of [
      'null',
      `https://127.0.0.1:${p}`,
      `http://localhost:${p}`,
      `http://127.0.0.1:${p}.evil.example`,
      'file://',
    ]) {
      expect(
        (await raw({ path: '/api/app.info', method: 'POST', headers: ok({ Origin: o }), body: '{}' })).status,
        o,
      ).toBe(403);
    }
  });

  it('takes the token only as a Bearer header on commands', async () => {
    const p = `/api/app.info?token=${TOKEN}`;
    expect(
      (
        await raw({
          path: p,
          method: 'POST',
          headers: { Host: `127.0.0.1:${host.port}`, 'Content-Type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(401);
    for (const a of [
      `bearer ${TOKEN}`,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN}x`,
      'Bearer ',
      TOKEN,
    ]) {
      expect(
        (await raw({ path: '/api/app.info', method: 'POST', headers: ok({ Authorization: a }), body: '{}' })).status,
        a,
      ).toBe(401);
    }
    expect((await raw({ path: '/api/app.info', method: 'POST', headers: ok(), body: '{}' })).status).toBe(200);
  });

  it('refuses CORS-simple content types (text/plain, form) so a page cannot post without preflight', async () => {
    for (const t of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      expect(
        (await raw({ path: '/api/orders.list', method: 'POST', headers: ok({ 'Content-Type': t }), body: '{}' }))
          .status,
        t,
      ).toBe(415);
    }
  });

  it('limits body size without a Content-Length (chunked) and header size', async () => {
    const big = await raw({
      path: '/api/catalog.import',
      method: 'POST',
      headers: ok({ 'Transfer-Encoding': 'chunked' }),
      chunks: 20,
    });
    expect(big.status).toBe(413);
    const headers = await raw({
      path: '/',
      headers: { Host: `127.0.0.1:${host.port}`, 'X-Big': 'x'.repeat(64 * 1024) },
    }).catch(() => ({ status: 431, body: '' }));
    expect(headers.status).toBe(431);
    expect((await raw({ path: '/api/app.info', method: 'POST', headers: ok(), body: '{}' })).status).toBe(200);
  });

  it('never serves a file outside the static root: encodings, backslashes, absolute paths, symlinks', async () => {
    const h = { Host: `127.0.0.1:${host.port}` };
    const rel = path.relative(staticDir, dataDir).split(path.sep).join('/');
    for (const p of [
      '/..%5csecret.txt',
      '/%252e%252e/secret.txt',
      '/..%c0%afsecret.txt',
      `//${dataDir}/secret.txt`,
      `/%2F${encodeURIComponent(dataDir.slice(1))}%2Fsecret.txt`,
      `/${rel}%00.html`,
      '/data/secret.txt',
      '/secret.txt',
    ]) {
      const r = await raw({ path: p, headers: h });
      expect(r.body, p).not.toContain('do not serve');
    }
  });
});
