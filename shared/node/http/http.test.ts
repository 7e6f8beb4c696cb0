/**
 * The HTTP kit on a real loopback server: the body limit, strict JSON, a route's schema refusal naming the
 * field, the caller check before the input, the one MIME table and static files that stay in their folder.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { KasaError } from '../../errors.ts';
import { rawRequest } from '../../../test/support/http.ts';
import {
  errorReply,
  isJsonContentType,
  mimeOf,
  parseJson,
  readBody,
  routeBuilder,
  routeTable,
  runRoute,
  sendJson,
  staticFiles,
} from './index.ts';

const LIMIT = 64;
const TOKEN = 'secret-token';

const callers = {
  public: (): null => null,
  till: (req: http.IncomingMessage): { till: number } => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`)
      throw new KasaError('unauthenticated', 'a till credential is required', { status: 401 });
    return { till: 7 };
  },
};
const route = routeBuilder<typeof callers, void>();
const table = routeTable(
  [
    route({
      method: 'POST',
      path: '/push',
      caller: 'till',
      input: { schema: z.object({ qty: z.number().int(), note: z.object({ text: z.string() }).optional() }) },
      handle: ({ who, input, res }) => sendJson(res, 200, { till: who.till, qty: input.qty }),
    }),
    route({
      method: 'GET',
      path: '/items/{id}',
      caller: 'public',
      handle: ({ params, res }) => sendJson(res, 200, { id: params[0] }),
    }),
    route({
      method: 'GET',
      path: '/own',
      caller: (req) => {
        if (req.headers['x-own'] !== 'yes') throw new KasaError('forbidden', 'not you', { status: 403 });
        return 'own';
      },
      handle: ({ who, res }) => sendJson(res, 200, { who }),
    }),
  ],
  { params: { id: '\\d+' } },
);

let server: http.Server;
let port = 0;
let root: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-kit-'));
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html>');
  fs.writeFileSync(path.join(root, 'app.js'), 'export {}');
  fs.writeFileSync(path.join(root + '-outside.txt'), 'secret');
  fs.symlinkSync(root + '-outside.txt', path.join(root, 'leak.txt'));
  const files = staticFiles({ root, index: 'index.html', spaFallback: true });
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://kit');
    const found = table.match(req.method ?? 'GET', url.pathname);
    const run = async (): Promise<void> => {
      if (found.kind === 'route')
        return runRoute(found.route, found.params, req, res, url, { callers, maxBodyBytes: LIMIT });
      if (found.kind === 'method') return void res.writeHead(405, { Allow: found.allow.join(', ') }).end();
      const outcome = files.serve(url.pathname, res);
      if (outcome !== 'sent') res.writeHead(outcome === 'bad_path' ? 400 : 404).end(outcome);
    };
    run().catch((err: unknown) => {
      const refusal = errorReply(err);
      if (refusal) sendJson(res, refusal.status, refusal.body);
      else sendJson(res, 500, { code: 'internal', message: 'internal' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(root + '-outside.txt', { force: true });
});

const send = (
  pathname: string,
  body: string | Buffer,
  headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
): Promise<{ status: number; json: () => unknown }> =>
  rawRequest(port, {
    path: pathname,
    method: 'POST',
    headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', ...headers },
    body,
  }).then((r) => ({ status: r.status, json: () => JSON.parse(r.body) as unknown }));

describe('routes', () => {
  it('runs a route with its caller and its validated input', async () => {
    const r = await send('/push', JSON.stringify({ qty: 3 }));
    expect([r.status, r.json()]).toEqual([200, { till: 7, qty: 3 }]);
  });

  it('refuses an input its schema rejects, naming the field', async () => {
    const r = await send('/push', JSON.stringify({ qty: 1, note: { text: 5 } }));
    expect(r.status).toBe(400);
    expect(r.json()).toMatchObject({ code: 'invalid_input', field: 'note.text' });
    expect((r.json() as { message: string }).message).toMatch(/^note\.text: /);
  });

  it('checks the caller before it reads the input', async () => {
    const r = await send('/push', 'not json', {});
    expect([r.status, r.json()]).toEqual([401, { code: 'unauthenticated', message: 'a till credential is required' }]);
  });

  it('takes a callback as the caller', async () => {
    const get = (headers: Record<string, string>) =>
      rawRequest(port, { path: '/own', headers: { host: `127.0.0.1:${port}`, ...headers } });
    expect((await get({})).status).toBe(403);
    expect(JSON.parse((await get({ 'x-own': 'yes' })).body)).toEqual({ who: 'own' });
  });

  it('matches path parameters by their pattern, and says which methods a known path has', async () => {
    expect(table.match('GET', '/items/12')).toMatchObject({ kind: 'route', params: ['12'] });
    expect(table.match('GET', '/items/x')).toEqual({ kind: 'none' });
    expect(table.match('GET', '/push')).toEqual({ kind: 'method', allow: ['POST'] });
    expect(routeTable([{ method: 'GET', path: '/a/{x}' }]).match('GET', '/a/%E0')).toEqual({ kind: 'bad_path' });
  });
});

describe('bodies', () => {
  it('refuses a body over the limit with 413 and still answers on the socket', async () => {
    const r = await send('/push', JSON.stringify({ qty: 1, pad: 'x'.repeat(LIMIT) }));
    expect([r.status, r.json()]).toEqual([
      413,
      { code: 'body_too_large', message: `the request body is over ${LIMIT} bytes` },
    ]);
  });

  it('reads a body of exactly the limit', async () => {
    const body = JSON.stringify({ qty: 1 }).padEnd(LIMIT, ' ');
    expect((await send('/push', body)).status).toBe(200);
    // A stream that is exactly the limit long is whole, not refused.
    const stream = new PassThrough();
    const read = readBody(stream as unknown as http.IncomingMessage, 4);
    stream.end('abcd');
    expect((await read).toString()).toBe('abcd');
  });

  it('parses JSON strictly: invalid UTF-8, a byte-order mark and trailing text are not JSON', async () => {
    const bad = [Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), '\uFEFF{}', '{} x', "{'a':1}"];
    for (const body of bad) {
      const r = await send('/push', body);
      expect([r.status, r.json()]).toEqual([400, { code: 'invalid_json', message: 'the request body is not JSON' }]);
    }
    expect(parseJson(Buffer.alloc(0), { empty: {} })).toEqual({});
    expect(() => parseJson(Buffer.from('  '), { empty: {} })).toThrow('not JSON');
    expect(parseJson(Buffer.from('  '), { empty: {}, blank: 'trimmed' })).toEqual({});
    expect(parseJson(Buffer.from('\uFEFF[1]'), { empty: null, bom: 'skipped' })).toEqual([1]);
  });

  it('takes exactly application/json as the JSON content type', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset=utf-8')).toBe(true);
    for (const t of ['application/jsonfoo', 'text/json', 'application/json-patch+json', undefined])
      expect(isJsonContentType(t), String(t)).toBe(false);
  });
});

describe('errors', () => {
  it('maps a KasaError to its status and {code, message, field}; anything else is not a refusal', () => {
    const field = new KasaError('invalid_input', 'qty: too small', { status: 400, field: 'qty' });
    expect(errorReply(field)).toEqual({
      status: 400,
      body: { code: 'invalid_input', message: 'qty: too small', field: 'qty' },
    });
    expect(errorReply(new KasaError('gone', 'gone', { status: 410 }))?.body).toEqual({ code: 'gone', message: 'gone' });
    expect(errorReply(new Error('SQLITE_CORRUPT at /secret/path'))).toBeNull();
    expect(errorReply(Object.assign(new Error('x'), { code: 'not_found', status: 404 }))).toBeNull();
  });
});

describe('static files and the MIME table', () => {
  it('has one Content-Type per extension, and opaque bytes for unknown ones', () => {
    const types = {
      'a/index.html': 'text/html; charset=utf-8',
      'x.JS': 'text/javascript; charset=utf-8',
      'font.woff2': 'font/woff2',
      'report.csv': 'text/csv; charset=utf-8',
      'blob.exe': 'application/octet-stream',
    };
    for (const [file, type] of Object.entries(types)) expect(mimeOf(file), file).toBe(type);
  });

  it('serves files of the folder with their type, the index for app routes, and nothing outside', async () => {
    const get = (p: string) => rawRequest(port, { path: p, headers: { host: `127.0.0.1:${port}` } });
    expect(await get('/app.js')).toEqual({ status: 200, body: 'export {}' });
    expect(await get('/')).toEqual({ status: 200, body: '<!doctype html>' });
    expect(await get('/some/app/route')).toEqual({ status: 200, body: '<!doctype html>' });
    expect(await get('/missing.js')).toEqual({ status: 404, body: 'not_found' });
    // An app route as far as the folder is concerned: the index, never the system's file.
    expect(await get('/../../etc/passwd')).toEqual({ status: 200, body: '<!doctype html>' });
    expect(await get('/%2e%2e/%2e%2e/etc/passwd.txt')).toMatchObject({ status: 404 });
    expect(await get('/leak.txt')).toEqual({ status: 404, body: 'not_found' });
    expect(await get('/a%00.js')).toEqual({ status: 400, body: 'bad_path' });
    expect(await get('/%E0.js')).toEqual({ status: 400, body: 'bad_path' });
  });
});
