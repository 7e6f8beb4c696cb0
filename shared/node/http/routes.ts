/**
 * The typed route table. Each route declares its method, its path, who may call it, and the zod schema of
 * its input; the table matches a request to one route, the router checks the caller, reads and validates
 * the input (a refusal names the field) and calls the handler with all three. The till's browser host,
 * the hub and the sandbox gateway all route this way.
 */
import type http from 'node:http';
import type { z } from 'zod';
import { KasaError } from '../../errors.ts';
import { parseJson, readBody } from './body.ts';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** A server's named callers ('public', 'till', 'admin' …): each resolves who asks, or throws its refusal. */
export type Callers = Record<string, (req: http.IncomingMessage, url: URL) => unknown>;

/** A caller of a route: one of the server's names, or a check of the route's own. */
export type CallerOf<C extends Callers> = (keyof C & string) | ((req: http.IncomingMessage, url: URL) => unknown);

/** Who a caller resolves to (a till, a manager's scope …). */
export type Who<C extends Callers, K> = K extends keyof C
  ? Awaited<ReturnType<C[K]>>
  : K extends (req: http.IncomingMessage, url: URL) => infer W
    ? Awaited<W>
    : never;

export interface RouteInput<I> {
  schema: z.ZodType<I>;
  /** The JSON body (default) or the query string, as an object of strings. */
  from?: 'body' | 'query';
  /** A refusal the schema cannot word, checked on the raw input first (a batch too large is 413, not 400). */
  precheck?: (raw: unknown) => void;
}

/** What a handler is given. */
export interface RouteCall<W, I> {
  who: W;
  input: I;
  /** The path's `{…}` segments, decoded, in order. */
  params: string[];
  url: URL;
  req: http.IncomingMessage;
  res: http.ServerResponse;
}

/** One route. `Meta` is what a server attaches besides (the sandbox: whether a route is a bulk). */
export interface Route<C extends Callers, Out, Meta = unknown> {
  method: HttpMethod;
  /** `/api/till/push`; `{name}` stands for one segment, or for what the table's `params` says. */
  path: string;
  caller: CallerOf<C>;
  input?: RouteInput<unknown>;
  meta?: Meta;
  // A method, so that a route with a narrower `who` and `input` is still a Route.
  handle(call: RouteCall<unknown, unknown>): Out | Promise<Out>;
}

/** Defines a route with its `who` and `input` typed by its caller and its schema. */
export function routeBuilder<C extends Callers, Out, Meta = unknown>() {
  return <K extends CallerOf<C>, I = undefined>(route: {
    method: HttpMethod;
    path: string;
    caller: K;
    input?: RouteInput<I>;
    meta?: Meta;
    handle(call: RouteCall<Who<C, K>, I>): Out | Promise<Out>;
  }): Route<C, Out, Meta> => route;
}

export type Match<R> =
  | { kind: 'route'; route: R; params: string[] }
  /** The path is known but not with this method. */
  | { kind: 'method'; allow: string[] }
  /** A path segment is not valid percent-encoding. */
  | { kind: 'bad_path' }
  | { kind: 'none' };

export interface RouteTable<R> {
  readonly routes: readonly R[];
  /** The first route, in table order, whose method and path match. */
  match(method: string, pathname: string): Match<R>;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A table of routes. `params` gives a `{name}` a pattern of its own (`{id}` digits only, say); a name
 * without one is one path segment.
 */
export function routeTable<R extends { method: string; path: string }>(
  routes: readonly R[],
  options: { params?: Record<string, string> } = {},
): RouteTable<R> {
  const compiled = routes.map((route) => {
    const source = route.path
      .split('/')
      .map((seg) => {
        const name = /^\{(\w+)\}$/.exec(seg)?.[1];
        if (name === undefined) return escape(seg);
        return `(${options.params?.[name] ?? '[^/]+'})`;
      })
      .join('/');
    return { route, re: new RegExp(`^${source}$`) };
  });
  return {
    routes,
    match(method, pathname) {
      const allow: string[] = [];
      for (const { route, re } of compiled) {
        const m = re.exec(pathname);
        if (!m) continue;
        if (route.method !== method) {
          if (!allow.includes(route.method)) allow.push(route.method);
          continue;
        }
        try {
          return { kind: 'route', route, params: m.slice(1).map((s) => decodeURIComponent(s)) };
        } catch {
          return { kind: 'bad_path' };
        }
      }
      return allow.length ? { kind: 'method', allow } : { kind: 'none' };
    },
  };
}

/** Who calls: the route's own check, or the server's resolver for the route's caller name. */
export async function authorize<C extends Callers>(
  caller: CallerOf<C>,
  callers: C,
  req: http.IncomingMessage,
  url: URL,
): Promise<unknown> {
  const resolve = typeof caller === 'function' ? caller : callers[caller];
  if (!resolve) throw new Error(`no caller ${String(caller)}`);
  return await resolve(req, url);
}

/** The default refusal of an input its schema rejects: 400 `invalid_input` naming the first bad field. */
export function schemaRefusal(error: z.ZodError): KasaError {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') ?? '';
  return new KasaError('invalid_input', `${field || 'body'}: ${issue?.message ?? 'invalid'}`, {
    status: 400,
    field,
  });
}

export interface InputOptions {
  /** Largest body in bytes. */
  maxBodyBytes: number;
  /** The refusal of a schema's failure; default {@link schemaRefusal}. */
  refuse?: (error: z.ZodError) => Error;
}

/** A route's input, read (an empty body is `{}`) and validated; undefined when the route declares none. */
export async function readInput(
  input: RouteInput<unknown> | undefined,
  req: http.IncomingMessage,
  url: URL,
  options: InputOptions,
): Promise<unknown> {
  if (!input) return undefined;
  const raw =
    input.from === 'query'
      ? Object.fromEntries(url.searchParams)
      : parseJson(await readBody(req, options.maxBodyBytes), { empty: {} });
  input.precheck?.(raw);
  const parsed = input.schema.safeParse(raw);
  if (!parsed.success) throw (options.refuse ?? schemaRefusal)(parsed.error);
  return parsed.data;
}

/** Runs a matched route: its caller is checked first, then its input, then the handler. */
export async function runRoute<C extends Callers, Out>(
  route: Route<C, Out, unknown>,
  params: string[],
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  options: InputOptions & { callers: C },
): Promise<Out> {
  const who = await authorize(route.caller, options.callers, req, url);
  const input = await readInput(route.input, req, url, options);
  return await route.handle({ who, input, params, url, req, res });
}
