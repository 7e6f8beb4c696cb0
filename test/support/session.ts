/**
 * A till set up the way authorization requires before anything is sold: the first-run manager's PIN 0000 is
 * changed (it approves nothing until then) and that manager is logged in, so the core has a session.
 * Tests that are not about login use this instead of the first-run PIN.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore, type Core } from '../../electron/core.ts';
import type { EngineOptions } from '../../electron/outbox/engine.ts';
import type { AppError, Result } from '../../shared/contract/index.ts';
import type { ReceiptView } from '../../shared/contract/goods.ts';
import type { OrderView } from '../../shared/domain.ts';

/** The first-run manager's PIN after `signIn` changed it from 0000. */
export const MANAGER_PIN = '482916';

/**
 * Changes the first-run PIN to `pin` (when this data dir still has it, so a restart or a copied folder
 * counts no wrong PIN) and logs that manager in.
 */
export async function signIn(core: Pick<Core, 'dispatch' | 'db'>, pin = MANAGER_PIN): Promise<void> {
  const firstRun =
    core.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM staff WHERE must_change_pin = 1').get()?.n ?? 0;
  if (firstRun > 0) {
    const changed = await core.dispatch('staff.changePin', { currentPin: '0000', newPin: pin });
    if (!changed.ok) throw new Error(`signIn: ${JSON.stringify(changed.error)}`);
  }
  const login = await core.dispatch('staff.login', { pin });
  if (!login.ok) throw new Error(`signIn: ${JSON.stringify(login.error)}`);
}

/**
 * The core harness every whole-core test uses: `startCore` makes a temp data dir (or reuses one, for a
 * restart) and a core with its embedded sandbox gateway over real HTTP, quiet logs and a fast retry
 * engine, signed in; `closeCores` (register it with `afterEach(closeCores)`) closes every core it made and
 * removes every data dir it made.
 */
export const QUIET_LOGGER = { info() {}, warn() {}, error() {}, redact() {} } as unknown as Core['logger'];
/** Probe and backoff in tens of milliseconds, so an offline spell or a retry ends within a test. */
export const FAST_ENGINE = { probeMinMs: 20, probeMaxMs: 100, baseBackoffMs: 20, maxBackoffMs: 100 } as const;

export interface StartCoreOptions {
  /** Environment on top of `KASA_ONLINE_BUDGET_MS=3000` (KASA_LANG, KASA_SANDBOX_VARIANT, ...). */
  env?: Record<string, string>;
  now?: () => number;
  /** Engine timings; `false` keeps the core's own. Default FAST_ENGINE. */
  engine?: Partial<EngineOptions> | false;
  /** An existing data dir (a restart); it is not removed by `closeCores`. */
  dataDir?: string;
  /** Prefix of the temp data dir. */
  prefix?: string;
  /** Default true: change the first-run PIN and log the manager in. */
  signedIn?: boolean;
}

const openCores: Core[] = [];
const tempDirs: string[] = [];

/** A temp dir removed by `closeCores`. */
export function tempDir(prefix = 'kasa-core-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export async function startCore(options: StartCoreOptions = {}): Promise<Core> {
  const engine = options.engine ?? FAST_ENGINE;
  const core = await createCore({
    dataDir: options.dataDir ?? tempDir(options.prefix),
    transport: 'host',
    ...(options.now ? { now: options.now } : {}),
    env: { KASA_ONLINE_BUDGET_MS: '3000', ...options.env },
    logger: QUIET_LOGGER,
    ...(engine ? { engine } : {}),
  });
  openCores.push(core);
  if (options.signedIn ?? true) await signIn(core);
  return core;
}

/** Closes one core before the test ends (a restart); `closeCores` leaves it be. */
export async function closeCore(core: Core): Promise<void> {
  const i = openCores.indexOf(core);
  if (i >= 0) openCores.splice(i, 1);
  await core.close();
}

