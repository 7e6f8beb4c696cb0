/**
 * The one typed client of the hub's API, made from its contract (shared/hub/contract.ts): a call names an endpoint
 * by its key and gives its input; the path, the method, the body or query string and the result's type come from
 * the declaration. The transport is the caller's: the till sends through its pinned TLS connection
 * (electron/hub-client/client.ts), the hub UI through the browser's fetch with the manager's session. Works in
 * Node 22 and in the browser (WHATWG `Response`).
 */
import { HubError } from './protocol.ts';
import { HUB_API, type HubApi } from './contract.ts';
import {
  fillPath,
  type HubEndpoint,
  type HubFile,
  type HubMethod,
  type InputOf,
  type ResultOf,
} from './contract/define.ts';

/** What the client reads of an answer: a WHATWG `Response` (Node 22's fetch and the browser's both give one). */
export interface HubResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** How one call is sent: `auth` is false for the public endpoints (no credential, no session goes with them). */
export type HubSend = (
  method: HubMethod,
  path: string,
  body: unknown,
  options: { auth: boolean; timeoutMs?: number },
) => Promise<HubResponse>;

/** Per call: how long the till waits (the transport decides what the default is). */
export interface HubCallOptions {
  timeoutMs?: number;
}

/** The error a refusal becomes: by default the hub's own {@link HubError} with its status, code and field. */
export type HubRefusal = (
  status: number,
  code: string,
  message: string,
  field: string | undefined,
  params?: Readonly<Record<string, string | number>>,
) => Error;

/** The arguments of a call: no input for an endpoint without one, an optional one when every field is optional. */
export type HubCallArgs<E> =
  InputOf<E> extends undefined
    ? [input?: undefined, options?: HubCallOptions]
    : // eslint-disable-next-line @typescript-eslint/no-empty-object-type
      {} extends InputOf<E>
      ? [input?: InputOf<E>, options?: HubCallOptions]
      : [input: InputOf<E>, options?: HubCallOptions];

export interface TypedHubClient<A extends Record<string, HubEndpoint>> {
  call<K extends keyof A & string>(key: K, ...args: HubCallArgs<A[K]>): Promise<ResultOf<A[K]>>;
}

const refuseDefault: HubRefusal = (status, code, message, field, params) =>
  new HubError(status, code, message, field, params);

const parse = (text: string): unknown => {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return undefined;
  }
};

/** A refusal's word parameters as sent: only strings and numbers are kept (the words fill them in as text). */
function wordParams(v: unknown): Record<string, string | number> | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const kept = Object.entries(v).filter(
    (e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number',
  );
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** A client of `api` (the hub's, or a test's own declarations) over `send`. */
export function typedHubClient<A extends Record<string, HubEndpoint>>(
  api: A,
  send: HubSend,
  options: { refusal?: HubRefusal } = {},
): TypedHubClient<A> {
  const refuse = options.refusal ?? refuseDefault;
  return {
    async call(key, ...args) {
      const e: HubEndpoint = api[key] as HubEndpoint;
      const [input, callOptions] = args as [unknown, HubCallOptions | undefined];
      const { path, rest } = fillPath(e.path, input);
      let target = path;
      let body: unknown = undefined;
      if (e.method === 'GET') {
        const q = Object.entries(rest ?? {})
          .filter(([, v]) => v !== undefined && v !== null)
          .map(
            ([k, v]) =>
              `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'object' ? JSON.stringify(v) : String(v))}`,
          )
          .join('&');
        if (q) target = `${path}?${q}`;
      } else body = rest ?? (e.input ? {} : undefined);
      const res = await send(e.method, target, body, {
        auth: e.caller !== 'public',
        ...(callOptions?.timeoutMs !== undefined ? { timeoutMs: callOptions.timeoutMs } : {}),
      });
      if (!res.ok) {
        const r = (parse(await res.text()) ?? {}) as {
          code?: unknown;
          message?: unknown;
          field?: unknown;
          params?: unknown;
        };
        throw refuse(
          res.status,
          typeof r.code === 'string' ? r.code : `http_${res.status}`,
          typeof r.message === 'string' ? r.message : `hub answered ${res.status}`,
          typeof r.field === 'string' ? r.field : undefined,
          wordParams(r.params),
        );
      }
      const disposition = res.headers.get('content-disposition') ?? '';
      if (/^attachment/i.test(disposition)) {
        const file: HubFile = {
          kind: 'file',
          filename: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null,
          type: res.headers.get('content-type') ?? 'application/octet-stream',
          bytes: new Uint8Array(await res.arrayBuffer()),
        };
        return file as never;
      }
      const json = parse(await res.text());
      if (json === undefined)
        throw refuse(502, 'invalid_reply', 'the hub answered something that is not JSON', undefined);
      return json as never;
    },
  };
}

/** A `fetch` as the client uses it (the browser's, Node's, or the till's pinned one). */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<HubResponse>;

/**
 * The plain transport: `fetch` to `baseUrl` (empty in the hub UI: the page's own origin), with `token` as the
 * Bearer of every endpoint that wants a caller (a manager's session, the admin token or a till's credential).
 */
export function fetchSend(o: { fetch: FetchLike; baseUrl?: string; token?: string | null }): HubSend {
  return (method, path, body, { auth }) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (auth && o.token) headers.authorization = `Bearer ${o.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return o.fetch(`${o.baseUrl ?? ''}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  };
}

/** The client of the hub's API. */
export const hubClient = (send: HubSend, options: { refusal?: HubRefusal } = {}): TypedHubClient<HubApi> =>
  typedHubClient(HUB_API, send, options);

/** True when a result is a file (a CSV) rather than JSON. */
export const isHubFile = (r: unknown): r is HubFile =>
  typeof r === 'object' && r !== null && (r as { kind?: unknown }).kind === 'file' && 'bytes' in r;
