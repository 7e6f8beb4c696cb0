/**
 * The hub's HTTP server on the shop's LAN: TLS (or plain HTTP on loopback), the LAN checks of every request
 * (hub/lan.ts), the API and the hub UI's files. The API is declared once in shared/hub/contract.ts; its route
 * table (hub/router.ts) runs each call through the guard (hub/guard.ts: the caller, the input by its schema, the
 * shop, a manager's PIN) to the handlers by area (hub/routes/). This file carries requests and decides nothing.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorReply, sendJson, staticFiles } from '../shared/node/http/index.ts';
import { isDataException } from './db/db.ts';
import { HubError, type HubService } from './service.ts';
import { allowedHosts, guardRequest, isLoopback, SECURITY_HEADERS } from './lan.ts';
import { certificateFingerprint, type TlsMaterial } from '../shared/node/tls-cert.ts';
import { HUB_API } from '../shared/hub/contract.ts';
import { createGuard } from './guard.ts';
import { hubRouter, type HubRouter } from './router.ts';
import { publicHandlers } from './routes/public.ts';
import { tillHandlers } from './routes/till.ts';
import { managerHandlers } from './routes/manager.ts';
import { goodsHandlers } from './routes/goods.ts';
import { countHandlers } from './routes/counts.ts';
import { tillGoodsHandlers } from './routes/till-goods.ts';
import { exportHandlers } from './routes/exports.ts';
import { sefHandlers } from './routes/sef.ts';
import type { RouteDeps } from './routes/deps.ts';

export interface HubServer {
  url: string;
  /** The SHA-256 of the certificate served (64 hex digits), or null for plain HTTP on loopback. */
  fingerprint: string | null;
  close(): Promise<void>;
}

export interface HubServerOptions {
  service: HubService;
  /** The manager's token for /api/admin/*. */
  adminToken: string;
  port?: number;
  bind?: string;
  /** HTTPS with this key and certificate; without it plain HTTP, which only a loopback `bind` may serve. */
  tls?: TlsMaterial;
  /** Host names besides the bound address and localhost that requests may name (KASA_HUB_HOSTS). */
  hosts?: readonly string[];
  log?: (line: string) => void;
  /** The built hub UI (renderer/hub.html, built into out/renderer by `electron-vite build`). */
  staticDir?: string;
  /** The clock of the login lockout (tests move it past a lockout). */
  now?: () => number;
  /** Called once per login attempt whose PIN is compared (tests count evaluations). */
  onPinCompare?: (shopId: number) => void;
}

/**
 * The built hub UI in the checkout: this module is hub/server.ts (`npm run hub`), or part of the hub's build in
 * out/main (the tests start that one), one folder deeper.
 */
const DEFAULT_STATIC = ((): string => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const built = path.basename(here) === 'main' && path.basename(path.dirname(here)) === 'out';
  return path.resolve(here, ...(built ? ['..', '..'] : ['..']), 'out', 'renderer');
})();

/** The shortest admin token the hub accepts: it acts on the whole chain, so it must not be guessable. */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

/** Refuses an admin token too short to be one (the hub does not start with it). */
export function checkAdminToken(token: string): void {
  if (token.length < MIN_ADMIN_TOKEN_LENGTH)
    throw new Error(
      `the admin token (KASA_HUB_ADMIN_TOKEN) has ${token.length} characters; it needs at least ` +
        `${MIN_ADMIN_TOKEN_LENGTH}. Leave it unset and the hub makes one, or make one with: openssl rand -base64 32`,
    );
}

