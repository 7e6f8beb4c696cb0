/**
 * The hub's HTTP API on the shop's LAN. Tills authenticate with their credential (Bearer kh1.<till>.<secret>),
 * the manager's endpoints with the admin token; everything else is refused. Bodies are parsed with the
 * zod schemas of shared/hub/protocol.ts; a bad field is answered 400 with its name, nothing stored.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyPin } from '../shared/node/pin.ts';
import {
  errorReply,
  readInput,
  routeBuilder,
  routeTable,
  runRoute,
  sendJson,
  staticFiles,
  type RouteInput,
} from '../shared/node/http/index.ts';
import { isKasaError } from '../shared/errors.ts';
import { isDataException } from './db/db.ts';
import { HubError, type AuthedTill, type HubService } from './service.ts';
import { beginLoginAttempt, loginSucceeded } from './attempts.ts';
import { approvalScopes, loginScopes } from './login-throttle.ts';
import { createSession, endSession, sessionOf } from './sessions.ts';
import { listAudit, recordAudit, type HubAuditAction, type HubAuditEntry } from './audit.ts';
import { hubReportCsv } from './reports.ts';
import { receiptsCsv } from '../shared/reports/receipts.ts';
import { dayIn, periodName } from '../shared/i18n/time.ts';
import { receiptsPeriod } from './report-receipts.ts';
import { DEFAULT_HUB_TIME_ZONE } from './report-days.ts';
import { listParked, parkCart, takeParked } from './parked.ts';
import { holdRefund, releaseRefund } from './refund-holds.ts';
import { allowedHosts, guardRequest, isLoopback, SECURITY_HEADERS } from './lan.ts';
import { refuseOversizedShape } from './input-shape.ts';
import { tillActor } from './till-trust.ts';
import { checkTillPin, makeVerifiers, verifiersOfTillChange } from './pin-verifiers.ts';
import { certificateFingerprint, type TlsMaterial } from '../shared/node/tls-cert.ts';
import {
  EnrolCodeInput,
  EnrolCodeRevokeInput,
  EnrolInput,
  ClaimsClearInput,
  TillRevokeInput,
  LoginInput,
  LookupInput,
  ParkInput,
  ParkTakeInput,
  RefundHoldInput,
  RefundReleaseInput,
  MAX_BATCH_EVENTS,
  MAX_BODY_BYTES,
  AdoptCatalogInput,
  HubBulkPriceInput,
  ProductPageQuery,
  ProductsCsvQuery,
  ProductsInput,
  PushInput,
  REFUSED_BATCH_STATUSES,
  refuseUnstorableText,
  ReportInput,
  ShopInput,
  ShopSettingsInput,
  ShopQuery,
  StaffListInput,
  StaffActiveInput,
  OfferStaffInput,
  TillStaffChangeInput,
  StaffPinInput,
  StaffAddInput,
  TillPinInput,
} from '../shared/hub/protocol.ts';

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

/** Who is asking on /api/admin/*: the admin token (the whole chain) or a manager's session (one shop). */
interface Scope {
  shopId: number | null;
  name: string;
}

const DEFAULT_STATIC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'out', 'renderer');

/** A list of names or codes for the audit: the first 20, and how many more. */
const codesOf = (names: readonly string[]): string =>
  names.slice(0, 20).join(', ') + (names.length > 20 ? ` (+${names.length - 20})` : '');

/** A push of more events than a batch holds is refused whole, before its events are validated. */
const batchLimit = (raw: unknown): void => {
  const events = typeof raw === 'object' && raw ? (raw as { events?: unknown }).events : undefined;
  if (!Array.isArray(events) || events.length <= MAX_BATCH_EVENTS) return;
  throw new HubError(
    413,
    'batch_too_large',
    `a batch holds at most ${MAX_BATCH_EVENTS} events, not ${events.length}`,
    'events',
  );
};

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

/** A push's input: the batch limit first (413), then text PostgreSQL cannot store (400), then the schema. */
const PUSH_INPUT: RouteInput<PushInput> = {
  schema: PushInput,
  precheck: (raw) => {
    refuseOversizedShape(raw);
    batchLimit(raw);
    refuseUnstorableText(raw);
  },
};

