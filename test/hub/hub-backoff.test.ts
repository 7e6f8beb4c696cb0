/**
 * The till's hub sync backs off while the hub is away and comes back to its pace when the hub answers again:
 * a real HTTP server on a free port that drops connections, then answers 503, then recovers.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/db/open.ts';
import { HubSync } from '../../electron/hub-client/sync.ts';

const dirs: string[] = [];
const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('hub sync while the hub is away', () => {
  it('backs off (drops and 503s), then syncs again and keeps its one-round-per-interval pace', async () => {
    let phase: 'drop' | '503' | 'up' = 'drop';
    const hits: { at: number; path: string }[] = [];
    const server = http.createServer((req, res) => {
      hits.push({ at: Date.now(), path: req.url ?? '' });
      if (phase === 'drop') return void req.socket.destroy();
      if (phase === '503') {
        res.writeHead(503, { 'content-type': 'application/json' });
        return void res.end('{"code":"unavailable","message":"the hub is restarting"}');
      }
      req.resume();
      req.on('end', () => {
        const body =
          req.url === '/api/enrol'
            ? { tillId: 3, shopId: 1, credential: 'kh1.test' }
            : req.url === '/api/till/push'
              ? { acked: 0, stored: 0, duplicates: 0, gaps: [] }
              : { cursor: 0, more: false, products: [], staff: [] };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => server.close(r)));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-backoff-'));
    dirs.push(dir);
    const db = openDatabase(path.join(dir, 'kasa.sqlite'));
    closers.push(() => db.close());
    const warned: string[] = [];
    const sync = new HubSync({
      db,
      dataDir: dir,
      env: { KASA_HUB_URL: url, KASA_HUB_ENROL_CODE: 'ENROL-1' },
      logger: { info: () => undefined, warn: (l: string) => warned.push(l) },
      counts: () => ({ queued: 0, needsAttention: 0, oldestQueuedAt: null }),
      terminalId: () => 'KASA9',
      intervalMs: 20,
      backoff: { baseMs: 600, capMs: 600, jitter: 'none' },
    });
    closers.push(() => sync.stop());
    sync.start();

    // Away for 2 s: at a 20 ms pace that would be ~100 tries; waiting 600 ms after each failure it is 4.
    await sleep(1000);
    phase = '503';
    await sleep(1000);
    const away = hits.length;
    expect(away).toBeGreaterThanOrEqual(2);
    expect(away).toBeLessThanOrEqual(5);
    const gaps = hits.slice(1).map((h, i) => h.at - (hits[i]?.at ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(550);
    expect(sync.status()).toMatchObject({ enrolled: false, lastOkAt: null });
    expect(sync.status().lastError).toMatch(/unavailable|hub is restarting|fetch failed|socket/i);
    expect(warned.length).toBeGreaterThan(0);

    // Back: the next try (at most 600 ms away) enrols and syncs; then one round every ~20 ms, not 600.
    phase = 'up';
    const back = Date.now();
    while (sync.status().lastOkAt === null) {
      expect(Date.now() - back).toBeLessThan(3000);
      await sleep(10);
    }
    expect(sync.status()).toMatchObject({ enrolled: true, tillId: 3, lastError: null });
    const before = hits.filter((h) => h.path.startsWith('/api/till/changes')).length;
    await sleep(1200);
    const rounds = hits.filter((h) => h.path.startsWith('/api/till/changes')).length - before;
    expect(rounds).toBeGreaterThanOrEqual(4);
  });
});