export async function closeCores(): Promise<void> {
  for (const c of openCores.splice(0).reverse()) await c.close();
  for (const d of tempDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

/** The plain sale many tests ring: bread and milk, label A, 540 RSD paid in cash (by the person logged in). */
export const BREAD_AND_MILK = {
  lines: [
    { name: 'Хлеб', quantity: 3, unitPrice: 80, labels: ['A'] },
    { name: 'Млеко', quantity: 2, unitPrice: 150, labels: ['A'] },
  ],
  payments: [{ type: 'cash', amount: 540 }],
};

/** Dispatches and returns the value; throws with the error when refused. */
export async function ok<T>(c: Pick<Core, 'dispatch'>, name: string, input: unknown = {}): Promise<T> {
  const r = (await c.dispatch(name, input)) as Result<T>;
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
  return r.value;
}

/** Dispatches and returns the error; throws when accepted. */
export async function fails(c: Pick<Core, 'dispatch'>, name: string, input: unknown): Promise<AppError> {
  const r = (await c.dispatch(name, input)) as Result<unknown>;
  if (r.ok) throw new Error(`${name} was accepted: ${JSON.stringify(r.value)}`);
  return r.error;
}

/** A sandbox test endpoint `/__sandbox/<what>`: GET without a body, POST with one. */
export function controlResponse(
  sandbox: Pick<Core, 'sandboxUrl'> | string,
  what: string,
  body?: unknown,
): Promise<Response> {
  const url = typeof sandbox === 'string' ? sandbox : sandbox.sandboxUrl;
  const init =
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  return fetch(`${url}/__sandbox/${what}`, init);
}

/** `controlResponse`'s JSON body. */
export async function control(
  sandbox: Pick<Core, 'sandboxUrl'> | string,
  what: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  return (await (await controlResponse(sandbox, what, body)).json()) as Record<string, unknown>;
}

/** Resolves when the order reaches `state` (event-driven, no sleeps). */
export function settled(c: Pick<Core, 'dispatch' | 'subscribe'>, orderId: number, state = 'fiscalized'): Promise<void> {
  return new Promise((resolve) => {
    const off = c.subscribe((m) => {
      if (m.name === 'order.updated' && m.payload.orderId === orderId && m.payload.state === state) {
        off();
        resolve();
      }
    });
    void c.dispatch('orders.get', { orderId }).then((r) => {
      if (r.ok && (r.value as OrderView).state === state) {
        off();
        resolve();
      }
    });
  });
}

/** Orders in the till's database (every capture, whatever its state). */
export const orderCount = (c: Pick<Core, 'db'>): number =>
  c.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM orders').get()?.n ?? 0;

/**
 * A refund with the first-run manager's PIN, paid back in cash unless `input` says otherwise; `input` names the
 * original (`orderId` or `invoiceNumber`), what goes back (`lines` or `full`) and the buyer.
 */
export function makeRefund(c: Pick<Core, 'dispatch'>, input: Record<string, unknown>): Promise<OrderView> {
  return ok<OrderView>(c, 'refunds.create', { managerPin: MANAGER_PIN, paymentType: 'cash', ...input });
}

/**
 * A goods receipt saved as a draft with the first-run manager's PIN: `draft` names the supplier, the invoice (number
 * and date) and the lines.
 */
export function saveReceipt(c: Pick<Core, 'dispatch'>, draft: Record<string, unknown>): Promise<ReceiptView> {
  return ok<ReceiptView>(c, 'goods.receiptSave', { managerPin: MANAGER_PIN, ...draft });
}

/** The refund `makeRefund` asks for, its Result as it comes: for a test that expects it refused. */
export function tryRefund(c: Pick<Core, 'dispatch'>, input: Record<string, unknown>): Promise<Result<unknown>> {
  return c.dispatch('refunds.create', { managerPin: MANAGER_PIN, paymentType: 'cash', ...input });
}

/** A fiscal copy of `original` (its `orderId` or `invoiceNumber`) with the first-run manager's approval. */
export function makeCopy(c: Pick<Core, 'dispatch'>, original: Record<string, unknown>): Promise<OrderView> {
  return ok<OrderView>(c, 'copies.create', { ...original, approval: { managerPin: MANAGER_PIN } });
}

/**
 * A new product for `catalog.put`: `Производ <code>` at `price` dinars, label Ж, sold by the piece, in `group`, with
 * the manager's approval; `over` changes any field.
 */
export function newProduct(
  code: string,
  price: number,
  group: string | null,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    code,
    create: true,
    name: `Производ ${code}`,
    price,
    label: 'Ж',
    unit: 'piece',
    group,
    favourite: false,
    barcodes: [],
    approval: { managerPin: MANAGER_PIN },
    ...over,
  };
}
