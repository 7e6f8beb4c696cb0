/**
 * The renderer's only way to the core: `window.pos` under Electron, else an HTTP client of the browser
 * host implementing the same `PosApi` (commands as `POST /api/<command>`, events as server-sent events).
 */
import {
  COMMAND_NAMES,
  EVENT_NAMES,
  type AppError,
  type EventName,
  type EventPayload,
  type PosApi,
  type Result,
} from '../../shared/contract/index.ts';

declare global {
  interface Window {
    pos?: PosApi;
  }
}

const TOKEN_KEY = 'kasa.token';

/**
 * Takes the host token from `#token=…` (then keeps it in sessionStorage and removes it from the address
 * bar), or from sessionStorage after a reload. Null when there is none.
 */
export function takeToken(
  loc: Pick<Location, 'hash' | 'pathname' | 'search'>,
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  history: Pick<History, 'replaceState'>,
  /** Where it is kept (the customer display keeps its own token under its own key). */
  key: string = TOKEN_KEY,
): string | null {
  const match = /(?:^#|&)token=([^&]+)/.exec(loc.hash);
  if (match?.[1]) {
    const token = decodeURIComponent(match[1]);
    storage.setItem(key, token);
    history.replaceState(null, '', loc.pathname + loc.search);
    return token;
  }
  return storage.getItem(key);
}

export interface HttpApiOptions {
  /** The host's base URL, ending in `/`. */
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  /** EventSource constructor (injectable for tests). */
  EventSource?: new (url: string) => EventSourceLike;
}

/** The part of EventSource the client uses. */
export interface EventSourceLike {
  addEventListener(type: string, listener: (ev: MessageEvent<string>) => void): void;
  close(): void;
  /** 2 (CLOSED) once the browser gave up on the stream (its ticket is one-shot, so it cannot retry it). */
  readonly readyState?: number;
}

/** How long to wait before asking for a new event-stream ticket after the stream closed. */
const RECONNECT_MS = 1000;

function appError(status: number, message: string): AppError {
  if (status === 401 || status === 403) return { code: 'forbidden', message };
  if (status === 404) return { code: 'not_found', message };
  if (status === 409) return { code: 'conflict', message };
  if (status === 0 || status === 502 || status === 503 || status === 504) return { code: 'unavailable', message };
  return { code: 'internal', message };
}

const ERROR_CODES = new Set<string>([
  'invalid_input',
  'not_found',
  'conflict',
  'forbidden',
  'unavailable',
  'storage',
  'internal',
]);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads the host's answer; anything that is not `{ok:true,value}` or a well-formed error becomes an AppError. */
function toResult(status: number, body: unknown): Result<unknown> {
  if (isRecord(body) && body.ok === true && 'value' in body && status >= 200 && status < 300) {
    return { ok: true, value: body.value };
  }
  if (isRecord(body) && body.ok === false && isRecord(body.error)) {
    const e = body.error;
    if (typeof e.code === 'string' && ERROR_CODES.has(e.code) && typeof e.message === 'string') {
      if (e.code === 'invalid_input') {
        const issues = Array.isArray(e.issues)
          ? e.issues.filter(isRecord).map((i) => ({ field: String(i.field ?? ''), message: String(i.message ?? '') }))
          : [];
        return {
          ok: false,
          error: {
            code: 'invalid_input',
            field: typeof e.field === 'string' ? e.field : '',
            message: e.message,
            issues,
          },
        };
      }
      if (e.code === 'forbidden' && typeof e.field === 'string')
        return { ok: false, error: { code: 'forbidden', message: e.message, field: e.field } };
      return { ok: false, error: { code: e.code, message: e.message } as AppError };
    }
  }
  return { ok: false, error: appError(status, `HTTP ${status}`) };
}

/** A `PosApi` over the browser host. Never throws: failures come back as `{ok:false,error}`. */
export function createHttpApi(options: HttpApiOptions): PosApi {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const call = async (name: string, input: unknown): Promise<Result<unknown>> => {
    let res: Response;
    try {
      res = await doFetch(`${options.baseUrl}api/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${options.token}` },
        body: JSON.stringify(input ?? {}),
      });
    } catch (err) {
      return { ok: false, error: { code: 'unavailable', message: err instanceof Error ? err.message : String(err) } };
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      return { ok: false, error: appError(res.status, `HTTP ${res.status}`) };
    }
    return toResult(res.status, body);
  };

  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let source: EventSourceLike | null = null;
  let connecting = false;
  // The token never goes into the stream's URL (it would stay in histories and logs): a one-shot ticket
  // does, fetched with the token in a header.
  const connect = async (): Promise<void> => {
    const ES = options.EventSource ?? globalThis.EventSource;
    if (source || connecting || !ES) return;
    connecting = true;
    const ticket = await call('events/ticket', {});
    connecting = false;
    const value = ticket.ok && isRecord(ticket.value) ? ticket.value.ticket : undefined;
    if (typeof value !== 'string') {
      setTimeout(() => void connect(), RECONNECT_MS);
      return;
    }
    const opened = new ES(`${options.baseUrl}api/events?ticket=${encodeURIComponent(value)}`);
    source = opened;
    opened.addEventListener('error', () => {
      if (opened.readyState !== 2) return;
      opened.close();
      source = null;
      setTimeout(() => void connect(), RECONNECT_MS);
    });
    for (const name of EVENT_NAMES) {
      opened.addEventListener(name, (ev) => {
        let payload: unknown;
        try {
          payload = JSON.parse(ev.data);
        } catch {
          return;
        }
        deliver(name, payload);
      });
    }
    // Events sent before the stream opened (the first start's fetches, the ticket's round trip, a reconnect)
    // never reach it: once open, the status they would have changed is read afresh and handed on as if it
    // had been an event, so a status bar never stays on a count the core has already left.
    opened.addEventListener('open', () => {
      if (!listeners.get('sync.status')?.size) return;
      void call('sync.status', {}).then((r) => {
        if (r.ok && source === opened) deliver('sync.status', r.value);
      });
    });
  };
  const deliver = (name: EventName, payload: unknown): void => {
    for (const l of listeners.get(name) ?? []) l(payload);
  };

  const api: Record<string, unknown> = {};
  for (const name of COMMAND_NAMES) api[name] = (input: unknown) => call(name, input);
  api.on = <E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void) => {
    void connect();
    const set = listeners.get(name) ?? new Set();
    listeners.set(name, set);
    const l = listener as (payload: unknown) => void;
    set.add(l);
    return () => {
      set.delete(l);
    };
  };
  return api as PosApi;
}

/** `window.pos` when running in Electron, else the HTTP client with the token from the URL or session. */
export function pickTransport(win: Window = window): PosApi {
  if (win.pos) return win.pos;
  const token = takeToken(win.location, win.sessionStorage, win.history);
  if (!token) throw new Error('no host token: open the address printed by `npm run serve` (…#token=…)');
  return createHttpApi({ baseUrl: new URL('/', win.location.href).href, token });
}
