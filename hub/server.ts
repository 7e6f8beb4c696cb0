/**
 * The hub's HTTP API on the shop's LAN. Tills authenticate with their credential (Bearer kh1.<till>.<secret>),
 * the manager's endpoints with the admin token; everything else is refused. Bodies are parsed with the
 * zod schemas of ./schemas.ts; a bad field is answered 400 with its name, nothing stored.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { HubError, type HubService } from './service.ts';
import { hubReportCsv } from './reports.ts';
import {
  EnrolCodeInput,
  EnrolInput,
  LookupInput,
  MAX_BATCH_EVENTS,
  MAX_BODY_BYTES,
  ProductsInput,
  PushInput,
  ReportInput,
  ShopInput,
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
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HubError(413, 'body_too_large', `the request body is over ${MAX_BODY_BYTES} bytes`);
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
  if (schema === (PushInput as z.ZodType) && typeof body === 'object' && body && Array.isArray((body as { events?: unknown }).events)) {
    const n = (body as { events: unknown[] }).events.length;
    if (n > MAX_BATCH_EVENTS) throw new HubError(413, 'batch_too_large', `a batch holds at most ${MAX_BATCH_EVENTS} events, not ${n}`, 'events');
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
  const admin = (req: http.IncomingMessage): void => {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const given = crypto.createHash('sha256').update(m?.[1] ?? '').digest();
    if (!m || !crypto.timingSafeEqual(given, adminHash)) throw new HubError(401, 'unauthenticated', 'the manager token is required');
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
        if (!Number.isSafeInteger(since) || since < 0) throw new HubError(400, 'invalid_input', 'since: a non-negative integer is required', 'since');
        return send(res, 200, await service.changes(till, since));
      }
      case 'POST /api/till/lookup': {
        const till = await service.authenticate(req.headers.authorization);
        const found = await service.lookup(till, parse(LookupInput, await readJson(req)));
        return found ? send(res, 200, found) : send(res, 404, { code: 'order_not_found', message: 'no such order in this shop' });
      }
      case 'POST /api/admin/shops': {
        admin(req);
        return send(res, 201, { shopId: await service.createShop(parse(ShopInput, await readJson(req)).name) });
      }
      case 'POST /api/admin/enrol-codes': {
        admin(req);
        return send(res, 201, { code: await service.newEnrolCode(parse(EnrolCodeInput, await readJson(req)).shopId) });
      }
      case 'PUT /api/admin/products': {
        admin(req);
        const input = parse(ProductsInput, await readJson(req));
        return send(res, 200, { changed: await service.upsertProducts(input.shopId, input.products) });
      }
      case 'PUT /api/admin/staff': {
        admin(req);
        const input = parse(StaffListInput, await readJson(req));
        return send(res, 200, { changed: await service.upsertStaff(input.shopId, input.staff) });
      }
      case 'GET /api/admin/tills': {
        admin(req);
        const { shopId } = parse(ReportInput.pick({ shopId: true }), Object.fromEntries(url.searchParams));
        return send(res, 200, { tills: await service.tillStatus(shopId) });
      }
      case 'GET /api/admin/report': {
        admin(req);
        const input = parse(ReportInput, Object.fromEntries(url.searchParams));
        const report = await service.report(input);
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
        throw new HubError(404, 'not_found', `no route ${route}`);
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof HubError) {
        send(res, err.status, { code: err.code, message: err.message, ...(err.field !== undefined ? { field: err.field } : {}) });
        return;
      }
      // Never echo internals (SQL, paths) to a caller; the log gets the message only.
      options.log?.(`hub: internal error on ${req.method} ${req.url?.split('?')[0] ?? ''}: ${err instanceof Error ? err.message : String(err)}`);
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