export function startHubServer(options: HubServerOptions): Promise<HubServer> {
  const { service } = options;
  checkAdminToken(options.adminToken);
  const bind = options.bind ?? '127.0.0.1';
  // Till credentials, the admin token and PINs never cross a LAN in clear.
  if (!options.tls && !isLoopback(bind))
    throw new Error(`the hub serves plain HTTP only on loopback (127.0.0.1, ::1), not on ${bind}: give it TLS`);
  const hosts = allowedHosts(bind, options.hosts);
  const fingerprint = options.tls ? certificateFingerprint(options.tls.cert) : null;
  const adminHash = crypto.createHash('sha256').update(options.adminToken).digest();
  const now = options.now ?? Date.now;
  const admin = async (req: http.IncomingMessage): Promise<Scope & { session?: string }> => {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const given = crypto
      .createHash('sha256')
      .update(m?.[1] ?? '')
      .digest();
    if (m && crypto.timingSafeEqual(given, adminHash)) return { shopId: null, name: 'admin' };
    const hash = given.toString('hex');
    const session = m ? await sessionOf(service.db, hash, now()) : null;
    if (session) return { ...session, session: hash };
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
  /**
   * A manager's login: counted per source address and per shop BEFORE the PIN compare (hub/attempts.ts,
   * shared with the till), and compared with that shop's active managers only. One shop's wrong PINs never
   * lock another shop's managers.
   */
  const login = async (
    pin: string,
    asked: number | undefined,
    source: string,
  ): Promise<{ token: string; shopId: number; name: string }> => {
    const shopId = await service.loginShop(asked);
    const found = await managerOfPin(shopId, pin, loginScopes(shopId, source), source, 'pin');
    const token = await createSession(service.db, found, now());
    await recordAudit(service.db, { shopId: found.shopId, actor: found.name, action: 'login', detail: {} });
    return { token, shopId: found.shopId, name: found.name };
  };
  /**
   * The active manager of the shop whose PIN this is: counted in `scopes` BEFORE the compare (hub/attempts.ts),
   * compared with that shop's active managers only; 429 while a scope is locked, 401 at `field` when no manager
   * has it. A hub login and a till's staff change approved by a manager (#25) both ask here.
   */
  const managerOfPin = async (
    shopId: number,
    pin: string,
    scopes: string[],
    source: string,
    field: string,
  ): Promise<{ shopId: number; id: string; name: string }> => {
    const decision = await beginLoginAttempt(service.db, scopes, now());
    for (const l of decision.started) {
      options.log?.(`hub: PIN login locked for ${l.scope} until ${new Date(l.until).toISOString()}`);
      await recordAudit(service.db, {
        shopId,
        actor: source,
        action: 'login_locked',
        detail: { scope: l.scope.startsWith('shop:') ? 'shop' : 'source', until: l.until },
      });
    }
    if (decision.refusedUntil !== null) {
      const seconds = Math.max(1, Math.ceil((decision.refusedUntil - now()) / 1000));
      throw new HubError(429, 'login_paused', `too many wrong PINs; try again in ${seconds} seconds`, field);
    }
    options.onPinCompare?.(shopId);
    let found: { shopId: number; id: string; name: string; pinHash: string } | undefined;
    // Every manager's hash is checked, so the time taken does not tell which one matched.
    for (const m of await service.managers(shopId)) if ((await verifyPin(pin, m.pinHash)) && !found) found = m;
    if (!found) throw new HubError(401, 'pin_unknown', 'no active manager of this shop has this PIN', field);
    await loginSucceeded(service.db, scopes, now());
    // The PIN is in clear here: the tills that lack this manager's verifier get one (hub/pin-verifiers.ts).
    await makeVerifiers(service.db, shopId, found.id, pin, found.pinHash);
    return { shopId: found.shopId, id: found.id, name: found.name };
  };

  /** Records an admin's or a manager's action (`shopId`: the shop acted on; default the manager's own). */
  const audit = (who: Scope, action: HubAuditAction, detail: HubAuditEntry['detail'], shopId?: number) =>
    recordAudit(service.db, { shopId: shopId ?? who.shopId, actor: who.name, action, detail }, now());

  /** Who may call a route: anyone, an enrolled till (its credential), or the manager (token or session). */
  const callers = {
    public: (): null => null,
    till: (req: http.IncomingMessage): Promise<AuthedTill> => service.authenticate(req.headers.authorization),
    admin,
    /** The chain itself (the admin token): a shop's manager may not. */
    chain: async (req: http.IncomingMessage): Promise<Scope> => {
      const scope = await admin(req);
      if (scope.shopId !== null) throw new HubError(403, 'forbidden', 'only the chain (the admin token) creates shops');
      return scope;
    },
  };
  const route = routeBuilder<typeof callers, void>();
  const query = 'query' as const;
  const table = routeTable([
    route({
      method: 'GET',
      path: '/api/health',
      caller: 'public',
      // `maintenance`: whether the day closer works (its error only for the managers, GET /api/admin/tills).
      handle: async ({ res }) =>
        sendJson(res, 200, {
          ok: true,
          db: service.db.kind,
          fingerprint,
          maintenance: (await service.maintenance()) ? 'failing' : 'ok',
        }),
    }),
    route({
      method: 'POST',
      path: '/api/enrol',
      caller: 'public',
      input: { schema: EnrolInput },
      handle: async ({ input, res }) => sendJson(res, 201, await service.enrol(input.code, input.name)),
    }),
    route({
      method: 'POST',
      path: '/api/till/push',
      caller: 'till',
      // The input is read here, not by the router, so that a refused batch is recorded for the till's alarm.
      handle: async ({ who, req, url, res }) => {
        try {
          const input = (await readInput(PUSH_INPUT, req, url, { maxBodyBytes: MAX_BODY_BYTES })) as PushInput;
          sendJson(res, 200, await service.push(who, input));
        } catch (err) {
          if (
            isKasaError(err) &&
            err.code !== null &&
            err.status !== null &&
            REFUSED_BATCH_STATUSES.includes(err.status)
          )
            await service.noteRefusal(who, {
              status: err.status,
              code: err.code,
              field: err.field,
              message: err.message,
            });
          throw err;
        }
      },
    }),
    route({
      method: 'GET',
      path: '/api/till/changes',
      caller: 'till',
      handle: async ({ who, url, res }) => {
        const since = Number(url.searchParams.get('since') ?? '0');
        if (!Number.isSafeInteger(since) || since < 0)
          throw new HubError(400, 'invalid_input', 'since: a non-negative integer is required', 'since');
        sendJson(res, 200, await service.changes(who, since));
      },
    }),
    route({
      method: 'POST',
      path: '/api/till/lookup',
      caller: 'till',
      input: { schema: LookupInput },
      handle: async ({ who, input, res }) => {
        const found = await service.lookup(who, input);
        if (found) sendJson(res, 200, found);
        else sendJson(res, 404, { code: 'order_not_found', message: 'no such order in this shop' });
      },
    }),
    route({
      method: 'POST',
      path: '/api/till/refund-hold',
      caller: 'till',
      input: { schema: RefundHoldInput },
      // A refusal is an answer, not an error: `held: false` with what is left of each line.
      handle: async ({ who, input, res }) => sendJson(res, 200, await holdRefund(service.db, who, input)),
    }),
    route({
      method: 'POST',
      path: '/api/till/refund-release',
      caller: 'till',
      input: { schema: RefundReleaseInput },
      handle: async ({ who, input, res }) => {
        await releaseRefund(service.db, who, input.holdId);
        sendJson(res, 200, { released: true });
      },
    }),
    route({
      method: 'PUT',
      path: '/api/till/parked',
      caller: 'till',
      input: { schema: ParkInput },
      handle: async ({ who, input, res }) => sendJson(res, 200, await parkCart(service.db, who, input)),
    }),
    route({
      method: 'GET',
      path: '/api/till/parked',
      caller: 'till',
      handle: async ({ who, res }) => sendJson(res, 200, { carts: await listParked(service.db, who) }),
    }),
    route({
      method: 'POST',
      path: '/api/till/parked/take',
      caller: 'till',
      input: { schema: ParkTakeInput },
      handle: async ({ who, input, res }) => {
        const taken = await takeParked(service.db, who, input);
        if (taken) sendJson(res, 200, taken);
        else
          sendJson(res, 404, { code: 'parked_not_found', message: 'this parked cart is gone: another till took it' });
      },
    }),
    route({
      method: 'POST',
      path: '/api/till/catalog',
      caller: 'till',
      input: { schema: AdoptCatalogInput },
      handle: async ({ who, input, res }) => {
        // The hub's own check of the approving manager (issue 39: a till's word is not enough), counted per till
        // and shop like every manager PIN; the service decides what an offer without one may do.
        const approver =
          input.approverPin === undefined
            ? null
            : await managerOfPin(
                who.shopId,
                input.approverPin,
                approvalScopes(who.id, who.shopId),
                tillActor(who),
                'approverPin',
              );
        const r = await service.adoptCatalog(
          who.shopId,
          input.products,
          input.replace === true,
          approver?.name ?? null,
        );
        if (r.adopted)
          await recordAudit(service.db, {
            shopId: who.shopId,
            actor: approver?.name ?? tillActor(who),
            action: 'catalog_adopt',
            detail: { till: tillActor(who), count: input.products.length, replace: input.replace === true },
          });
        sendJson(res, 200, r);
      },
    }),
    route({
      method: 'POST',
      path: '/api/till/staff',
      caller: 'till',
      input: { schema: OfferStaffInput },
      handle: async ({ who, input, res }) => {
        const r = await service.offerStaff(who.shopId, input.people);
        if (r.adopted && input.people.length > 0)
          await recordAudit(service.db, {
            shopId: who.shopId,
            actor: tillActor(who),
            action: 'staff_adopt',
            detail: { count: input.people.length, names: codesOf(input.people.map((p) => p.name)) },
          });
        sendJson(res, 200, r);
      },
    }),
    route({
      method: 'POST',
      path: '/api/till/staff/change',
      caller: 'till',
      input: { schema: TillStaffChangeInput },
      handle: async ({ who, input, res }) => {
        // The hub's own check of the approving manager (a till's word is not enough): counted per till and shop.
        const approver = await managerOfPin(
          who.shopId,
          input.approverPin,
          approvalScopes(who.id, who.shopId),
          tillActor(who),
          'approverPin',
        );
        const changed = await service.tillStaffChange(who.shopId, input.people);
        // A new PIN the till set comes with its hash: every till's verifier of it (issue 39).
        await verifiersOfTillChange(service.db, who.shopId, input.people);
        if (changed > 0)
          await recordAudit(service.db, {
            shopId: who.shopId,
            actor: approver.name,
            action: 'staff_till',
            detail: { till: tillActor(who), names: codesOf(input.people.map((p) => p.name)) },
          });
        sendJson(res, 200, { changed, approver: approver.name });
      },
    }),
    route({
      method: 'POST',
      path: '/api/till/pin',
      caller: 'till',
      input: { schema: TillPinInput },
      // A PIN typed at a till, checked here (issue 39: tills hold no hash of the hub); with `newPin`, the person's
      // own PIN change, their current PIN being the proof.
      handle: async ({ who, input, res }) => {
        const found = await checkTillPin(service.db, who, input.pin, input.id, now(), options.onPinCompare);
        if (input.newPin === undefined) {
          sendJson(res, 200, { id: found.id, name: found.name, role: found.role });
          return;
        }
        const verifier = await service.setOwnPin(who, found.id, found.pinHash, input.newPin);
        await recordAudit(service.db, {
          shopId: who.shopId,
          actor: found.name,
          action: 'staff_own_pin',
          detail: { name: found.name, till: tillActor(who) },
        });
        sendJson(res, 200, { id: found.id, name: found.name, role: found.role, ...(verifier ? { verifier } : {}) });
      },
    }),
    route({
      method: 'GET',
      path: '/api/shops',
      caller: 'public',
      handle: async ({ res }) => sendJson(res, 200, { shops: await service.shops() }),
    }),
    route({
      method: 'POST',
      path: '/api/admin/login',
      caller: 'public',
      input: { schema: LoginInput },
      handle: async ({ input, req, res }) =>
        sendJson(res, 200, await login(input.pin, input.shopId, req.socket.remoteAddress ?? 'unknown')),
    }),
    route({
      method: 'POST',
      path: '/api/admin/logout',
      caller: 'admin',
      handle: async ({ who, res }) => {
        const ended = who.session !== undefined && (await endSession(service.db, who.session));
        if (ended) await audit(who, 'logout', {});
        sendJson(res, 200, { ended });
      },
    }),
    route({
      method: 'GET',
      path: '/api/admin/audit',
      caller: 'admin',
      input: { schema: ShopQuery, from: query },
      handle: async ({ who, input, res }) =>
        sendJson(res, 200, { entries: await listAudit(service.db, shopOf(who, input.shopId, false) ?? null) }),
    }),
    route({
      method: 'GET',
      path: '/api/admin/me',
      caller: 'admin',
      handle: ({ who, res }) => sendJson(res, 200, { name: who.name, shopId: who.shopId }),
    }),
    route({
      method: 'GET',
      path: '/api/admin/products',
      caller: 'admin',
      input: { schema: ProductPageQuery, from: query },
      handle: async ({ who, input, res }) =>
        sendJson(
          res,
          200,
          await service.productPage(must(shopOf(who, input.shopId)), {
            ...(input.q !== undefined ? { query: input.q } : {}),
            ...(input.after !== undefined ? { after: input.after } : {}),
            ...(input.limit !== undefined ? { limit: input.limit } : {}),
          }),
        ),
    }),
    route({
      method: 'GET',
      path: '/api/admin/products/groups',
      caller: 'admin',
      input: { schema: ShopQuery, from: query },
      handle: async ({ who, input, res }) => {
        const shopId = must(shopOf(who, input.shopId));
        sendJson(res, 200, { groups: await service.productGroups(shopId), labels: await service.taxLabels(shopId) });
      },
    }),
    route({
      method: 'GET',
      path: '/api/admin/products/csv',
      caller: 'admin',
      input: { schema: ProductsCsvQuery, from: query },
      handle: async ({ who, input, res }) => {
        const { csv } = await service.productsCsv(must(shopOf(who, input.shopId)), input.lang ?? 'sr-Cyrl');
        res.writeHead(200, {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="kasa-catalog.csv"',
        });
        res.end(csv);
      },
    }),
    route({
      method: 'POST',
      path: '/api/admin/products/bulk-price',
      caller: 'admin',
      input: { schema: HubBulkPriceInput },
      handle: async ({ who, input, res }) => {
        const shopId = must(shopOf(who, input.shopId));
        const count = await service.bulkPrice(shopId, input.group, input.percentBp, input.dryRun === true);
        if (input.dryRun !== true)
          await audit(who, 'products_bulk_price', { group: input.group, percentBp: input.percentBp, count }, shopId);
        sendJson(res, 200, { group: input.group, percentBp: input.percentBp, count, dryRun: input.dryRun === true });
      },
    }),
    route({
      method: 'POST',
      path: '/api/admin/shops',
      caller: 'chain',
      input: { schema: ShopInput },
      handle: async ({ who, input, res }) => {
        const shopId = await service.createShop(input.name);
        await audit(who, 'shop_create', { shop: shopId, name: input.name }, shopId);
        sendJson(res, 201, { shopId });
      },
    }),
    route({
      method: 'POST',
      path: '/api/admin/enrol-codes',
      caller: 'admin',
      input: { schema: EnrolCodeInput.partial() },
      handle: async ({ who, input, res }) => {
        const shopId = must(shopOf(who, input.shopId));
        const code = await service.newEnrolCode(shopId);
        // The code itself is a secret until spent: not in the audit.
        await audit(who, 'enrol_code', {}, shopId);
        // The till pins the hub's certificate at enrolment: the code goes with its fingerprint.
        sendJson(res, 201, { code, fingerprint });
      },
    }),
    route({
      method: 'GET',
      path: '/api/admin/enrol-codes',
      caller: 'admin',
      input: { schema: ShopQuery, from: query },
      handle: async ({ who, input, res }) =>
        sendJson(res, 200, { codes: await service.enrolCodes(shopOf(who, input.shopId, false) ?? null), fingerprint }),
    }),
    route({
      method: 'POST',
      path: '/api/admin/enrol-codes/revoke',
      caller: 'admin',
      input: { schema: EnrolCodeRevokeInput },
      handle: async ({ who, input, res }) => {
        const r = await service.revokeEnrolCode(input.id, shopOf(who, input.shopId, false) ?? null);
        if (!r) throw new HubError(404, 'enrol_code_not_found', `no enrolment code ${input.id} in this shop`, 'id');
        if (r.state === 'used')
          throw new HubError(409, 'enrol_code_used', 'this code was spent: revoke its till instead', 'id');
        await audit(who, 'enrol_code_revoke', { id: input.id }, r.shopId);
        sendJson(res, 200, { revoked: input.id });
      },
    }),
    route({
      method: 'PUT',
      path: '/api/admin/products',
      caller: 'admin',
      input: { schema: ProductsInput },
      handle: async ({ who, input, res }) => {
        const shopId = must(shopOf(who, input.shopId));
        const changed = await service.upsertProducts(shopId, input.products);
        await audit(who, 'products', { count: changed, codes: codesOf(input.products.map((p) => p.code)) }, shopId);
        sendJson(res, 200, { changed });
      },
    }),
    route({
      method: 'GET',
      path: '/api/admin/settings',
      caller: 'admin',
      input: { schema: ShopQuery, from: query },
      handle: async ({ who, input, res }) =>
        sendJson(res, 200, { settings: await service.shopSettings(must(shopOf(who, input.shopId))) }),
    }),
    route({
      method: 'PUT',
      path: '/api/admin/settings',
      caller: 'admin',
      input: { schema: ShopSettingsInput },
      handle: async ({ who, input, res }) => {
        const shopId = must(shopOf(who, input.shopId));
        const changed = await service.setShopSettings(shopId, input.settings);
        await audit(who, 'settings', { count: Object.keys(input.settings).length }, shopId);
        sendJson(res, 200, { changed });
      },
    }),
    route({
      method: 'PUT',
      path: '/api/admin/staff',
      caller: 'admin',
      input: { schema: StaffListInput },
      handle: async ({ who, input, res }) => {
        const shopId = must(shopOf(who, input.shopId));
        // A manager's session acts as that manager; the admin token is nobody.
        const changed = await service.upsertStaff(shopId, input.staff, who.shopId === null ? null : who.name);
        // Names and roles only: never the PIN hashes.
        await audit(who, 'staff', { count: changed, names: codesOf(input.staff.map((s) => s.name)) }, shopId);
        sendJson(res, 200, { changed });
      },
    }),
    route({
      method: 'GET',
      path: '/api/admin/staff',
      caller: 'admin',
      input: { schema: ShopQuery, from: query },
      handle: async ({ who, input, res }) =>
        sendJson(res, 200, { staff: await service.listStaff(must(shopOf(who, input.shopId))) }),
    }),
    route({
      method: 'POST',
      path: '/api/admin/staff/active',
      caller: 'admin',
      input: { schema: StaffActiveInput },
      handle: async ({ who, input, res }) => {
        const shopId = must(shopOf(who, input.shopId));
        // A manager's session acts as that manager (who may not deactivate themself); the admin token is nobody.
        const self = who.shopId === null ? null : who.name;
        const changed = await service.setStaffActive(shopId, input.name, input.active, self);
        if (changed)
          await audit(who, input.active ? 'staff_reactivate' : 'staff_deactivate', { name: input.name }, shopId);
        sendJson(res, 200, { changed });
      },
    }),
    route({
      method: 'POST',
      path: '/api/admin/staff/add',
      caller: 'admin',
      input: { schema: StaffAddInput },
      handle: async ({ who, input, res }) => {
        const shopId = must(shopOf(who, input.shopId));
        // The service decides (the till's name and PIN rules) and writes; this only carries.
        const name = await service.addStaff(shopId, { name: input.name, role: input.role, pin: input.pin });
        // The name and role only: never the PIN or its hash.
        await audit(who, 'staff_create', { name, role: input.role }, shopId);
        sendJson(res, 200, { name });
      },
    }),
    route({
      method: 'POST',
      path: '/api/admin/staff/pin',
      caller: 'admin',
      input: { schema: StaffPinInput },
      handle: async ({ who, input, res }) => {
        const shopId = must(shopOf(who, input.shopId));
        await service.setStaffPin(shopId, input.name, input.pin);
        // The name only: never the PIN or its hash.
        await audit(who, 'staff_pin', { name: input.name }, shopId);
        sendJson(res, 200, { changed: true });
      },
    }),
    route({
      method: 'GET',
      path: '/api/admin/tills',
      caller: 'admin',
      input: { schema: ShopQuery, from: query },
      handle: async ({ who, input, res }) =>
        sendJson(res, 200, {
          tills: await service.tillStatus(shopOf(who, input.shopId, false)),
          // The day closer failing (issue 39): an alarm for every manager until a round works again.
          maintenance: await service.maintenance(),
        }),
    }),
    route({
      method: 'POST',
      path: '/api/admin/tills/revoke',
      caller: 'admin',
      input: { schema: TillRevokeInput },
      handle: async ({ who, input, res }) => {
        const till = await service.revokeTill(input.tillId, who.shopId);
        if (!till) throw new HubError(404, 'till_unknown', `no till ${input.tillId} in this shop`, 'tillId');
        await audit(who, 'till_revoke', { till: input.tillId, name: till.name }, till.shopId);
        sendJson(res, 200, { revoked: input.tillId });
      },
    }),
    route({
      method: 'POST',
      path: '/api/admin/invoice-claims/clear',
      caller: 'admin',
      input: { schema: ClaimsClearInput },
      handle: async ({ who, input, res }) => {
        const cleared = await service.clearClaims(input.tillId, who.shopId);
        if (cleared > 0) await audit(who, 'claims_clear', { till: input.tillId, count: cleared });
        sendJson(res, 200, { cleared });
      },
    }),
    route({
      method: 'GET',
      path: '/api/admin/report',
      caller: 'admin',
      input: { schema: ReportInput, from: query },
      handle: async ({ who, input, res }) => {
        const shopId = shopOf(who, input.shopId, false);
        if (input.format === 'receipts') {
          const now = Date.now();
          const rows = await service.receipts({ ...input, ...(shopId !== undefined ? { shopId } : {}) }, now);
          // Named by its own days, as the till's CSVs (issue 38): `kasa-hub-receipts-2026-11-27.csv`.
          const period = receiptsPeriod(input, now);
          const days = periodName(period.from, period.to, input.timeZone ?? DEFAULT_HUB_TIME_ZONE);
          res.writeHead(200, {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="kasa-hub-receipts-${days}.csv"`,
            'cache-control': 'no-store',
          });
          res.end(receiptsCsv(rows, input.lang ?? 'en', input.timeZone));
          return;
        }
        const report = await service.report({ ...input, ...(shopId !== undefined ? { shopId } : {}) });
        if (input.format !== 'csv') return sendJson(res, 200, report);
        res.writeHead(200, {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="kasa-hub-report-${dayIn(new Date(report.total.from), input.timeZone ?? DEFAULT_HUB_TIME_ZONE)}.csv"`,
          'cache-control': 'no-store',
        });
        res.end(hubReportCsv(report, input.timeZone, input.lang));
      },
    }),
  ]);

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
    const found = table.match(method, url.pathname);
    if (found.kind === 'route') {
      // Every input is checked for text PostgreSQL cannot store (a NUL, a lone surrogate): 400, never 503.
      const r = found.route;
      const input = r.input && {
        ...r.input,
        precheck: (raw: unknown) => {
          refuseOversizedShape(raw);
          r.input?.precheck?.(raw);
          refuseUnstorableText(raw);
        },
      };
      await runRoute({ ...r, input }, found.params, req, res, url, { callers, maxBodyBytes: MAX_BODY_BYTES });
      return;
    }
    if (method === 'GET' && !url.pathname.startsWith('/api/')) {
      const outcome = ui.serve(url.pathname, res);
      if (outcome === 'no_index') throw new HubError(404, 'ui_not_built', 'the hub UI is not built: run npm run build');
      if (outcome !== 'sent') throw new HubError(404, 'not_found', `no file ${url.pathname}`);
      return;
    }
    throw new HubError(404, 'not_found', `no route ${method} ${url.pathname}`);
  };

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
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
  const server = options.tls
    ? https.createServer({ key: options.tls.key, cert: options.tls.cert, minVersion: 'TLSv1.2' }, onRequest)
    : http.createServer(onRequest);
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
          }),
      });
    });
  });
}
