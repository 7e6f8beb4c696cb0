/**
 * A hub service on one backend (test/hub/backends.ts) served over real HTTP for one test file's `describe`: the
 * database, the service and the server are made in `beforeAll` and closed in `afterAll`, and the helpers speak to it
 * as a till, a manager or the admin do (JSON over `fetch`). What a suite seeds before the server starts (shops,
 * staff, a till) goes in `seed`.
 */
import { afterAll, beforeAll } from 'vitest';
import type { HubDb } from '../../hub/db/db.ts';
import { startHubServer, type HubServer, type HubServerOptions } from '../../hub/server.ts';
import { createHubService, type AuthedTill, type HubService } from '../../hub/service.ts';
import { HubError } from '../../electron/hub-client/client.ts';
import { hashPin } from '../../shared/node/pin.ts';
import type { Backend } from './backends.ts';
import { rejectionOf } from '../support/rejection.ts';

export interface ServedHubOptions {
  adminToken: string;
  /** The service's options (its clock, the enrolment codes' lifetime). */
  service?: Parameters<typeof createHubService>[1];
  /** The server's options besides the service and the admin token (the lockout's clock, a PIN compare counter). */
  server?: Omit<HubServerOptions, 'service' | 'adminToken'>;
  /** The default shop („A“ unless `defaultShop` names it) made with these people before `seed` runs. */
  staff?: readonly SeedPerson[];
  /**
   * The hub's default shop made before `seed` runs, its id `ServedHub.shop`: under this name, or the service's own
   * for `true` (a suite's usual start, so that the shop a test is about is known before anything else is made).
   */
  defaultShop?: string | true;
  /** Runs once the service exists (and the default shop, given to it), before the server starts. */
  seed?: (service: HubService, shop: number) => Promise<unknown>;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export class ServedHub {
  handle!: Awaited<ReturnType<Backend['open']>>;
  db!: HubDb;
  service!: HubService;
  server!: HubServer;
  /** The default shop made for `defaultShop` or `staff` (0 without either). */
  shop = 0;
  readonly adminToken: string;
  constructor(adminToken: string) {
    this.adminToken = adminToken;
  }

  private closed = false;

  /** Takes the hub away (a test of tills without it); `afterAll` then leaves the server be. */
  async closeServer(): Promise<void> {
    this.closed = true;
    await this.server.close();
  }

  /** Brings the hub back on the same port after `closeServer` (a till that saw it go away finds it again). */
  async reopenServer(): Promise<void> {
    this.server = await startHubServer({
      ...this.serverOptions,
      service: this.service,
      adminToken: this.adminToken,
      port: Number(new URL(this.server.url).port),
    });
    this.closed = false;
  }

  /** The server's options besides the service and the admin token, kept for `reopenServer`. */
  serverOptions: ServedHubOptions['server'] = {};

  get url(): string {
    return this.server.url;
  }

  /** Closes the server unless a test did. */
  async dispose(): Promise<void> {
    if (!this.closed) await this.server?.close();
  }

  /** A request with a bearer token (the admin token, a manager's session or a till's credential). */
  request(token: string | null, method: string, p: string, body?: unknown): Promise<Response> {
    return fetch(`${this.server.url}${p}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  }

  /** The same, read as JSON. */
  async call(token: string | null, method: string, p: string, body?: unknown): Promise<Answer> {
    const r = await this.request(token, method, p, body);
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  }

  /** A request with the admin token. */
  admin(method: string, p: string, body?: unknown): Promise<Response> {
    return this.request(this.adminToken, method, p, body);
  }

  /** A manager's login by PIN at one shop: the status and the session's token ('' when refused). */
  async login(pin: string, shopId: number): Promise<{ status: number; token: string }> {
    const r = await this.call(null, 'POST', '/api/admin/login', { pin, shopId });
    return { status: r.status, token: typeof r.body['token'] === 'string' ? r.body['token'] : '' };
  }

  /** A till's enrolment with a one-time code. */
  enrol(code: string, name: string): Promise<Answer> {
    return this.call(null, 'POST', '/api/enrol', { code, name });
  }
}

/** A person a seed gives the shop, with the PIN in clear (the hub stores its hash). */
export interface SeedPerson {
  name: string;
  role: 'manager' | 'cashier';
  pin: string;
}

/** The hub's default shop as `options` ask for it (its name, its people); returns the shop's id. */
async function defaultShopOf(
  service: HubService,
  options: Pick<ServedHubOptions, 'defaultShop' | 'staff'>,
): Promise<number> {
  const name = options.defaultShop ?? 'A';
  const shop = await service.ensureDefaultShop(name === true ? undefined : name);
  if (!options.staff) return shop;
  const staff = [];
  for (const p of options.staff) staff.push({ name: p.name, role: p.role, pinHash: await hashPin(p.pin) });
  await service.upsertStaff(shop, staff);
  return shop;
}

/** Registers the hub's `beforeAll` and `afterAll` in the calling `describe` and returns it (ready inside tests). */
export function serveHub(backend: Backend, options: ServedHubOptions): ServedHub {
  const hub = new ServedHub(options.adminToken);
  hub.serverOptions = options.server ?? {};
  beforeAll(async () => {
    hub.handle = await backend.open();
    hub.db = hub.handle.db;
    hub.service = createHubService(hub.db, options.service);
    if (options.staff || options.defaultShop) hub.shop = await defaultShopOf(hub.service, options);
    await options.seed?.(hub.service, hub.shop);
    hub.server = await startHubServer({ ...options.server, service: hub.service, adminToken: options.adminToken });
  }, 120_000);
  afterAll(async () => {
    await hub.dispose();
    await hub.handle?.dispose();
  });
  return hub;
}

/** The hub's database and service without a server, for suites that call the service itself. */
export function openHubService(
  backend: Backend,
  options: Pick<ServedHubOptions, 'service'> & { seed?: (service: HubService) => Promise<unknown> },
): { db: HubDb; service: HubService } {
  const hub = { db: undefined as unknown as HubDb, service: undefined as unknown as HubService };
  let dispose: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await backend.open();
    dispose = opened.dispose;
    hub.db = opened.db;
    hub.service = createHubService(hub.db, options.service);
    await options.seed?.(hub.service);
  }, 120_000);
  afterAll(async () => {
    await dispose?.();
  });
  return hub;
}

/**
 * The hub's service (openHubService, with the service's `options`) with two tills A and B enrolled in the default
 * shop before the suite's tests; `enrolled` receives them.
 */
export function openHubWithTwoTills(
  backend: Backend,
  options: ServedHubOptions['service'],
  enrolled: (tills: readonly [AuthedTill, AuthedTill]) => void,
): { db: HubDb; service: HubService } {
  return openHubService(backend, {
    service: options,
    seed: async (service) => enrolled(await enrolTills(service, await service.ensureDefaultShop(), ['A', 'B'])),
  });
}

/** The hub's refusal of a till client's call (a HubError), failing when the call succeeds. */
export function refusal(p: Promise<unknown>): Promise<HubError> {
  return rejectionOf(p, HubError, 'expected the hub to refuse');
}

/** Tills enrolled straight through the service (one-time codes), as the service's `push` takes them: one a name. */
export async function enrolTills<const N extends readonly string[]>(
  service: HubService,
  shopId: number,
  names: N,
): Promise<{ [K in keyof N]: AuthedTill }> {
  const tills: AuthedTill[] = [];
  for (const name of names) {
    const t = await service.enrol(await service.newEnrolCode(shopId), name);
    tills.push({ id: t.tillId, shopId, name });
  }
  return tills as unknown as { [K in keyof N]: AuthedTill };
}
