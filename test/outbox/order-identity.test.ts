/**
 * Issue #16: a sale is fiscalized only by its own receipt. Through the whole core (createCore →
 * dispatch) on real SQLite files and the sandbox gateway over real HTTP:
 * - the issue's scenario: sale 1, a backup, sale 2, the backup restored at restart, sale 3 of another
 *   amount: sale 3 gets a new number and its own receipt, never sale 2's;
 * - two tills with default settings against one gateway never share an order number or terminal id;
 * - a cloned data folder (the one case the till tag cannot tell apart) reuses a number: the gateway's
 *   receipt for it is another sale's, so the order is parked with the reason in the manager's language,
 *   and only a manager's PIN re-issues it under a new number (audited);
 * - a receipt with the right order number and a different total (sandbox fault `wrong_total`) is refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../electron/core.ts';
import { createBackup, requestRestore } from '../../electron/db/backup.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import type { Result } from '../../shared/contract/index.ts';
import type { OrderView } from '../../shared/domain.ts';
import { RECEIPT_MISMATCH, explainGatewayError } from '../../shared/gateway-errors.ts';

const cores: Core[] = [];
const dirs: string[] = [];
let sandbox: Sandbox | null = null;
afterEach(async () => {
  for (const c of cores.splice(0)) await c.close();
  await sandbox?.close();
  sandbox = null;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const quiet = { info() {}, warn() {}, error() {}, redact() {} } as unknown as Core['logger'];

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-i16-'));
  dirs.push(d);
  return d;
}

/** A core with default settings (no terminal id); with `gatewayUrl`, on that gateway, else demo mode. */
async function start(dataDir: string, gatewayUrl?: string): Promise<Core> {
  const core = await createCore({
    dataDir,
    transport: 'host',
    env: {
      KASA_LANG: 'en',
      KASA_ONLINE_BUDGET_MS: '5000',
      ...(gatewayUrl ? { KASA_API_KEY: 'demo-key', KASA_GATEWAY_URL: gatewayUrl } : {}),
    },
    logger: quiet,
    engine: { probeMinMs: 20, probeMaxMs: 100, baseBackoffMs: 20, maxBackoffMs: 100 },
  });
  cores.push(core);
  return core;
}

async function stop(core: Core): Promise<void> {
  cores.splice(cores.indexOf(core), 1);
  await core.close();
}

async function ok<T>(c: Core, name: string, input: unknown = {}): Promise<T> {
  const r = (await c.dispatch(name, input)) as Result<T>;
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
  return r.value;
}

interface Sold {
  orderId: number;
  orderNumber: string;
  state: string;
  receipt?: { invoiceNumber: string; totalPara: number };
}

/** One line at `amount` dinars, paid in cash exactly; waits for the gateway within the online budget. */
function sell(c: Core, amount: number): Promise<Sold> {
  return ok<Sold>(c, 'sales.checkout', {
    lines: [{ name: 'Артикал', quantity: 1, unitPrice: amount, labels: ['A'] }],
    payments: [{ type: 'cash', amount }],
  });
}

/** Resolves when the order reaches `state` (event-driven, no sleeps). */
function reaches(c: Core, orderId: number, state: string): Promise<OrderView> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: OrderView): void => {
      if (done) return;
      done = true;
      off();
      resolve(v);
    };
    const check = (): void => {
      void c.dispatch('orders.get', { orderId }).then((r) => {
        if (r.ok && (r.value as OrderView).state === state) finish(r.value as OrderView);
      });
    };
    const off = c.subscribe((m) => {
      if (m.name === 'order.updated' && m.payload.orderId === orderId) check();
    });
    check();
  });
}

describe('order numbers are never reused', () => {
  it("the issue's scenario: after an older database is restored, sale 3 is fiscalized under a new number with its own receipt", async () => {
    const dir = tempDir();
    let c = await start(dir);
    const s1 = await sell(c, 55);
    expect(s1.state).toBe('fiscalized');
    const backup = await createBackup(c.db, dir);
    const s2 = await sell(c, 110);
    expect(s2.state).toBe('fiscalized');
    requestRestore(dir, backup.name);
    await stop(c);

    c = await start(dir); // applies the restore: the database no longer knows sale 2
    expect((await c.dispatch('orders.get', { orderId: s2.orderId })).ok).toBe(false);
    const s3 = await sell(c, 300);
    const v3 = s3.state === 'fiscalized' ? s3 : await reaches(c, s3.orderId, 'fiscalized');
    expect(s3.orderNumber).not.toBe(s2.orderNumber);
    expect(s3.orderNumber).not.toBe(s1.orderNumber);
    expect(v3.receipt?.invoiceNumber).not.toBe(s2.receipt?.invoiceNumber);
    expect(v3.receipt?.totalPara).toBe(30_000);
    // The spec's orderNumber is a string unique per shop; Kasa keeps it short and plain.
    expect(s3.orderNumber).toMatch(/^[A-Z0-9-]{1,40}$/);
  });

  it('two tills left on default settings against one gateway never share an order number or terminal id', async () => {
    sandbox = await startSandbox({ port: 0 });
    const a = await start(tempDir(), sandbox.url);
    const b = await start(tempDir(), sandbox.url);
    const info = async (c: Core) => (await ok<{ terminalId: string }>(c, 'settings.get')).terminalId;
    expect(await info(a)).not.toBe(await info(b));
    const numbers = new Set<string>();
    const invoices = new Set<string>();
    for (let i = 0; i < 3; i++) {
      for (const [c, amount] of [[a, 100 + i], [b, 200 + i]] as const) {
        const s = await sell(c, amount);
        const v = s.state === 'fiscalized' ? s : await reaches(c, s.orderId, 'fiscalized');
        expect(v.receipt?.totalPara).toBe(amount * 100);
        numbers.add(s.orderNumber);
        invoices.add(v.receipt?.invoiceNumber ?? '');
      }
    }
    expect(numbers.size).toBe(6);
    expect(invoices.size).toBe(6);
  });
});

