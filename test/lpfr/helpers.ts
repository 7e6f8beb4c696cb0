/** Shared by the L-PFR tests: a sandbox on an ephemeral port with a real data directory, and a client of it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Core } from '../../electron/core.ts';
import { LpfrClient } from '../../electron/lpfr/client.ts';
import type { OrderView, SyncStatus } from '../../shared/domain.ts';
import { afterEach } from 'vitest';
import { closeCores, control as tillControl, ok, startCore } from '../support/session.ts';
import { cleanupAfterEach } from '../support/cleanups.ts';
import { untilValue } from '../support/poll.ts';
import { startLpfrSandbox, type LpfrSandbox, type LpfrSandboxOptions } from '../support/lpfr-sandbox/server.ts';

export const PIN = '4821';

/** Temporary directories and sandboxes to clean up after each test. */
export class Kit {
  readonly #dirs: string[] = [];
  readonly #sandboxes: LpfrSandbox[] = [];

  dir(): string {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-lpfr-'));
    this.#dirs.push(d);
    return d;
  }

  async sandbox(options: LpfrSandboxOptions = {}): Promise<LpfrSandbox> {
    const s = await startLpfrSandbox({ pin: PIN, ...options });
    this.#sandboxes.push(s);
    return s;
  }

  /** A sandbox with its card unlocked, and a client of it. */
  async ready(options: LpfrSandboxOptions = {}): Promise<{ sandbox: LpfrSandbox; client: LpfrClient }> {
    const sandbox = await this.sandbox(options);
    const client = new LpfrClient({ baseUrl: sandbox.url });
    await client.enterPin(PIN);
    return { sandbox, client };
  }

  async cleanup(): Promise<void> {
    for (const s of this.#sandboxes.splice(0)) await s.close();
    for (const d of this.#dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  }
}

/** A plain InvoiceRequest: `items` of [name, quantity, unitPrice, label], paid in cash. */
export function invoice(
  items: [string, number, number, string][] = [['Хлеб', 2, 50, 'A']],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const lines = items.map(([name, quantity, unitPrice, label]) => ({
    name,
    quantity,
    unitPrice,
    labels: [label],
    totalAmount: Math.round(quantity * unitPrice * 100) / 100,
  }));
  const total = lines.reduce((s, l) => s + Math.round(l.totalAmount * 100), 0) / 100;
  return {
    invoiceType: 'Normal',
    transactionType: 'Sale',
    cashier: 'Ана',
    payment: [{ amount: total, paymentType: 'Cash' }],
    invoiceNumber: 'K1-000001',
    items: lines,
    ...extra,
  };
}

/** POST /api/v3/invoices with raw fetch (status and JSON body, whatever they are). */
export async function rawSign(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(`${url}/api/v3/invoices`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** POST to a sandbox control. */
export async function control(url: string, name: string, body: unknown): Promise<unknown> {
  const r = await fetch(`${url}/__lpfr/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (r.status !== 200) throw new Error(`control ${name}: ${r.status} ${await r.text()}`);
  return r.json();
}

/** The modelState codes of a refusal, by property. */
export function codesOf(json: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of (json['modelState'] as { property: string; errors: string[] }[] | undefined) ?? [])
    out[e.property] = e.errors;
  return out;
}

/** The engine's timings in the L-PFR suites: the gateway's probes and the L-PFR's come round in a tenth of a second. */
export const FAST_LPFR_ENGINE = {
  probeMinMs: 50,
  probeMaxMs: 200,
  baseBackoffMs: 20,
  maxBackoffMs: 100,
  lpfrProbeMs: 100,
} as const;

/**
 * A till's core (a temp data dir named by `prefix`) that signs on the L-PFR sandbox `lpfr` when the gateway is away:
 * its URL and PIN in the environment, FAST_LPFR_ENGINE's timings; `env` and `engine` over them.
 */
export function lpfrTill(
  lpfr: Pick<LpfrSandbox, 'url'>,
  prefix: string,
  env: Record<string, string> = {},
  engine: Record<string, number> = {},
): Promise<Core> {
  return startCore({
    prefix,
    env: { KASA_LPFR_URL: lpfr.url, KASA_LPFR_PIN: PIN, ...env },
    engine: { ...FAST_LPFR_ENGINE, ...engine },
  });
}

/** Takes the sandbox gateway offline and waits until the till knows it and has its L-PFR ready. */
export async function offlineWithLpfrReady(core: Core): Promise<SyncStatus> {
  await tillControl(core, 'offline', { offline: true });
  return lpfrReady(core);
}

/** Waits until the till knows the gateway is offline and has its L-PFR ready. */
export function lpfrReady(core: Core): Promise<SyncStatus> {
  return untilValue(
    'offline with the L-PFR ready',
    () => ok<SyncStatus>(core, 'sync.status'),
    (s) => !s.online && s.lpfr === 'ready',
  );
}

/**
 * Waits until the till's order is fiscalized and returns it (`what` names the wait when it never is). With
 * `syncEachTime` the engine is asked to run before each look (`sync.now`, a sale whose look-up is due); `tries` as in
 * `untilValue`.
 */
export function fiscalized(
  core: Core,
  orderId: number,
  what: string,
  options: { syncEachTime?: boolean; tries?: number } = {},
): Promise<OrderView> {
  return untilValue(
    what,
    async () => {
      if (options.syncEachTime) await ok(core, 'sync.now');
      return ok<OrderView>(core, 'orders.get', { orderId });
    },
    (o) => o.state === 'fiscalized',
    options.tries === undefined ? {} : { tries: options.tries },
  );
}

/**
 * A whole-core L-PFR suite's set-up: the Kit of its sandboxes and `later` for what a test opens (a printer), each
 * closed after every test, with the cores.
 */
export function lpfrCoreSuite(): { kit: Kit; later: (c: () => unknown) => void } {
  const kit = new Kit();
  const later = cleanupAfterEach();
  afterEach(closeCores);
  afterEach(async () => {
    await kit.cleanup();
  });
  return { kit, later };
}
