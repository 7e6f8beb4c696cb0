/**
 * Bad input at the hub (issue 39), on PGlite and on a real PostgreSQL 15, over real HTTP to a hub server, sent
 * as an attacker on the shop's LAN would with a till's real credential (and without one): a 10,000-deep JSON
 * body and a million-element array are 400 naming the field, never a 503, and nothing is stored.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './backends.ts';
import { serveHub } from './served-hub.ts';

const ADMIN = 'bad-input-admin-token-0123456789abcdef';
const deepArray = (n: number): string => '['.repeat(n) + '1' + ']'.repeat(n);
const deepObject = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe.each(BACKENDS)('bad input at the hub on $name', (backend) => {
  let credential = '';
  let tillId = 0;
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    staff: [{ name: 'Ана', role: 'manager', pin: '246810' }],
    seed: async (service, shop) => {
      ({ credential, tillId } = await service.enrol(await service.newEnrolCode(shop), 'Каса 1'));
    },
  });

  const send = async (
    method: string,
    path: string,
    token: string,
    body: string,
  ): Promise<{ status: number; body: { code?: string; field?: string } }> => {
    const r = await fetch(hub.url + path, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
    });
    return { status: r.status, body: (await r.json()) as { code?: string; field?: string } };
  };
  const stored = async (): Promise<number[]> => [
    Number((await hub.db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM till_events'))[0]?.n),
    Number((await hub.db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM parked_carts'))[0]?.n),
    Number((await hub.db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM staff'))[0]?.n),
  ];

  it('a 10,000-deep body is 400 input_too_deep naming the field, on every kind of route; nothing stored', async () => {
    const before = await stored();
    const cases: [string, string, string, string, string][] = [
      ['POST', '/api/till/push', credential, `{"tillId":${tillId},"events":${deepArray(10_000)}}`, 'events.0.0'],
      [
        'POST',
        '/api/till/push',
        credential,
        `{"tillId":${tillId},"events":[{"seq":1,"kind":"audit","ref":"1","payload":${deepObject(10_000)}}]}`,
        'events.0.payload.a',
      ],
      [
        'POST',
        '/api/till/push',
        credential,
        `{"tillId":${tillId},"events":[],"status":${deepObject(10_000)}}`,
        'status.a',
      ],
      ['POST', '/api/till/lookup', credential, deepObject(10_000), 'a.a'],
      ['PUT', '/api/till/parked', credential, `{"cart":${deepObject(10_000)}}`, 'cart.a'],
      ['POST', '/api/admin/login', '', deepArray(10_000), '0.0'],
      ['PUT', '/api/admin/staff', ADMIN, `{"shopId":1,"staff":[${deepObject(10_000)}]}`, 'staff.0.a'],
    ];
    for (const [method, path, token, body, field] of cases) {
      const r = await send(method, path, token, body);
      expect({ path, status: r.status, code: r.body.code }).toEqual({ path, status: 400, code: 'input_too_deep' });
      expect(r.body.field?.startsWith(field)).toBe(true);
    }
    expect(await stored()).toEqual(before);
  });

  it('a million-element array in a free-form field is 400 input_too_large at that field; nothing stored', async () => {
    const before = await stored();
    const zeros = new Array<string>(1_000_000).fill('0').join(',');
    const r = await send(
      'POST',
      '/api/till/push',
      credential,
      `{"tillId":${tillId},"events":[{"seq":1,"kind":"audit","ref":"1","payload":{"x":[${zeros}]}}]}`,
    );
    expect(r).toMatchObject({ status: 400, body: { code: 'input_too_large', field: 'events.0.payload.x' } });
    expect(await stored()).toEqual(before);
    // The till's own history still goes up afterwards.
    const ok = await send(
      'POST',
      '/api/till/push',
      credential,
      JSON.stringify({ tillId, events: [{ seq: 1, kind: 'audit', ref: '1', payload: { x: [1, 2, 3] } }] }),
    );
    expect(ok.status).toBe(200);
  });
});
