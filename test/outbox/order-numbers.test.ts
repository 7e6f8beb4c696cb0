/**
 * A sale is fiscalized only by its own receipt.
 * - The scenario through the whole core and the real restore flow (backup, restore at restart):
 *   the sale after the restore gets a number never used before and its own receipt.
 * - Two cores with default settings against one gateway never share an order number.
 * - A number reused anyway (simulated: the database forgets it used it) is caught on every settle path —
 *   single, bulk, lookup/archive — and parked for a person; `orders.reissue` (manager PIN, audited) then
 *   fiscalizes it under a new number with its own receipt.
 * - A reply with the right order number but a different total (sandbox fault `wrong_total`) is confirmed by
 *   lookup + archive: the archive holds the sale's own receipt, so it is fiscalized with it.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { closeCore, closeCores, MANAGER_PIN, ok, startCore, tempDir as tempDirOf } from '../support/session.ts';
import { requestRestore } from '../../electron/db/backup.ts';
import { backupInWorker } from '../../electron/db/maintenance.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import type { Result } from '../../shared/contract/index.ts';
import type { OrderView } from '../../shared/domain.ts';
import { explainGatewayError } from '../../shared/gateway-errors.ts';
import { reuseOrderNumber, saleInput } from '../support/rig.ts';
import { rigsAfterEach } from '../support/rigs.ts';
import { OrderStore } from '../../electron/orders/store.ts';

let sandbox: Sandbox | null = null;
const newRig = rigsAfterEach();
afterEach(async () => {
  await closeCores();
  await sandbox?.close();
  sandbox = null;
});

const start = (dir: string, env: Record<string, string> = {}): Promise<Core> => startCore({ dataDir: dir, env });
const tempDir = (): string => tempDirOf('kasa-numbers-');

/** One line of `amount` RSD, paid in cash, fiscalized online (or answered queued). */
async function sell(c: Core, amount: number): Promise<OrderView> {
  const placed = await ok<{ orderId: number }>(c, 'sales.checkout', {
    lines: [{ name: 'Роба', quantity: 1, unitPrice: amount, labels: ['A'] }],
    payments: [{ type: 'cash', amount }],
  });
  return ok<OrderView>(c, 'orders.get', { orderId: placed.orderId });
}

