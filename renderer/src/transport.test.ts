import { describe, expect, it, vi } from 'vitest';
import { createHttpApi, takeToken, type EventSourceLike } from './transport.ts';

function fakeFetch(respond: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const seen: { url: string; init: RequestInit }[] = [];
  const f = (async (url: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(url), init: init ?? {} });
    return respond(String(url), init ?? {});
  }) as typeof fetch;
  return { f, seen };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('HTTP transport', () => {
  it('posts the input with the bearer token and returns the value', async () => {
    const { f, seen } = fakeFetch(() => json(200, { ok: true, value: { products: 3 } }));
    const api = createHttpApi({ baseUrl: 'http://127.0.0.1:5000/', token: 'tok', fetch: f });
    const r = await api['catalog.search']({ query: 'mle' });
    expect(r).toEqual({ ok: true, value: { products: 3 } });
    expect(seen[0]?.url).toBe('http://127.0.0.1:5000/api/catalog.search');
    expect(seen[0]?.init.method).toBe('POST');
    expect((seen[0]?.init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    expect(JSON.parse(String(seen[0]?.init.body))).toEqual({ query: 'mle' });
  });

  it('passes the host’s AppError through, with invalid_input fields and issues', async () => {
    const error = {
      code: 'invalid_input',
      field: 'buyerId',
      message: 'ИД купца…',
      issues: [{ field: 'buyerId', message: 'ИД купца…' }],
    };
    const { f } = fakeFetch(() => json(400, { ok: false, error }));
    const api = createHttpApi({ baseUrl: 'http://h/', token: 't', fetch: f });
    expect(await api['sales.checkout']({ lines: [], payments: [] })).toEqual({ ok: false, error });
  });

  it('maps 401, 404, 409 and 5xx without a usable body to AppErrors', async () => {
    for (const [status, code] of [
      [401, 'forbidden'],
      [404, 'not_found'],
      [409, 'conflict'],
      [500, 'internal'],
      [503, 'unavailable'],
    ] as const) {
      const { f } = fakeFetch(() => new Response('<html>oops</html>', { status }));
      const api = createHttpApi({ baseUrl: 'http://h/', token: 't', fetch: f });
      const r = await api['app.info']({});
      expect(r).toEqual({ ok: false, error: { code, message: `HTTP ${status}` } });
    }
  });

  it('turns a network failure into unavailable and a malformed error into internal', async () => {
    const down = createHttpApi({
      baseUrl: 'http://h/',
      token: 't',
      fetch: fakeFetch(() => {
        throw new TypeError('Failed to fetch');
      }).f,
    });
    expect(await down['sync.status']({})).toEqual({
      ok: false,
      error: { code: 'unavailable', message: 'Failed to fetch' },
    });
    const weird = createHttpApi({
      baseUrl: 'http://h/',
      token: 't',
      fetch: fakeFetch(() => json(500, { ok: false, error: { code: 'boom' } })).f,
    });
    expect(await weird['sync.status']({})).toEqual({ ok: false, error: { code: 'internal', message: 'HTTP 500' } });
    const lying = createHttpApi({
      baseUrl: 'http://h/',
      token: 't',
      fetch: fakeFetch(() => json(500, { ok: true, value: 1 })).f,
    });
    expect((await lying['sync.status']({})).ok).toBe(false);
  });

  it('subscribes to server-sent events with a one-shot ticket (never the token) and ignores bad payloads', async () => {
    const sources: { url: string; handlers: Map<string, (ev: MessageEvent<string>) => void> }[] = [];
    class FakeES implements EventSourceLike {
      handlers = new Map<string, (ev: MessageEvent<string>) => void>();
      constructor(url: string) {
        sources.push({ url, handlers: this.handlers });
      }
      addEventListener(type: string, l: (ev: MessageEvent<string>) => void) {
        this.handlers.set(type, l);
      }
      close() {}
    }
    const ticketFetch = fakeFetch(() => json(200, { ok: true, value: { ticket: 'one shot' } }));
    const api = createHttpApi({
      baseUrl: 'http://h/',
      token: 't k',
      fetch: ticketFetch.f,
      EventSource: FakeES,
    });
    const got: unknown[] = [];
    const off = api.on('order.updated', (p) => got.push(p));
    api.on('sync.status', () => {});
    await vi.waitFor(() => expect(sources).toHaveLength(1));
    expect(sources[0]?.url).toBe('http://h/api/events?ticket=one%20shot');
    expect(ticketFetch.seen[0]?.url).toBe('http://h/api/events/ticket');
    expect(ticketFetch.seen[0]?.init.headers).toMatchObject({ Authorization: 'Bearer t k' });
    expect(sources[0]?.url).not.toContain('t%20k');
    const fire = (data: string) => sources[0]?.handlers.get('order.updated')?.({ data } as MessageEvent<string>);
    fire('{"orderId":1,"orderNumber":"X","state":"fiscalized"}');
    fire('not json');
    off();
    fire('{"orderId":2,"orderNumber":"Y","state":"fiscalized"}');
    expect(got).toEqual([{ orderId: 1, orderNumber: 'X', state: 'fiscalized' }]);
  });

  it('reads the sync status afresh once the stream is open: a change sent before it opened is not lost', async () => {
    const handlers = new Map<string, (ev: MessageEvent<string>) => void>();
    class FakeES implements EventSourceLike {
      addEventListener(type: string, l: (ev: MessageEvent<string>) => void) {
        handlers.set(type, l);
      }
      close() {}
    }
    const status = { online: true, queued: 0, needsAttention: 1 };
    const f = fakeFetch((url) =>
      json(200, { ok: true, value: url.endsWith('events/ticket') ? { ticket: 'x' } : status }),
    );
    const api = createHttpApi({ baseUrl: 'http://h/', token: 't', fetch: f.f, EventSource: FakeES });
    const seen: unknown[] = [];
    api.on('sync.status', (s) => seen.push(s));
    await vi.waitFor(() => expect(handlers.has('open')).toBe(true));
    expect(seen).toEqual([]);
    handlers.get('open')?.({} as MessageEvent<string>);
    await vi.waitFor(() => expect(seen).toEqual([status]));
    expect(f.seen.map((r) => r.url)).toEqual(['http://h/api/events/ticket', 'http://h/api/sync.status']);
  });
});

describe('token', () => {
  it('takes it from the hash, keeps it in the session and clears the address bar', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const replaced: string[] = [];
    const history = {
      replaceState: (_d: unknown, _t: string, url?: string | URL | null) => void replaced.push(String(url)),
    };
    expect(takeToken({ hash: '#token=abc%3D', pathname: '/', search: '' }, storage, history)).toBe('abc=');
    expect(replaced).toEqual(['/']);
    expect(takeToken({ hash: '', pathname: '/', search: '' }, storage, history)).toBe('abc=');
    expect(
      takeToken({ hash: '', pathname: '/', search: '' }, { getItem: () => null, setItem: () => {} }, history),
    ).toBeNull();
  });
});