/** The API's router: the contract, the guard and every area's handlers (a missing one fails the type-check). */
function apiRouter(options: HubServerOptions, fingerprint: string | null): HubRouter {
  const now = options.now ?? Date.now;
  const guard = createGuard({
    service: options.service,
    adminToken: options.adminToken,
    now,
    ...(options.log ? { log: options.log } : {}),
    ...(options.onPinCompare ? { onPinCompare: options.onPinCompare } : {}),
  });
  const deps: RouteDeps = { service: options.service, guard, fingerprint, now, onPinCompare: options.onPinCompare };
  return hubRouter(
    HUB_API,
    {
      ...publicHandlers(deps),
      ...tillHandlers(deps),
      ...managerHandlers(deps),
      ...goodsHandlers(deps),
      ...countHandlers(deps),
      ...tillGoodsHandlers(deps),
      ...exportHandlers(deps),
      ...sefHandlers(deps),
    },
    guard,
  );
}

/** Answers one request: the LAN checks, then the API, then the hub UI's files; a refusal as `{code, message}`. */
function requestHandler(
  options: HubServerOptions,
  api: HubRouter,
  hosts: ReturnType<typeof allowedHosts>,
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  /** The hub UI: `/` is hub.html, `/assets/…` the build's files; nothing else of the folder. */
  const ui = staticFiles({
    root: options.staticDir ?? DEFAULT_STATIC,
    index: 'hub.html',
    allow: (rel) => rel === 'hub.html' || rel.startsWith('assets/'),
    headers: () => ({ 'Cache-Control': 'no-cache' }),
  });
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    guardRequest(req, { hosts, secure: options.tls !== undefined });
    const url = new URL(req.url ?? '/', 'http://hub');
    const method = req.method ?? 'GET';
    if (await api.handle(req, res, url)) return;
    if (method === 'GET' && !url.pathname.startsWith('/api/')) {
      const outcome = ui.serve(url.pathname, res);
      if (outcome === 'no_index') throw new HubError(404, 'ui_not_built', 'the hub UI is not built: run npm run build');
      if (outcome !== 'sent') throw new HubError(404, 'not_found', `no file ${url.pathname}`);
      return;
    }
    throw new HubError(404, 'not_found', `no route ${method} ${url.pathname}`);
  };
  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      const refusal = errorReply(err);
      if (refusal) return sendJson(res, refusal.status, refusal.body);
      // A value the database refused as data is the request's: 400 (a retry would be refused the same way).
      if (isDataException(err))
        return sendJson(res, 400, { code: 'invalid_value', message: 'the request holds a value the hub cannot store' });
      // Never echo internals (SQL, paths) to a caller; the log gets the message only.
      options.log?.(
        `hub: internal error on ${req.method} ${req.url?.split('?')[0] ?? ''}: ${err instanceof Error ? err.message : String(err)}`,
      );
      sendJson(res, 503, { code: 'internal', message: 'the hub could not complete the request; try again' });
    });
  };
}

/** Starts the hub's server: TLS or loopback HTTP, listening on `bind` and `port`. */
export function startHubServer(options: HubServerOptions): Promise<HubServer> {
  checkAdminToken(options.adminToken);
  const bind = options.bind ?? '127.0.0.1';
  // Till credentials, the admin token and PINs never cross a LAN in clear.
  if (!options.tls && !isLoopback(bind))
    throw new Error(`the hub serves plain HTTP only on loopback (127.0.0.1, ::1), not on ${bind}: give it TLS`);
  const fingerprint = options.tls ? certificateFingerprint(options.tls.cert) : null;
  const onRequest = requestHandler(options, apiRouter(options, fingerprint), allowedHosts(bind, options.hosts));
  const server = options.tls
    ? https.createServer({ key: options.tls.key, cert: options.tls.cert, minVersion: 'TLSv1.2' }, onRequest)
    : http.createServer(onRequest);
  // Every TCP connection, from its first byte: `closeAllConnections` knows only those that became HTTP, so a
  // client still in (or stalled in) its TLS handshake held the hub's stop until the handshake timed out (120 s).
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bind, () => {
      const a = server.address() as AddressInfo;
      const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      resolve({
        url: `${options.tls ? 'https' : 'http'}://${host}:${a.port}`,
        fingerprint,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
            for (const socket of sockets) socket.destroy();
          }),
      });
    });
  });
}
