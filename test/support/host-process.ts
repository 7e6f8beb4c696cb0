/**
 * Starts the browser host (electron/host/cli.ts) as a child process with its own data directory, and
 * reads its one JSON line. Used by e2e tests, the chaos test and benchmarks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { MANAGER_PIN } from './session.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface HostProcess {
  url: string;
  token: string;
  sandboxUrl: string | null;
  dataDir: string;
  child: ChildProcess;
  /** Calls a contract command over HTTP. */
  call<T = unknown>(
    command: string,
    input?: unknown,
  ): Promise<{
    status: number;
    body: { ok: boolean; value?: T; error?: { code: string; field?: string; message: string } };
  }>;
  /** Stops the host (SIGTERM, or SIGKILL with `hard`). */
  stop(hard?: boolean): Promise<void>;
}

export interface HostStartOptions {
  dataDir?: string;
  env?: Record<string, string>;
  /** Show the host's stderr (logs). */
  verbose?: boolean;
}

/**
 * `out/<parts>` of the build this run made just now (`KASA_TEST_HOST_BUILT`: set by the e2e global setup, which
 * builds what is stale, and by `npm test` after its build step), or null: then the tests take the sources, so a test
 * never runs an older build than the code it tests.
 */
export function thisRunsBuild(...parts: string[]): string | null {
  const file = path.join(ROOT, 'out', ...parts);
  return process.env.KASA_TEST_HOST_BUILT === '1' && fs.existsSync(file) ? file : null;
}

/**
 * The host's entry: this run's build of it (out/main/host.js, plain JS: about 0.7 s less per start than stripping the
 * types of every source file), else the sources.
 */
function hostEntry(): string {
  return thisRunsBuild('main', 'host.js') ?? path.join(ROOT, 'electron', 'host', 'cli.ts');
}