describe('order numbers are never reused', () => {
  it('the issue scenario: a sale after restoring an older database gets a new number and its own receipt', async () => {
    const dir = tempDir();
    let core = await start(dir);
    const sale1 = await sell(core, 55);
    expect(sale1.state).toBe('fiscalized');
    const kept = await backupInWorker(core.db, dir, { now: Date.now() });
    const sale2 = await sell(core, 110);
    expect(sale2.state).toBe('fiscalized');
    // The kept database is put back the way the manager's restore does it: applied at the next start.
    requestRestore(dir, kept.name);
    await closeCore(core);
    core = await start(dir);
    const gone = (await core.dispatch('orders.get', { orderId: sale2.orderId })) as Result<OrderView>;
    expect(gone.ok).toBe(false); // the restored database does not know sale 2

    const sale3 = await sell(core, 300);
    expect(sale3.orderNumber).not.toBe(sale2.orderNumber);
    expect(sale3.orderNumber).not.toBe(sale1.orderNumber);
    expect(sale3.state).toBe('fiscalized');
    expect(sale3.receipt?.totalPara).toBe(30_000);
    expect(sale3.receipt?.invoiceNumber).not.toBe(sale2.receipt?.invoiceNumber);
  });

  it('two tills left on default settings against one gateway never share a terminal id or an order number', async () => {
    sandbox = await startSandbox({ port: 0 });
    const env = { KASA_API_KEY: 'demo-key', KASA_GATEWAY_URL: sandbox.url };
    const [a, b] = [await start(tempDir(), env), await start(tempDir(), env)];
    expect(a.info().terminalId).not.toBe(b.info().terminalId);
    expect(a.info().terminalId).toMatch(/^KASA[0-9A-Z]{4}$/);
    const numbers = new Set<string>();
    const invoices = new Set<string>();
    for (let i = 0; i < 5; i++) {
      for (const c of [a, b]) {
        const v = await sell(c, 10 + i);
        expect(v.state).toBe('fiscalized');
        expect(v.receipt?.totalPara).toBe((10 + i) * 100);
        numbers.add(v.orderNumber);
        invoices.add(v.receipt?.invoiceNumber ?? '');
      }
    }
    expect(numbers.size).toBe(10);
    expect(invoices.size).toBe(10);
  });

  it('the same till restarted starts a new run: numbers of earlier runs never come back', async () => {
    const dir = tempDir();
    const seen = new Set<string>();
    for (let run = 0; run < 3; run++) {
      const core = await start(dir);
      const v = await sell(core, 20);
      expect(seen.has(v.orderNumber)).toBe(false);
      seen.add(v.orderNumber);
      expect(v.orderNumber).toMatch(/^KASA[0-9A-Z]{4}-\d{8}-[0-9A-Z]{6}-\d{4}$/);
      await closeCore(core);
    }
  });

  it('a copied data folder, a reinstall with a fresh database and two tills set to one terminal id never share a number', async () => {
    sandbox = await startSandbox({ port: 0 });
    const env = { KASA_API_KEY: 'demo-key', KASA_GATEWAY_URL: sandbox.url, KASA_TERMINAL_ID: 'KASA1' };
    const numbers: string[] = [];
    const original = tempDir();
    let core = await start(original, env);
    numbers.push((await sell(core, 11)).orderNumber);
    await closeCore(core);
    // The whole folder copied to a second till (database, settings, everything), both then selling.
    const clone = tempDir();
    fs.cpSync(original, clone, { recursive: true });
    const [a, b] = [await start(original, env), await start(clone, env)];
    for (const [c, amount] of [
      [a, 12],
      [b, 13],
      [a, 14],
      [b, 15],
    ] as const) {
      const v = await sell(c, amount);
      expect(v.state).toBe('fiscalized');
      expect(v.receipt?.totalPara).toBe(amount * 100);
      numbers.push(v.orderNumber);
    }
    // A reinstall: the same terminal id on a fresh database.
    core = await start(tempDir(), env);
    numbers.push((await sell(core, 16)).orderNumber);
    expect(numbers.every((n) => n.startsWith('KASA1-'))).toBe(true);
    expect(new Set(numbers).size).toBe(numbers.length);
    // one receipt per sale, none handed back twice
    expect(sandbox.controls.ledger().receipts).toHaveLength(numbers.length);
  });
});

