/**
 * The browser host over real HTTP with the real core (demo mode: embedded sandbox gateway) on a real
 * SQLite file: token, validation errors naming the field, Host/Origin checks, static serving, events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Host } from '../../electron/host/server.ts';
import { startTestHost, type TestHost } from '../support/test-host.ts';
import { rawRequest } from '../support/http.ts';

let host: Host;
let dataDir: string;
let staticDir: string;
let running: TestHost;
const TOKEN = 'test-token-0123456789';

const api = (command: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(new URL(`api/${command}`, host.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** A checkout of one line under one label, paid one way. */
const sellOne = (
  name: string,
  quantity: number,
  unitPrice: number,
  payment: { type: string; amount: number },
  label = 'A',
) => api('sales.checkout', { lines: [{ name, quantity, unitPrice, labels: [label] }], payments: [payment] });

const raw = (pathname: string, headers: Record<string, string>) => rawRequest(host.port, { path: pathname, headers });

beforeAll(async () => {
  running = await startTestHost({
    token: TOKEN,
    prefix: 'kasa-hosttest-',
    env: { KASA_LANG: 'en', KASA_ONLINE_BUDGET_MS: '3000' },
    signedIn: true,
  });
  ({ host, dataDir, staticDir } = running);
});

afterAll(() => running.close());

describe('browser host', () => {
  it('refuses API calls without the token (401) or with a wrong one', async () => {
    const none = await fetch(new URL('api/app.info', host.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(none.status).toBe(401);
    expect(((await none.json()) as { ok: boolean }).ok).toBe(false);
    const wrong = await api('app.info', {}, { Authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    const events = await fetch(new URL('api/events', host.url));
    expect(events.status).toBe(401);
  });

  it('answers 400 naming the field, in the configured language, and saves nothing', async () => {
    const res = await sellOne('Mleko', 1, 1.234, { type: 'cash', amount: 2 });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { ok: false; error: { code: string; field: string; message: string } };
    expect(body.error).toMatchObject({ code: 'invalid_input', field: 'lines.0.unitPrice' });
    expect(body.error.message).toContain('at most two decimals');
    const missing = (await (await api('sales.checkout', { lines: [] })).json()) as { error: { field: string } };
    expect(missing.error.field).toBe('lines');
    const extra = (await (await api('orders.get', { orderId: 1, sql: 'DROP TABLE orders' })).json()) as {
      error: { field: string; code: string };
    };
    expect(extra.error).toMatchObject({ code: 'invalid_input', field: 'sql' });
    const short = await sellOne('Mleko', 1, 100, { type: 'card', amount: 50 });
    expect(short.status).toBe(400);
    expect(((await short.json()) as { error: { field: string } }).error.field).toBe('payments');
    const list = (await (await api('orders.list', {})).json()) as { value: { total: number } };
    expect(list.value.total).toBe(0);
    const notJson = await api('orders.list', '{not json');
    expect(notJson.status).toBe(400);
  });

  it('sells for cash in demo mode: fiscalized with the journal, change computed locally', async () => {
    const res = await sellOne('Хлеб', 2, 65.5, { type: 'cash', amount: 200 });
    expect(res.status).toBe(200);
    const { value } = (await res.json()) as {
      value: {
        orderId: number;
        state: string;
        changePara: number;
        receipt: { journal: string; verificationUrl: string };
      };
    };
    expect(value.state).toBe('fiscalized');
    expect(value.changePara).toBe(6900);
    expect(value.receipt.journal).toContain('ФИСКАЛНИ РАЧУН');
    expect(value.receipt.journal).toContain('КРАЈ ФИСКАЛНОГ РАЧУНА');
    expect(value.receipt.verificationUrl).toMatch(/^https:\/\//);
    const got = (await (await api('orders.get', { orderId: value.orderId })).json()) as {
      value: { payments: { type: string; amountPara: number }[] };
    };
    expect(got.value.payments).toEqual([{ type: 'cash', amountPara: 13100 }]);
  });

  it('unknown commands are 404; GET on the API is 405', async () => {
    expect((await api('sql.exec', {})).status).toBe(404);
    const get = await fetch(new URL('api/app.info', host.url), { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(get.status).toBe(405);
  });

  it('refuses DNS-rebinding Host headers and cross-origin requests', async () => {
    expect((await raw('/', { Host: 'evil.example:80' })).status).toBe(421);
    expect((await raw('/', { Host: `127.0.0.1:${host.port}` })).status).toBe(200);
    const cross = await api('app.info', {}, { Origin: 'http://evil.example' });
    expect(cross.status).toBe(403);
    const same = await api('app.info', {}, { Origin: `http://127.0.0.1:${host.port}` });
    expect(same.status).toBe(200);
  });

  it('serves the renderer with a CSP and never a file outside it', async () => {
    const index = await fetch(host.url);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    for (const p of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      `/${path.relative(staticDir, dataDir)}/secret.txt`,
    ]) {
      const r = await raw(p, { Host: `127.0.0.1:${host.port}` });
      expect(r.body).not.toContain('do not serve');
    }
  });

  it('rejects oversized bodies with 413', async () => {
    const big = JSON.stringify({ csv: 'x'.repeat(2 * 1024 * 1024) });
    const res = await api('catalog.import', big);
    expect(res.status).toBe(413);
    expect((await api('app.info', {})).status).toBe(200);
  });

  it('streams contract events over SSE', async () => {
    const controller = new AbortController();
    const ticket = (await ((await api('events/ticket', {})).json() as Promise<{ value: { ticket: string } }>)).value
      .ticket;
    const res = await fetch(new URL(`api/events?ticket=${ticket}`, host.url), { signal: controller.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const seen = (async () => {
      let text = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return text;
        text += new TextDecoder().decode(value);
        if (text.includes('event: order.updated')) return text;
      }
    })();
    await sellOne('Сок', 1, 120, { type: 'card', amount: 120 }, 'E');
    const text = await seen;
    controller.abort();
    expect(text).toMatch(/event: order\.updated\ndata: \{.*"state":"fiscalized"/);
  });
});