export async function startHostProcess(options: HostStartOptions = {}): Promise<HostProcess> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-host-'));
  const child = spawn(process.execPath, [hostEntry()], {
    cwd: ROOT,
    env: { ...process.env, KASA_DATA_DIR: dataDir, KASA_LANG: 'sr-Cyrl', ...options.env },
    stdio: ['ignore', 'pipe', options.verbose ? 'inherit' : 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const info = await killedIfThrows(
    child,
    async () =>
      JSON.parse(await readFirstLine(child, 'host')) as { url: string; token: string; sandboxUrl: string | null },
  );
  return {
    ...info,
    dataDir,
    child,
    async call(command, input = {}) {
      const res = await fetch(new URL(`api/${command}`, info.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${info.token}` },
        body: JSON.stringify(input),
      });
      return { status: res.status, body: (await res.json()) as never };
    },
    async stop(hard = false) {
      if (child.exitCode === null && child.signalCode === null) child.kill(hard ? 'SIGKILL' : 'SIGTERM');
      await exited;
    },
  };
}

/**
 * `start()`'s result; when it throws, the child is killed (SIGKILL) before the error goes on. A child whose start
 * failed half-way (its line unreadable, a call after it refused) is the caller's no longer: nothing would stop it.
 */
export async function killedIfThrows<T>(child: ChildProcess, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (e) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw e;
  }
}

/** The first stdout line of a child (its JSON ready line); rejects with its stderr if it exits first. */
export async function readFirstLine(child: ChildProcess, what: string): Promise<string> {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  return new Promise<string>((resolve, reject) => {
    let buf = '';
    const onData = (d: Buffer): void => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        child.stdout?.off('data', onData);
        resolve(buf.slice(0, nl));
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code} before it was ready:\n${stderr}`)));
  });
}

/**
 * A till past its first run: the first-run manager's PIN 0000 changed to `pin` (`firstRun`;
 * false for a later start on the same data dir) and that manager logged in, so the core has a session
 * for the commands a test sends before the UI logs in.
 */
export async function signInHost(host: Pick<HostProcess, 'call'>, pin = MANAGER_PIN, firstRun = true): Promise<void> {
  // Only on a first run: a wrong current PIN would count towards the lockout.
  if (firstRun) {
    const changed = await host.call('staff.changePin', { currentPin: '0000', newPin: pin });
    if (!changed.body.ok) throw new Error(`signInHost: ${JSON.stringify(changed.body.error)}`);
    // A till the tests use as set up: the first-run setup flow is done, the counter opens on the sale screen.
    const setUp = await host.call('settings.update', { managerPin: pin, setupDone: true });
    if (!setUp.body.ok) throw new Error(`signInHost: ${JSON.stringify(setUp.body.error)}`);
  }
  const login = await host.call('staff.login', { pin });
  if (!login.body.ok) throw new Error(`signInHost: ${JSON.stringify(login.body.error)}`);
}

/**
 * Waits until the till in `dataDir` has pulled its shop's manager from the hub (a manager past the first-run PIN),
 * reading its SQLite file read-only. A later till of a shop takes the manager this way instead of setting its own
 * first-run PIN: that PIN would be a new person the hub offers for a staff choice, and pulls would wait for it
 * (docs/hub.md, "A first PIN after enrolment"). Polls every 100 ms for at most `timeoutMs`.
 */
export async function awaitPulledManager(dataDir: string, timeoutMs = 30_000): Promise<void> {
  const file = path.join(dataDir, 'kasa.sqlite');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (fs.existsSync(file)) {
      const db = new Database(file, { readonly: true });
      try {
        const pulled = db
          // The shop's manager, pulled: with this till's verifier of their PIN, or none yet (the till then asks the
          // hub about their PIN, issue 39); the till's own first-run manager is still on 0000 (must_change_pin).
          .prepare("SELECT 1 FROM staff WHERE role = 'manager' AND must_change_pin = 0")
          .get();
        if (pulled) return;
      } finally {
        db.close();
      }
    }
    if (Date.now() > deadline) throw new Error(`no manager pulled from the hub into ${file} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The chaos runs' load: `count` one-line checkouts at a random price (from `random`) fired at a till that may be
 * killed meanwhile; each acknowledged order number is added to `acknowledged`. A failed call means the till died
 * under us and ends the run.
 */
export async function fireCheckouts(
  till: Pick<HostProcess, 'call'>,
  o: {
    count: number;
    random: () => number;
    payment: 'cash' | 'card';
    acknowledged: Set<string>;
    /** A catalog product each sale sells at its price (its goods move), else a hand-typed item at a random price. */
    product?: { id: number; pricePara: number } | undefined;
    /** Where the ids of the acknowledged sales of `product` go (what a later refund may take back). */
    sold?: number[];
  },
): Promise<void> {
  for (let i = 0; i < o.count; i++) {
    try {
      const random = 1 + Math.floor(o.random() * 5000) / 100;
      const price = o.product ? o.product.pricePara / 100 : random;
      const product = o.product ? { productId: o.product.id } : {};
      const r = await till.call<{ orderId: number; orderNumber: string }>('sales.checkout', {
        lines: [{ name: 'Хаос артикал', quantity: 1, unitPrice: price, labels: ['A'], ...product }],
        payments: [{ type: o.payment, amount: price }],
      });
      if (r.body.ok && r.body.value) {
        o.acknowledged.add(r.body.value.orderNumber);
        if (o.product) o.sold?.push(r.body.value.orderId);
      }
    } catch {
      return;
    }
  }
}

/** POSTs to the sandbox gateway's test controls (`/__sandbox/<what>`). */
export async function sandboxControl(sandboxUrl: string, what: string, body: unknown = {}): Promise<unknown> {
  const res = await fetch(`${sandboxUrl.replace(/\/$/, '')}/__sandbox/${what}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`sandbox control ${what}: HTTP ${res.status}`);
  return res.json();
}

export async function sandboxLedger(sandboxUrl: string): Promise<{
  receipts: {
    orderNumber: string;
    invoiceNumber: string;
    invoiceType: string;
    transactionType: string;
    referentDocumentNumber?: string | null;
  }[];
}> {
  const res = await fetch(`${sandboxUrl.replace(/\/$/, '')}/__sandbox/ledger`);
  return (await res.json()) as never;
}