describe('every returned receipt is checked against its order', () => {
  it("a cloned data folder reuses a number: the other sale's receipt is refused, the order parked, and re-issued only with a manager's PIN", async () => {
    sandbox = await startSandbox({ port: 0 });
    const dirA = tempDir();
    const first = await start(dirA, sandbox.url);
    await sell(first, 50);
    await stop(first);
    const dirB = tempDir();
    fs.cpSync(dirA, dirB, { recursive: true }); // the whole disk, identity file included, on the same machine

    const a = await start(dirA, sandbox.url);
    const b = await start(dirB, sandbox.url);
    const sa = await sell(a, 110);
    expect(sa.state).toBe('fiscalized');
    const sb = await sell(b, 300);
    expect(sb.orderNumber).toBe(sa.orderNumber); // the reuse the till tag cannot see
    const parked = sb.state === 'needs_attention' ? await ok<OrderView>(b, 'orders.get', { orderId: sb.orderId }) : await reaches(b, sb.orderId, 'needs_attention');
    expect(parked.receipt).toBeUndefined();
    expect(parked.lastError?.code).toBe(RECEIPT_MISMATCH);
    expect(parked.lastError?.fields).toContainEqual({ field: 'totalAmount', message: '300.00 ≠ 110.00' });
    const en = explainGatewayError(parked.lastError as NonNullable<OrderView['lastError']>, 'en');
    expect(en.kind).toBe('receipt_mismatch');
    expect(en.title).toContain(sa.receipt?.invoiceNumber ?? '?');
    expect(en.title).toContain('NOT fiscalized');
    expect(explainGatewayError(parked.lastError as NonNullable<OrderView['lastError']>, 'sr-Cyrl').title).toContain('НИЈЕ фискализована');
    expect(explainGatewayError(parked.lastError as NonNullable<OrderView['lastError']>, 'sr-Latn').title).toContain('NIJE fiskalizovana');
    expect(sandbox.controls.ledger().receipts.filter((r) => r.orderNumber === sa.orderNumber)).toHaveLength(1);

    // A cashier's PIN, or none, is refused: the manager decides, in the core.
    const refused = await b.dispatch('orders.reissue', { managerPin: '9999', orderId: sb.orderId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await b.dispatch('orders.reissue', { orderId: sb.orderId })).ok).toBe(false);
    // A fiscalized order is no candidate.
    expect(await b.dispatch('orders.reissue', { managerPin: '0000', orderId: (await sell(b, 1)).orderId })).toMatchObject({ ok: false, error: { code: 'conflict' } });

    const again = await ok<OrderView>(b, 'orders.reissue', { managerPin: '0000', orderId: sb.orderId, requestedBy: 'Ана' });
    const done = again.state === 'fiscalized' ? again : await reaches(b, sb.orderId, 'fiscalized');
    expect(done.orderNumber).not.toBe(sa.orderNumber);
    expect(done.receipt?.totalPara).toBe(30_000);
    expect(done.receipt?.invoiceNumber).not.toBe(sa.receipt?.invoiceNumber);
    const audit = await ok<{ entries: { actor: string | null; action: string; detail: string | null }[] }>(b, 'audit.list', { managerPin: '0000' });
    const entry = audit.entries.find((e) => e.action === 'order.reissue');
    expect(entry?.actor).toBe('Ана');
    expect(JSON.parse(entry?.detail ?? '{}')).toMatchObject({ previous: sa.orderNumber, orderNumber: done.orderNumber, approvedBy: 'Менаџер' });
  });

  it('a receipt with the right order number but another total (fault wrong_total) never fiscalizes the order', async () => {
    sandbox = await startSandbox({ port: 0 });
    const c = await start(tempDir(), sandbox.url);
    sandbox.controls.setFaults([{ match: 'POST /receipt/normal/sale', action: 'wrong_total', times: 1 }]);
    const s = await sell(c, 120);
    const parked = s.state === 'needs_attention' ? await ok<OrderView>(c, 'orders.get', { orderId: s.orderId }) : await reaches(c, s.orderId, 'needs_attention');
    expect(parked.receipt).toBeUndefined();
    expect(parked.lastError?.fields).toEqual([{ field: 'totalAmount', message: '120.00 ≠ 121.00' }]);
    expect((await ok<{ needsAttention: number }>(c, 'sync.status')).needsAttention).toBe(1);
  });
});
