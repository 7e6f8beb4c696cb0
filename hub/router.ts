/**
 * The hub's route table, built from its contract (shared/hub/contract.ts): each endpoint is matched by its method
 * and path and run through the guard (hub/guard.ts) to its handler, found by the endpoint's key. `HubHandlers` is
 * a mapped type over the contract's keys: a missing or an extra handler, or one answering another shape than the
 * contract's result, fails the type-check. This file carries bytes and decides nothing.
 */
import type http from 'node:http';
import { parseJson, readBody, routeTable, sendBody, sendJson } from '../shared/node/http/index.ts';
import { pathParams, type HubEndpoint, type HubFile, type HubFileOut, type ResultOf } from '../shared/hub/contract.ts';
import { MAX_BODY_BYTES } from '../shared/hub/protocol.ts';
import type { Admitted, Guard } from './guard.ts';

/** What a handler answers for a result: a file's text and name for a {@link HubFile}, else the result itself. */
export type Served<R> = R extends HubFile ? HubFileOut : R;

export type HubHandler<E extends HubEndpoint> = (call: Admitted<E>) => Promise<Served<ResultOf<E>>>;

/** One handler per endpoint of `A`, by its key. */
export type HubHandlers<A extends Record<string, HubEndpoint>> = { [K in keyof A]: HubHandler<A[K]> };

export interface HubRouter {
  /** Answers a request of the API; false when no endpoint has its path (the caller serves the UI or a 404). */
  handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<boolean>;
}

const isFileOut = (r: unknown): r is HubFileOut =>
  typeof r === 'object' && r !== null && (r as { kind?: unknown }).kind === 'file' && 'text' in r;

export function hubRouter<A extends Record<string, HubEndpoint>>(
  api: A,
  handlers: HubHandlers<A>,
  guard: Guard,
): HubRouter {
  const table = routeTable(Object.entries(api).map(([key, e]) => ({ key, e, method: e.method, path: e.path })));
  return {
    async handle(req, res, url) {
      const found = table.match(req.method ?? 'GET', url.pathname);
      if (found.kind !== 'route') return false;
      const { key, e } = found.route;
      const params = Object.fromEntries(pathParams(e.path).map((name, i) => [name, found.params[i]]));
      const raw = async (): Promise<unknown> => {
        const data =
          e.method === 'GET'
            ? Object.fromEntries(url.searchParams)
            : parseJson(await readBody(req, MAX_BODY_BYTES), { empty: {} });
        return Object.keys(params).length && typeof data === 'object' && data !== null ? { ...data, ...params } : data;
      };
      const handler = handlers[key as keyof A] as (call: Admitted<HubEndpoint>) => Promise<unknown>;
      const result = await guard.run(e, { req, raw }, handler);
      if (isFileOut(result))
        sendBody(res, e.status ?? 200, typeof result.text === 'string' ? result.text : Buffer.from(result.text), {
          'Content-Type': result.type,
          'Content-Disposition': `attachment; filename="${result.filename}"`,
          'Cache-Control': 'no-store',
        });
      else sendJson(res, e.status ?? 200, result);
      return true;
    },
  };
}
