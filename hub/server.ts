/**
 * The hub's HTTP API on the shop's LAN. Tills authenticate with their credential (Bearer kh1.<till>.<secret>),
 * the manager's endpoints with the admin token; everything else is refused. Bodies are parsed with the
 * zod schemas of ./schemas.ts; a bad field is answered 400 with its name, nothing stored.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyPin } from '../shared/node/pin.ts';
import type { z } from 'zod';
import { HubError, type HubService } from './service.ts';
import { hubReportCsv } from './reports.ts';
import { listParked, parkCart, takeParked } from './parked.ts';
import {
  EnrolCodeInput,
  EnrolInput,
  LoginInput,
  LookupInput,
  ParkInput,
  ParkTakeInput,
  MAX_BATCH_EVENTS,
  MAX_BODY_BYTES,
  ProductsInput,
  PushInput,
  ReportInput,
  ShopInput,
  ShopSettingsInput,
  ShopQuery,
  StaffListInput,
} from './schemas.ts';

export interface HubServer {
  url: string;
  close(): Promise<void>;
}

export interface HubServerOptions {
  service: HubService;
  /** The manager's token for /api/admin/*. */
  adminToken: string;
  port?: number;
  bind?: string;
  log?: (line: string) => void;
  /** The built hub UI (renderer/hub.html, built into out/renderer by `electron-vite build`). */
  staticDir?: string;
}

/** Who is asking on /api/admin/*: the admin token (the whole chain) or a manager's session (one shop). */
interface Scope {
  shopId: number | null;
  name: string;
}

