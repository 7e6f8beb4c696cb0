/**
 * The browser host: the same core as the Electron app, over HTTP on loopback. Serves the built renderer,
 * `POST /api/<command>` (JSON in, JSON out) and `GET /api/events` (server-sent events). Every API call
 * needs the per-run bearer token; cross-origin requests and foreign Host headers are refused.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { AppError } from '../../shared/contract/index.ts';
import { message } from '../../shared/messages.ts';
import type { Core } from '../core.ts';
import { mimeOf } from '../window-config.ts';

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

const STATUS: Record<AppError['code'], number> = {
  invalid_input: 400,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  unavailable: 503,
  storage: 507,
  internal: 500,
};

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

export async function startHost(options: HostOptions): Promise<Host> {
  const { core, token } = options;
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const staticRoot = path.resolve(options.staticDir);
  // The root as the filesystem resolves it, to refuse symlinks that lead out of it.
  const realRoot = (() => {
    try {
      return fs.realpathSync(staticRoot);
    } catch {
      return staticRoot;
    }
  })();
  const tokenBuf = Buffer.from(token);
  const tickets = eventTickets();
  const sseClients = new Set<http.ServerResponse>();
  let port = 0;

  const tokenOk = (given: string | null | undefined): boolean => {
    if (!given) return false;
    const buf = Buffer.from(given);
    return buf.length === tokenBuf.length && crypto.timingSafeEqual(buf, tokenBuf);
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

  const json = (res: http.ServerResponse, status: number, body: unknown): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(text);
  };

  const fail = (res: http.ServerResponse, status: number, code: AppError['code'], key: string, field = ''): void => {
    const text = message(core.language(), key, { field });
    const error: AppError =
      code === 'invalid_input'
        ? { code, field: field || '(input)', message: text, issues: [{ field: field || '(input)', message: text }] }
        : { code, message: text };
    json(res, status, { ok: false, error });
  };

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      core.logger.error(`host: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) fail(res, 500, 'internal', 'internal');
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
    if (origin !== undefined && origin !== `http://${req.headers.host}`) {
      fail(res, 403, 'forbidden', 'unauthorized');
      return;
    }
    if (url.pathname.startsWith('/api/')) {
      if (url.pathname === '/api/events' && req.method === 'GET') return events(req, res, url);
      const auth = req.headers.authorization;
      const given = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : null;
      if (!tokenOk(given)) return fail(res, 401, 'forbidden', 'unauthorized');
      if (req.method !== 'POST') {
        res.writeHead(405, { Allow: 'POST' }).end();
        return;
      }
      if (url.pathname === EVENT_TICKET_PATH) return json(res, 200, { ok: true, value: { ticket: tickets.issue() } });
      let command: string;
      try {
        command = decodeURIComponent(url.pathname.slice('/api/'.length));
      } catch {
        return fail(res, 400, 'invalid_input', 'invalid', 'command');
      }
      // Exactly application/json (parameters such as charset allowed): not `application/jsonfoo`.
      const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/json') return fail(res, 415, 'invalid_input', 'body_json');
      let body: unknown;
      try {
        const text = await readBody(req, maxBody);
        body = text.trim() === '' ? {} : JSON.parse(text);
      } catch (err) {
        if ((err as { tooLarge?: boolean }).tooLarge) {
          res.writeHead(413, { Connection: 'close' }).end();
          return;
        }
        return fail(res, 400, 'invalid_input', 'body_json');
      }
      const result = await core.dispatch(command, body);
      json(res, result.ok ? 200 : STATUS[result.error.code], result);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    serveStatic(url.pathname, res);
  }

  function events(req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
    // EventSource cannot send a header: it brings a one-shot ticket (POST /api/events/ticket), never the
    // token itself, which would stay in URLs, histories and logs (issue #12).
    const auth = req.headers.authorization;
    const bearer = auth?.startsWith('Bearer ') ? tokenOk(auth.slice(7).trim()) : false;
    if (!bearer && !tickets.take(url.searchParams.get('ticket'))) return fail(res, 401, 'forbidden', 'unauthorized');
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write(': connected\n\n');
    sseClients.add(res);
    const unsubscribe = core.subscribe((m) => {
      res.write(`event: ${m.name}\ndata: ${JSON.stringify(m.payload)}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': ping\n\n'), 15_000);
    heartbeat.unref();
    req.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      sseClients.delete(res);
    });
  }

  function serveStatic(pathname: string, res: http.ServerResponse): void {
    let rel: string;
    try {
      rel = decodeURIComponent(pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (rel.includes('\0')) {
      res.writeHead(400).end();
      return;
    }
    let file = path.resolve(staticRoot, '.' + path.posix.normalize('/' + rel));
    if (file !== staticRoot && !file.startsWith(staticRoot + path.sep)) {
      res.writeHead(404).end();
      return;
    }
    if (!fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      // The app is a single page: unknown paths without an extension get index.html.
      if (path.extname(file) === '' || file === staticRoot) file = path.join(staticRoot, 'index.html');
      else {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
        return;
      }
    }
    if (!fs.existsSync(file)) {
      res
        .writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('The renderer is not built: run `npm run build`.');
      return;
    }
    const real = fs.realpathSync(file);
    if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const data = fs.readFileSync(real);
    res.writeHead(200, {
      'Content-Type': mimeOf(file),
      'Content-Length': data.length,
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': file.endsWith('index.html') ? 'no-store' : 'public, max-age=31536000, immutable',
    });
    res.end(data);
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
      for (const c of sseClients) c.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive sockets (a browser's event stream reconnects on one) would hold close() open forever.
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Where the renderer trades its token for an event-stream ticket. */
export const EVENT_TICKET_PATH = '/api/events/ticket';
const TICKET_MS = 30_000;

/** One-shot event-stream tickets: random, good for one connection within 30 s. */
function eventTickets(): { issue(): string; take(ticket: string | null): boolean } {
  const open = new Map<string, number>();
  return {
    issue() {
      const now = Date.now();
      for (const [t, until] of open) if (until <= now) open.delete(t);
      const ticket = crypto.randomBytes(24).toString('base64url');
      open.set(ticket, now + TICKET_MS);
      return ticket;
    },
    take(ticket) {
      if (!ticket) return false;
      const until = open.get(ticket);
      open.delete(ticket);
      return until !== undefined && until > Date.now();
    },
  };
}

function readBody(req: http.IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        reject(Object.assign(new Error('too large'), { tooLarge: true }));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
