/**
 * How a hub endpoint is declared (docs/hub.md, "The hub's contract"): its method, its path, who may call it, the
 * zod schema of its input and the type of its result. The hub builds its route table from these declarations
 * (hub/router.ts), its guard decides from `caller`, `shop` and `pin` (hub/guard.ts), and the till's hub client and
 * the hub UI call through the one typed client made from them (shared/hub/client.ts).
 */
import type { z } from 'zod';

/**
 * Who may call an endpoint:
 * - `public`: anyone who reaches the hub (health, enrolment with a one-time code, the shop list, a manager's login);
 * - `till`: an enrolled till, by its credential (`Bearer kh1.<till>.<secret>`), not revoked;
 * - `manager`: a hub manager's session (one shop) or the admin token (the whole chain);
 * - `admin`: the admin token only (the chain itself: it alone creates shops).
 */
export type HubCaller = 'public' | 'till' | 'manager' | 'admin';

export type HubMethod = 'GET' | 'POST' | 'PUT';

/** The type of an endpoint's result, carried by the declaration only (nothing at run time). */
export interface Result<R> {
  readonly result: R;
}

/**
 * A manager's PIN the endpoint asks for, checked by the hub's guard (never by a handler): counted before the
 * compare, compared with the shop's active managers only. `login`: a hub login, counted per source machine and
 * shop; `approval`: a manager approving a till's change, counted per till and shop. `optional`: without the PIN
 * the endpoint still runs, with no approver.
 */
export interface PinCheck {
  readonly field: string;
  readonly scope: 'login' | 'approval';
  readonly optional?: true;
}

/** One endpoint. `{name}` in `path` is a path parameter, taken from (and given to) the input's `name`. */
export interface HubEndpoint {
  readonly method: HubMethod;
  readonly path: string;
  readonly caller: HubCaller;
  /** The input: the JSON body, or for a GET the query string (its values are text: coerce them). */
  readonly input?: z.ZodType;
  /** The status of a success (default 200). */
  readonly status?: 200 | 201;
  /**
   * A `manager` endpoint's shop: `required` (a manager's own shop; the admin token must name one in `shopId`),
   * `optional` (a manager's own shop; the admin token the one named or the whole chain).
   */
  readonly shop?: 'required' | 'optional';
  readonly pin?: PinCheck;
  /** A refusal the schema cannot word, checked on the raw input first (a batch too large is 413, not 400). */
  readonly precheck?: (raw: unknown) => void;
  /** A refused input is recorded for the till's alarm (the push: its batch stays on the till). */
  readonly recordRefusal?: true;
  readonly result?: Result<unknown>;
  /**
   * A `till` endpoint whose input's `field`, when given, names a receipt draft at the hub: the guard admits only a
   * draft this till made (a till speaks only for itself), 403 at `field` for another till's or the hub's own.
   */
  readonly ownDraft?: { readonly field: string };
}

/** Declares an endpoint with the type of its result: `endpoint<HubHealth>()({ method: 'GET', … })`. */
export const endpoint =
  <R>() =>
  <const E extends Omit<HubEndpoint, 'result'>>(e: E): E & { readonly result?: Result<R> } =>
    e;

/** An endpoint's method and path read as one route, the way docs/hub.md writes them: `'POST /api/till/push'`. */
export type Route = `${HubMethod} /${string}`;
type MethodOf<T extends Route> = T extends `${infer M extends HubMethod} ${string}` ? M : never;
type PathOf<T extends Route> = T extends `${HubMethod} ${infer P}` ? P : never;

function split<const T extends Route>(route: T): { readonly method: MethodOf<T>; readonly path: PathOf<T> } {
  const at = route.indexOf(' ');
  return { method: route.slice(0, at) as MethodOf<T>, path: route.slice(at + 1) as PathOf<T> };
}

/** What an endpoint declares beside its route, caller, input and shop. */
type More = Omit<HubEndpoint, 'method' | 'path' | 'caller' | 'input' | 'shop' | 'result'>;
type Plain = Record<never, never>;

/** A hub manager's endpoint by its route and input, on a shop as `shop` says (see {@link HubEndpoint}). */
const managerEndpoint =
  <const H extends 'required' | 'optional'>(shop: H) =>
  <R>() =>
  <const T extends Route, const S extends z.ZodType, const M extends More = Plain>(route: T, input: S, more?: M) =>
    endpoint<R>()({ ...split(route), caller: 'manager', input, shop, ...(more as M) });

/**
 * Declares a hub manager's endpoint on one shop, most of the manager's API: a manager's own shop, the one the admin
 * token names. The declaration is the same data as `endpoint()`'s: the router, the guard and the client read it alike.
 */
export const shopEndpoint = managerEndpoint('required');
/** Declares a hub manager's endpoint on a shop or the chain: the admin token may name no shop and act on the chain. */
export const chainEndpoint = managerEndpoint('optional');

/** Declares an enrolled till's endpoint by its route and input, as {@link shopEndpoint} does a manager's. */
export const tillEndpoint =
  <R>() =>
  <const T extends Route, const S extends z.ZodType, const M extends More = Plain>(route: T, input: S, more?: M) =>
    endpoint<R>()({ ...split(route), caller: 'till', input, ...(more as M) });

/** The result an endpoint answers. */
export type ResultOf<E> = E extends { readonly result?: Result<infer R> } ? R : never;
/** What a caller gives (before the schema's coercions and defaults). */
export type InputOf<E> = E extends { readonly input: infer S extends z.ZodType } ? z.input<S> : undefined;
/** What the hub's handler gets (after the schema). */
export type ParsedOf<E> = E extends { readonly input: infer S extends z.ZodType } ? z.output<S> : undefined;

/**
 * A file the hub answers (a CSV): the client receives its bytes, its type and the name the hub gave it. The hub's
 * handler answers a {@link HubFileOut}.
 */
export interface HubFile {
  readonly kind: 'file';
  readonly filename: string | null;
  readonly type: string;
  readonly bytes: Uint8Array<ArrayBuffer>;
}
/** A file as the hub's handler answers it: its text (a CSV) or bytes (a PDF), its type and its name. */
export interface HubFileOut {
  readonly kind: 'file';
  readonly filename: string;
  readonly type: string;
  readonly text: string | Uint8Array;
}

/** The names of a path's `{…}` parameters, in order. */
export const pathParams = (path: string): string[] =>
  path
    .split('/')
    .map((seg) => /^\{(\w+)\}$/.exec(seg)?.[1])
    .filter((name): name is string => name !== undefined);

/**
 * The path of a call: each `{name}` replaced by the input's `name` (percent-encoded), and the input without those
 * fields (the body, or a GET's query).
 */
export function fillPath(path: string, input: unknown): { path: string; rest: Record<string, unknown> | undefined } {
  const names = pathParams(path);
  if (input === undefined || input === null || typeof input !== 'object') {
    if (names.length) throw new Error(`${path}: the input must give ${names.join(', ')}`);
    return { path, rest: undefined };
  }
  const rest: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  let filled = path;
  for (const name of names) {
    const v = rest[name];
    if (typeof v !== 'string' && typeof v !== 'number') throw new Error(`${path}: the input must give ${name}`);
    filled = filled.replace(`{${name}}`, encodeURIComponent(String(v)));
    delete rest[name];
  }
  return { path: filled, rest };
}
