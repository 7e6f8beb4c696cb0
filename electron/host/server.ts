/**
 * The browser host: the same core as the Electron app, over HTTP on loopback. Serves the built renderer,
 * `POST /api/<command>` (JSON in, JSON out) and `GET /api/events` (server-sent events). Every API call
 * needs the per-run bearer token; cross-origin requests and foreign Host headers are refused.
 *
 * The customer display (`/display`, docs/payments.md): a tablet brings a display-only token, which opens
 * `/display-api/*` — a ticket, then the display's own event stream (the frames, nothing else) — and no other route.
 */
import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { isKasaError } from '../../shared/errors.ts';
import type { AppError, DisplayFrame } from '../../shared/contract/index.ts';
import type { Language } from '../../shared/domain.ts';
import {
  isJsonContentType,
  parseJson,
  readBody,
  routeBuilder,
  routeTable,
  runRoute,
  sendJson,
  staticFiles,
} from '../../shared/node/http/index.ts';
import type { Core } from '../core.ts';
import { CommandError, HTTP_STATUS, toAppError } from '../errors.ts';

export interface HostOptions {
  core: Core;
  token: string;
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  bind?: string;
  /** The built renderer (out/renderer). */
  staticDir: string;
  /** Largest request body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Extra Host header names accepted besides loopback (when bound elsewhere on purpose). */
  allowedHosts?: string[];
}

export interface Host {
  url: string;
  port: number;
  close(): Promise<void>;
}

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