const SESSION_MS = 8 * 3600_000;
const LOGIN_FAILURES_BEFORE_PAUSE = 5;
const LOGIN_PAUSE_MS = 30_000;
const DEFAULT_STATIC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'out', 'renderer');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Serves the hub UI: `/` is hub.html, `/assets/…` the build's files; nothing outside the folder. */
function serveStatic(dir: string, pathname: string, res: http.ServerResponse): void {
  const rel = pathname === '/' ? 'hub.html' : pathname.slice(1);
  const file = path.resolve(dir, rel);
  if (
    !file.startsWith(path.resolve(dir) + path.sep) ||
    !(rel === 'hub.html' || rel.startsWith('assets/')) ||
    !fs.existsSync(file)
  ) {
    if (rel === 'hub.html') throw new HubError(404, 'ui_not_built', 'the hub UI is not built: run npm run build');
    throw new HubError(404, 'not_found', `no file ${pathname}`);
  }
  res.writeHead(200, {
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'cache-control': 'no-cache',
  });
  res.end(fs.readFileSync(file));
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new HubError(413, 'body_too_large', `the request body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  if (!size) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HubError(400, 'invalid_json', 'the request body is not JSON');
  }
}

function parse<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (
    schema === (PushInput as z.ZodType) &&
    typeof body === 'object' &&
    body &&
    Array.isArray((body as { events?: unknown }).events)
  ) {
    const n = (body as { events: unknown[] }).events.length;
    if (n > MAX_BATCH_EVENTS)
      throw new HubError(
        413,
        'batch_too_large',
        `a batch holds at most ${MAX_BATCH_EVENTS} events, not ${n}`,
        'events',
      );
  }
  const r = schema.safeParse(body);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    throw new HubError(400, 'invalid_input', `${field || 'body'}: ${issue?.message ?? 'invalid'}`, field);
  }
  return r.data;
}

const send = (res: http.ServerResponse, status: number, body: unknown): void => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
};

export function startHubServer(options: HubServerOptions): Promise<HubServer> {
  const { service } = options;
  const adminHash = crypto.createHash('sha256').update(options.adminToken).digest();
  const sessions = new Map<string, Scope & { expires: number }>();
  let loginFailures = 0;
  let loginPausedUntil = 0;
  const admin = (req: http.IncomingMessage): Scope => {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const given = crypto
      .createHash('sha256')
      .update(m?.[1] ?? '')
      .digest();
    if (m && crypto.timingSafeEqual(given, adminHash)) return { shopId: null, name: 'admin' };
    const session = sessions.get(given.toString('hex'));
    if (session && session.expires > Date.now()) return session;
    throw new HubError(401, 'unauthenticated', 'the manager token is required');
  };
  /** The shop a request may act on: a manager's own shop only; the admin token any (required when `need`). */
  const shopOf = (scope: Scope, shopId: number | undefined, need = true): number | undefined => {
    if (scope.shopId !== null) {
      if (shopId !== undefined && shopId !== scope.shopId)
        throw new HubError(403, 'forbidden', `this manager may act on shop ${scope.shopId} only`, 'shopId');
      return scope.shopId;
    }
    if (need && shopId === undefined)
      throw new HubError(400, 'invalid_input', 'shopId: a positive integer is required', 'shopId');
    return shopId;
  };
  const must = (shopId: number | undefined): number => {
    if (shopId === undefined)
      throw new HubError(400, 'invalid_input', 'shopId: a positive integer is required', 'shopId');
    return shopId;
  };
  const login = async (
    pin: string,
    shopId: number | undefined,
  ): Promise<{ token: string; shopId: number; name: string }> => {
    if (Date.now() < loginPausedUntil)
      throw new HubError(429, 'login_paused', 'too many wrong PINs; try again in 30 seconds', 'pin');
    for (const m of await service.managers()) {
      if (shopId !== undefined && m.shopId !== shopId) continue;
      if (await verifyPin(pin, m.pinHash)) {
        loginFailures = 0;
        const token = crypto.randomBytes(32).toString('base64url');
        sessions.set(crypto.createHash('sha256').update(token).digest('hex'), {
          shopId: m.shopId,
          name: m.name,
          expires: Date.now() + SESSION_MS,
        });
        return { token, shopId: m.shopId, name: m.name };
      }
    }
    if (++loginFailures >= LOGIN_FAILURES_BEFORE_PAUSE) {
      loginFailures = 0;
      loginPausedUntil = Date.now() + LOGIN_PAUSE_MS;
    }
    throw new HubError(401, 'pin_unknown', 'no active manager has this PIN', 'pin');
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://hub');
    const route = `${req.method} ${url.pathname}`;
    switch (route) {
      case 'GET /api/health':
        return send(res, 200, { ok: true, db: service.db.kind });
      case 'POST /api/enrol': {
        const input = parse(EnrolInput, await readJson(req));
        return send(res, 201, await service.enrol(input.code, input.name));
      }
      case 'POST /api/till/push': {
        const till = await service.authenticate(req.headers.authorization);
        return send(res, 200, await service.push(till, parse(PushInput, await readJson(req))));
      }
      case 'GET /api/till/changes': {
        const till = await service.authenticate(req.headers.authorization);
        const since = Number(url.searchParams.get('since') ?? '0');
        if (!Number.isSafeInteger(since) || since < 0)
          throw new HubError(400, 'invalid_input', 'since: a non-negative integer is required', 'since');
        return send(res, 200, await service.changes(till, since));
      }
      case 'POST /api/till/lookup': {
        const till = await service.authenticate(req.headers.authorization);
        const found = await service.lookup(till, parse(LookupInput, await readJson(req)));
        return found
          ? send(res, 200, found)
          : send(res, 404, { code: 'order_not_found', message: 'no such order in this shop' });
      }
      case 'PUT /api/till/parked': {
        const till = await service.authenticate(req.headers.authorization);
        return send(res, 200, await parkCart(service.db, till, parse(ParkInput, await readJson(req))));
      }
      case 'GET /api/till/parked': {
        const till = await service.authenticate(req.headers.authorization);
        return send(res, 200, { carts: await listParked(service.db, till) });
      }
      case 'POST /api/till/parked/take': {
        const till = await service.authenticate(req.headers.authorization);
        const taken = await takeParked(service.db, till, parse(ParkTakeInput, await readJson(req)));
        return taken
          ? send(res, 200, taken)
          : send(res, 404, { code: 'parked_not_found', message: 'this parked cart is gone: another till took it' });
      }
      case 'POST /api/admin/login': {
        const input = parse(LoginInput, await readJson(req));
        return send(res, 200, await login(input.pin, input.shopId));
      }
      case 'GET /api/admin/me': {
        const scope = admin(req);
        return send(res, 200, { name: scope.name, shopId: scope.shopId });
      }
      case 'GET /api/admin/products': {
        const shopId = must(shopOf(admin(req), parse(ShopQuery, Object.fromEntries(url.searchParams)).shopId));
        return send(res, 200, { products: await service.listProducts(shopId) });
      }
      case 'POST /api/admin/shops': {
        if (admin(req).shopId !== null)
          throw new HubError(403, 'forbidden', 'only the chain (the admin token) creates shops');
        return send(res, 201, { shopId: await service.createShop(parse(ShopInput, await readJson(req)).name) });
      }
      case 'POST /api/admin/enrol-codes': {
        const scope = admin(req);
        const shopId = must(shopOf(scope, parse(EnrolCodeInput.partial(), await readJson(req)).shopId));
        return send(res, 201, { code: await service.newEnrolCode(shopId) });
      }
      case 'PUT /api/admin/products': {
        const scope = admin(req);
        const input = parse(ProductsInput, await readJson(req));
        return send(res, 200, {
          changed: await service.upsertProducts(must(shopOf(scope, input.shopId)), input.products),
        });
      }
      case 'GET /api/admin/settings': {
        const shopId = must(shopOf(admin(req), parse(ShopQuery, Object.fromEntries(url.searchParams)).shopId));
        return send(res, 200, { settings: await service.shopSettings(shopId) });
      }
      case 'PUT /api/admin/settings': {
        const scope = admin(req);
        const input = parse(ShopSettingsInput, await readJson(req));
        return send(res, 200, {
          changed: await service.setShopSettings(must(shopOf(scope, input.shopId)), input.settings),
        });
      }
      case 'PUT /api/admin/staff': {
        const scope = admin(req);
        const input = parse(StaffListInput, await readJson(req));
        return send(res, 200, { changed: await service.upsertStaff(must(shopOf(scope, input.shopId)), input.staff) });
      }
      case 'GET /api/admin/tills': {
        const scope = admin(req);
        const { shopId } = parse(ShopQuery, Object.fromEntries(url.searchParams));
        return send(res, 200, { tills: await service.tillStatus(shopOf(scope, shopId, false)) });
      }
      case 'GET /api/admin/report': {
        const scope = admin(req);
        const input = parse(ReportInput, Object.fromEntries(url.searchParams));
        const shopId = shopOf(scope, input.shopId, false);
        const report = await service.report({ ...input, ...(shopId !== undefined ? { shopId } : {}) });
        if (input.format !== 'csv') return send(res, 200, report);
        res.writeHead(200, {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="kasa-hub-report-${report.total.from.slice(0, 10)}.csv"`,
          'cache-control': 'no-store',
        });
        res.end(hubReportCsv(report));
        return;
      }
      default:
        if (req.method === 'GET' && !url.pathname.startsWith('/api/'))
          return serveStatic(options.staticDir ?? DEFAULT_STATIC, url.pathname, res);
        throw new HubError(404, 'not_found', `no route ${route}`);
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof HubError) {
        send(res, err.status, {
          code: err.code,
          message: err.message,
          ...(err.field !== undefined ? { field: err.field } : {}),
        });
        return;
      }
      // Never echo internals (SQL, paths) to a caller; the log gets the message only.
      options.log?.(
        `hub: internal error on ${req.method} ${req.url?.split('?')[0] ?? ''}: ${err instanceof Error ? err.message : String(err)}`,
      );
      send(res, 503, { code: 'internal', message: 'the hub could not complete the request; try again' });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.bind ?? '127.0.0.1', () => {
      const a = server.address() as AddressInfo;
      const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      resolve({
        url: `http://${host}:${a.port}`,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    });
  });
}
