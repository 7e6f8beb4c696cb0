/**
 * The hub's contract, its typed client and its router together, over real HTTP on loopback: a path parameter goes
 * out encoded and comes back as the input's field, a GET's input travels as its query string, a refusal names its
 * field and becomes the hub's error, and a file comes back with the name the hub gave it. And the contract itself
 * is coherent: one endpoint per method and path, each PIN and shop field in its endpoint's input.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint, HUB_API, pathParams, type HubEndpoint, type HubFile } from '../../shared/hub/contract.ts';
import { fetchSend, typedHubClient, isHubFile } from '../../shared/hub/client.ts';
import { HubError } from '../../shared/hub/protocol.ts';
import { errorReply, sendJson } from '../../shared/node/http/index.ts';
import { createGuard } from '../../hub/guard.ts';
import { hubRouter } from '../../hub/router.ts';
import type { HubService } from '../../hub/service.ts';

const ITEMS = {
  item: endpoint<{ id: string; q: number }>()({
    method: 'GET',
    path: '/api/t/items/{id}',
    caller: 'public',
    input: z.object({ id: z.string().min(1), q: z.coerce.number().int() }),
  }),
  rename: endpoint<{ id: string; name: string }>()({
    method: 'PUT',
    path: '/api/t/items/{id}',
    caller: 'public',
    input: z.object({ id: z.string(), name: z.string().trim().min(1).max(5) }),
  }),
  sheet: endpoint<HubFile>()({ method: 'GET', path: '/api/t/sheet', caller: 'public' }),
} as const;

let server: http.Server;
let base = '';

beforeAll(async () => {
  // The public endpoints never reach the service: the guard asks it only for tills, managers and PINs.
  const guard = createGuard({ service: {} as HubService, adminToken: 'x'.repeat(32), now: Date.now });
  const router = hubRouter(
    ITEMS,
    {
      item: async ({ input }) => ({ id: input.id, q: input.q }),
      rename: async ({ input }) => ({ id: input.id, name: input.name }),
      sheet: async () => ({
        kind: 'file' as const,
        filename: 'sheet-1.csv',
        type: 'text/csv; charset=utf-8',
        text: 'a;b\n',
      }),
    },
    guard,
  );
  server = http.createServer((req, res) => {
    router
      .handle(req, res, new URL(req.url ?? '/', 'http://t'))
      .then((done) => done || sendJson(res, 404, { code: 'not_found', message: 'no route' }))
      .catch((err: unknown) => {
        const r = errorReply(err);
        sendJson(res, r?.status ?? 500, r?.body ?? { code: 'internal', message: 'internal' });
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the typed client and the router', () => {
  const client = () => typedHubClient(ITEMS, fetchSend({ baseUrl: base, fetch }));

  it('fills a path parameter (encoded) and sends a GET input as its query string', async () => {
    expect(await client().call('item', { id: 'a b/ć', q: 7 })).toEqual({ id: 'a b/ć', q: 7 });
  });

  it('takes a path parameter into the input of a body call', async () => {
    expect(await client().call('rename', { id: '12', name: ' Хлеб ' })).toEqual({ id: '12', name: 'Хлеб' });
  });

  it('turns a refusal into the hub’s error, naming the field', async () => {
    const err = await client()
      .call('rename', { id: '12', name: 'much too long' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubError);
    expect(err).toMatchObject({ status: 400, code: 'invalid_input', field: 'name' });
    const q = await client()
      .call('item', { id: '1', q: 'x' })
      .catch((e: unknown) => e);
    expect(q).toMatchObject({ status: 400, code: 'invalid_input', field: 'q' });
  });

  it('answers a file with its bytes, its type and the hub’s name for it', async () => {
    const file = await client().call('sheet');
    expect(isHubFile(file)).toBe(true);
    if (!isHubFile(file)) return;
    expect([file.filename, file.type, new TextDecoder().decode(file.bytes)]).toEqual([
      'sheet-1.csv',
      'text/csv; charset=utf-8',
      'a;b\n',
    ]);
  });
});

describe('the hub’s contract', () => {
  const entries = Object.entries(HUB_API) as [string, HubEndpoint][];

  it('declares one endpoint per method and path, every one under /api/', () => {
    const seen = entries.map(([, e]) => `${e.method} ${e.path}`);
    expect(new Set(seen).size).toBe(seen.length);
    for (const [key, e] of entries) expect(e.path, key).toMatch(/^\/api\//);
  });

  it('names each PIN, required shop and path parameter among its endpoint’s input fields', () => {
    const fields = (e: HubEndpoint): string[] =>
      e.input instanceof z.ZodObject ? Object.keys(e.input.shape) : e.input ? Object.keys(innerShape(e.input)) : [];
    for (const [key, e] of entries) {
      if (e.pin) expect(fields(e), key).toContain(e.pin.field);
      // The admin token names the shop of a call that needs one (a manager's is their own).
      if (e.shop === 'required') expect(fields(e), key).toContain('shopId');
      for (const p of pathParams(e.path)) expect(fields(e), key).toContain(p);
    }
  });

  it('asks a shop only of manager endpoints, and a PIN only where the caller can give one', () => {
    for (const [key, e] of entries) {
      if (e.shop) expect(e.caller, key).toBe('manager');
      if (e.pin?.scope === 'approval') expect(e.caller, key).toBe('till');
      if (e.pin?.scope === 'login') expect(e.caller, key).toBe('public');
    }
  });
});

/** The object shape under a refined or partial schema. */
function innerShape(schema: z.ZodType): Record<string, unknown> {
  const def = (schema as unknown as { def?: { in?: z.ZodType; innerType?: z.ZodType } }).def;
  const inner = def?.in ?? def?.innerType;
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, unknown>;
  return inner ? innerShape(inner) : {};
}