export async function startHost(options: HostOptions): Promise<Host> {
  const { core, token } = options;
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const tokenBuf = Buffer.from(token);
  const tickets = eventTickets<true>();
  const displayTickets = eventTickets<number>();
  /** Open display streams, by the token that opened them (closed when it is revoked). */
  const displayStreams = new Map<http.ServerResponse, number>();
  const stopRevoked = core.display.tokens.onRevoked((id) => {
    for (const [res, of] of displayStreams) if (of === id) res.end();
  });
  const sseClients = new Set<http.ServerResponse>();
  let port = 0;

  const tokenOk = (given: string | null | undefined): boolean => {
    if (!given) return false;
    const buf = Buffer.from(given);
    return buf.length === tokenBuf.length && crypto.timingSafeEqual(buf, tokenBuf);
  };
  const bearer = (req: http.IncomingMessage): string | null => {
    const auth = req.headers.authorization;
    return auth?.startsWith('Bearer ') ? auth.slice(7).trim() : null;
  };

  const hostOk = (hostHeader: string | undefined): boolean => {
    if (!hostHeader) return false;
    const allowed = new Set([
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      ...(options.allowedHosts ?? []).map((h) => (h.includes(':') ? h : `${h}:${port}`)),
    ]);
    return allowed.has(hostHeader.toLowerCase());
  };

  const json = (res: http.ServerResponse, status: number, body: unknown): void =>
    sendJson(res, status, body, { 'X-Content-Type-Options': 'nosniff' });

  /** A refusal by the host itself, worded like a command's: `status` may differ from the code's own. */
  const refuse = (status: number, code: AppError['code'], key: string, field = ''): CommandError =>
    new CommandError(code, key, { field }, field || undefined, status);
  const unauthorized = (): CommandError => refuse(401, 'forbidden', 'unauthorized');

  const fail = (res: http.ServerResponse, err: CommandError): void =>
    json(res, err.status, { ok: false, error: toAppError(err, core.language()) });

  /** Every API route but the event stream needs the per-run token; the display's routes need a display token. */
  const callers = {
    till: (req: http.IncomingMessage): 'till' => {
      if (!tokenOk(bearer(req))) throw unauthorized();
      return 'till';
    },
    display: (req: http.IncomingMessage): { id: number; language: Language } => {
      const display = core.display.tokens.verify(bearer(req));
      if (!display) throw unauthorized();
      return display;
    },
  };
  const route = routeBuilder<typeof callers, void>();
  const api = routeTable(
    [
      route({
        method: 'GET',
        path: '/api/events',
        // EventSource cannot send a header: it brings a one-shot ticket (POST /api/events/ticket), never the
        // token itself, which would stay in URLs, histories and logs.
        caller: (req, url): 'events' => {
          if (!tokenOk(bearer(req)) && !tickets.take(url.searchParams.get('ticket'))) throw unauthorized();
          return 'events';
        },
        handle: ({ req, res }) => events(req, res),
      }),
      route({
        method: 'POST',
        path: EVENT_TICKET_PATH,
        caller: 'till',
        handle: ({ res }) => json(res, 200, { ok: true, value: { ticket: tickets.issue(true) } }),
      }),
      route({
        method: 'POST',
        path: DISPLAY_TICKET_PATH,
        caller: 'display',
        // The display's language is the token's (a manager chose it), independent of the cashier's.
        handle: ({ who, res }) =>
          json(res, 200, { ok: true, value: { ticket: displayTickets.issue(who.id), language: who.language } }),
      }),
      route({
        method: 'GET',
        path: DISPLAY_EVENTS_PATH,
        caller: (_req, url): number => {
          const id = displayTickets.take(url.searchParams.get('ticket'));
          if (id === undefined) throw unauthorized();
          return id;
        },
        handle: ({ who, req, res }) => displayEvents(who, req, res),
      }),
      route({
        method: 'POST',
        path: '/api/{command}',
        caller: 'till',
        handle: async ({ params, req, res }) => {
          if (!isJsonContentType(req.headers['content-type']))
            return fail(res, refuse(415, 'invalid_input', 'body_json'));
          let body: unknown;
          try {
            body = parseJson(await readBody(req, maxBody), { empty: {}, blank: 'trimmed' });
          } catch (err) {
            if (isKasaError(err) && err.status === 413) {
              res.writeHead(413, { Connection: 'close' }).end();
              return;
            }
            return fail(res, refuse(400, 'invalid_input', 'body_json'));
          }
          const result = await core.dispatch(params[0] ?? '', body);
          json(res, result.ok ? 200 : HTTP_STATUS[result.error.code], result);
        },
      }),
    ],
    // A command is the rest of the path, slashes and all, or nothing: the core answers an unknown one.
    { params: { command: '.*' } },
  );

  const app = staticFiles({
    root: options.staticDir,
    index: 'index.html',
    spaFallback: true,
    headers: (file) => ({
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': file.endsWith('index.html') ? 'no-store' : 'public, max-age=31536000, immutable',
    }),
  });

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (err instanceof CommandError && !res.headersSent) return fail(res, err);
      core.logger.error(`host: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) fail(res, refuse(500, 'internal', 'internal'));
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!hostOk(req.headers.host)) {
      res.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Misdirected request');
      return;
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`)
      return fail(res, refuse(403, 'forbidden', 'unauthorized'));
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith(DISPLAY_API)) {
      const found = api.match(req.method ?? 'GET', url.pathname);
      if (found.kind === 'route') {
        await runRoute(found.route, found.params, req, res, url, { callers, maxBodyBytes: maxBody });
        return;
      }
      // No route: still the token first, so that a caller without it learns nothing about the API.
      callers.till(req);
      if (found.kind === 'bad_path') return fail(res, refuse(400, 'invalid_input', 'invalid', 'command'));
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    serveStatic(url.pathname, res);
  }

  function events(req: http.IncomingMessage, res: http.ServerResponse): void {
    openEventStream(res);
    res.write(': connected\n\n');
    sseClients.add(res);
    const unsubscribe = core.subscribe((m) => {
      res.write(`event: ${m.name}\ndata: ${JSON.stringify(m.payload)}\n\n`);
    });
    const heartbeat = keepAlive(res);
    req.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      sseClients.delete(res);
    });
  }

  /** The display's stream: the frame now, then each new one; nothing else of the core's events. */
  function displayEvents(id: number, req: http.IncomingMessage, res: http.ServerResponse): void {
    openEventStream(res);
    const send = (frame: DisplayFrame): boolean => res.write(`event: frame\ndata: ${JSON.stringify(frame)}\n\n`);
    send(core.display.feed.current());
    displayStreams.set(res, id);
    const unsubscribe = core.subscribe((m) => {
      if (m.name === 'display.frame') send(m.payload);
    });
    const heartbeat = keepAlive(res);
    res.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      displayStreams.delete(res);
    });
    req.on('close', () => res.end());
  }

  function serveStatic(pathname: string, res: http.ServerResponse): void {
    const text = { 'Content-Type': 'text/plain; charset=utf-8' };
    switch (app.serve(pathname, res)) {
      case 'sent':
        return;
      case 'bad_path':
        res.writeHead(400).end();
        return;
      case 'no_index':
        res.writeHead(503, text).end('The renderer is not built: run `npm run build`.');
        return;
      case 'not_found':
        res.writeHead(404, text).end('Not found');
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.bind ?? '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/`;
  return {
    url,
    port,
    async close() {
      stopRevoked();
      for (const c of sseClients) c.end();
      for (const c of displayStreams.keys()) c.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive sockets (a browser's event stream reconnects on one) would hold close() open forever.
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Answers with a server-sent event stream. */
function openEventStream(res: http.ServerResponse): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
}

/** A comment line every 15 s, so that proxies and browsers keep an idle stream open; clear it on close. */
function keepAlive(res: http.ServerResponse): NodeJS.Timeout {
  const heartbeat = setInterval(() => res.write(': ping\n\n'), 15_000);
  heartbeat.unref();
  return heartbeat;
}

/** Where the renderer trades its token for an event-stream ticket. */
export const EVENT_TICKET_PATH = '/api/events/ticket';
/** The customer display's routes: its ticket (display token in the header), then its stream. */
export const DISPLAY_API = '/display-api/';
export const DISPLAY_TICKET_PATH = `${DISPLAY_API}ticket`;
export const DISPLAY_EVENTS_PATH = `${DISPLAY_API}events`;
const TICKET_MS = 30_000;

/** One-shot event-stream tickets: random, good for one connection within 30 s; each carries who it was issued to. */
function eventTickets<T>(): { issue(to: T): string; take(ticket: string | null): T | undefined } {
  const open = new Map<string, { until: number; to: T }>();
  return {
    issue(to) {
      const now = Date.now();
      for (const [t, held] of open) if (held.until <= now) open.delete(t);
      const ticket = crypto.randomBytes(24).toString('base64url');
      open.set(ticket, { until: now + TICKET_MS, to });
      return ticket;
    },
    take(ticket) {
      if (!ticket) return undefined;
      const held = open.get(ticket);
      open.delete(ticket);
      return held && held.until > Date.now() ? held.to : undefined;
    },
  };
}