/** Runs sync passes until the order leaves `queued` (a pass already in flight may predate it). */
async function settled(c: Core, orderId: number): Promise<OrderView> {
  for (let i = 0; i < 100; i++) {
    await ok(c, 'sync.now');
    const v = await ok<OrderView>(c, 'orders.get', { orderId });
    if (v.state !== 'queued') return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  return ok<OrderView>(c, 'orders.get', { orderId });
}

describe('a receipt is checked against its order before the order counts as fiscalized', () => {
  it('a reply with the right order number but a different total is confirmed by lookup + archive before anything is parked', async () => {
    const dir = tempDir();
    const core = await start(dir);
    expect(core.sandboxUrl).toBeTruthy();
    await fetch(`${core.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ rules: [{ match: 'POST /receipt/', action: 'wrong_total', times: 1 }] }),
    });
    // Only the reply was wrong: the archive holds this sale's receipt, so the sale is fiscalized with it.
    const own = await settled(core, (await sell(core, 300)).orderId);
    expect(own.state).toBe('fiscalized');
    expect(own.receipt?.totalPara).toBe(30_000);
    const modes = core.db.prepare('SELECT mode, outcome FROM attempts WHERE order_id = ? ORDER BY id').all(own.orderId);
    expect(modes).toEqual([
      { mode: 'single', outcome: 'mismatch' },
      { mode: 'lookup', outcome: 'issued' },
    ]);

    // A number really used by another sale: parked once lookup + archive confirm it.
    const first = await sell(core, 110);
    const parked = await settled(core, reuseOrderNumber(core.db, new OrderStore(core.db), first.orderNumber));
    expect(parked.state).toBe('needs_attention');
    expect(parked.receipt).toBeUndefined();
    expect(parked.lastError?.code).toBe('KASA_RECEIPT_MISMATCH');
    expect(parked.lastError?.message).toContain('totalAmount');
    const explained = explainGatewayError(parked.lastError as NonNullable<OrderView['lastError']>, 'sr-Cyrl');
    expect(explained.kind).toBe('receipt_mismatch');
    expect(explained.title).toContain('НИЈЕ фискализована');
    // The differing field in words, as the cashier's receipt screen and the needs-attention list both say it.
    expect(explained.title).toContain('не слаже се: укупан износ');
    expect(explained.title).not.toMatch(/totalAmount|another sale/);
    expect(explainGatewayError(parked.lastError as NonNullable<OrderView['lastError']>, 'en').title).toContain(
      'differs in: total amount',
    );

    // Only a manager may decide; a cashier's or a wrong PIN is refused in the core.
    const refused = await core.dispatch('orders.reissue', { managerPin: '9999', orderId: parked.orderId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const plainResend = await sell(core, 1);
    expect(plainResend.state).toBe('fiscalized');
    const notMismatch = await core.dispatch('orders.reissue', {
      managerPin: MANAGER_PIN,
      orderId: plainResend.orderId,
    });
    expect(notMismatch).toMatchObject({ ok: false, error: { code: 'conflict' } });

    const reissued = await ok<OrderView>(core, 'orders.reissue', { managerPin: MANAGER_PIN, orderId: parked.orderId });
    expect(reissued.orderNumber).not.toBe(parked.orderNumber);
    const done = await settled(core, parked.orderId);
    expect(done.state).toBe('fiscalized');
    expect(done.orderNumber).toBe(reissued.orderNumber);
    expect(done.receipt?.totalPara).toBe(30_000);
    const audit = await ok<{ entries: { actor: string | null; action: string; detail: string | null }[] }>(
      core,
      'audit.list',
      {
        managerPin: MANAGER_PIN,
        limit: 20,
      },
    );
    const entry = audit.entries.find((e) => e.action === 'order.reissue');
    expect(entry?.actor).toBe('Менаџер');
    expect(JSON.parse(entry?.detail ?? '{}')).toMatchObject({ from: parked.orderNumber, to: reissued.orderNumber });
  });

  it.each([
    ['single', { bulkThreshold: 1000 }],
    ['bulk', { bulkThreshold: 0 }],
  ] as const)(
    'a reused number is parked, never fiscalized with the other sale’s receipt (%s path)',
    async (_path, engine) => {
      const rig = await newRig({ engine: { concurrency: 1, ...engine } });
      const first = await rig.sales.checkout(saleInput(1, 110));
      await rig.settle();
      const original = rig.store.get(first.orderId);
      expect(original?.state).toBe('fiscalized');
      const reused = reuseOrderNumber(rig.db, rig.store, first.orderNumber, rig.clock.now);
      await rig.settle();
      const row = rig.store.get(reused);
      expect(row?.state).toBe('needs_attention');
      expect(row?.receipt).toBeNull();
      expect(JSON.parse(row?.last_error ?? '{}')).toMatchObject({ code: 'KASA_RECEIPT_MISMATCH' });
      // The gateway issued nothing new for it: the only receipt under that number is the first sale's.
      expect(rig.ledgerCounts().get(first.orderNumber)).toBe(1);
    },
  );

  it('a reused number is parked on the lookup/archive path too (unknown outcome beyond the dedupe window)', async () => {
    const rig = await newRig({ engine: { concurrency: 1, bulkThreshold: 1000 } });
    const first = await rig.sales.checkout(saleInput(1, 110));
    await rig.settle();
    const reused = reuseOrderNumber(rig.db, rig.store, first.orderNumber, rig.clock.now);
    // Its first attempt's outcome is unknown and 20 days old: only lookup + archive may resolve it.
    rig.db
      .prepare('UPDATE outbox SET unknown = 1, first_attempt_at = ?, tries = 1 WHERE order_id = ?')
      .run(rig.clock.now, reused);
    rig.advance(20 * 24 * 3600_000);
    await rig.settle();
    const row = rig.store.get(reused);
    expect(row?.state).toBe('needs_attention');
    expect(JSON.parse(row?.last_error ?? '{}')).toMatchObject({ code: 'KASA_RECEIPT_MISMATCH' });
    const modes = rig.db.prepare('SELECT mode, outcome FROM attempts WHERE order_id = ?').all(reused) as {
      mode: string;
      outcome: string;
    }[];
    expect(modes).toContainEqual({ mode: 'lookup', outcome: 'mismatch' });
  });
});
