/**
 * An in-process Kasa core slice for integration tests: a real SQLite file, the real sandbox gateway over
 * real HTTP, the order store, the sync engine and the sales service, all on one controllable clock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../../electron/db/open.ts';
import { GatewayClient } from '../../electron/gateway/client.ts';
import { SyncEngine, type EngineOptions } from '../../electron/outbox/engine.ts';
import { OrderStore } from '../../electron/orders/store.ts';
import { recordFiscalized } from '../../electron/goods/ledger.ts';
import { SalesService } from '../../electron/sales/service.ts';
import { TaxRatesCache } from '../../electron/sales/tax-rates.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { sandboxVariant } from '../../electron/sandbox/variant.ts';
import type { CheckoutInput } from '../../shared/contract/index.ts';

export interface Rig {
  dir: string;
  db: Db;
  sandbox: Sandbox;
  client: GatewayClient;
  store: OrderStore;
  engine: SyncEngine;
  sales: SalesService;
  clock: { now: number };
  /** Moves both the till's and the gateway's clock. */
  advance(ms: number): void;
  /** Runs engine passes (moving the clock past every backoff) until nothing is due or `max` passes. */
  settle(max?: number): Promise<void>;
  /** Receipts the sandbox issued, per order number. */
  ledgerCounts(): Map<string, number>;
  close(): Promise<void>;
}

export const START = Date.UTC(2026, 10, 22, 9, 0, 0);

/**
 * The till's sending side without the core: the order store, the sync engine and the sales service over one
 * database and gateway client (the rig, the fault harness and the drain bench build it alike). `now` is the
 * till's clock for the engine and the service (default Date.now); `seed` makes the engine's jitter a fixed
 * pseudo-random sequence, so that a run's backoffs repeat (default Math.random).
 */
export function tillServices(o: {
  db: Db;
  client: GatewayClient;
  taxRates: TaxRatesCache;
  terminalId: string;
  now?: () => number;
  seed?: number;
  engine?: Partial<EngineOptions>;
  onlineBudgetMs?: number;
}): { store: OrderStore; engine: SyncEngine; sales: SalesService } {
  const store = new OrderStore(o.db, { onFiscalized: recordFiscalized });
  let seq = o.seed ?? 0;
  const random = o.seed === undefined ? undefined : () => (seq = (seq * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const engine = new SyncEngine({ store, client: () => o.client, now: o.now, random, options: o.engine });
  const sales = new SalesService({
    store,
    engine,
    taxRates: o.taxRates,
    terminalId: () => o.terminalId,
    trainingMode: () => false,
    onlineBudgetMs: () => o.onlineBudgetMs ?? 0,
    now: o.now,
  });
  return { store, engine, sales };
}

export async function makeRig(
  options: {
    engine?: Partial<EngineOptions>;
    apiKey?: string;
    onlineBudgetMs?: number;
    terminalId?: string;
    /** Another rig's sandbox (a second till of the same shop); it is not closed with this rig. */
    sandbox?: Sandbox;
    /** Bulk processing time per receipt at the sandbox (its shop stays locked meanwhile). */
    bulkDelayMsPerReceipt?: number;
  } = {},
): Promise<Rig> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-rig-'));
  const clock = { now: START };
  const now = (): number => clock.now;
  // KASA_SANDBOX_VARIANT=sdk runs every suite on the rig against the SDK-shaped sandbox (npm test does both).
  const sandbox =
    options.sandbox ??
    (await startSandbox({
      port: 0,
      now,
      variant: sandboxVariant(process.env),
      ...(options.bulkDelayMsPerReceipt !== undefined ? { bulkDelayMsPerReceipt: options.bulkDelayMsPerReceipt } : {}),
    }));
  const db = openDatabase(path.join(dir, 'kasa.sqlite'));
  const client = new GatewayClient({ baseUrl: sandbox.url, apiKey: options.apiKey ?? 'demo-key', timeoutMs: 5000 });
  const taxRates = new TaxRatesCache(db, now);
  await taxRates.refresh(new GatewayClient({ baseUrl: sandbox.url, apiKey: 'demo-key' }));
  const { store, engine, sales } = tillServices({
    db,
    client,
    taxRates,
    terminalId: options.terminalId ?? 'T1',
    now,
    seed: 0,
    engine: { requestTimeoutMs: 3000, ...options.engine },
    onlineBudgetMs: options.onlineBudgetMs ?? 0,
  });
  const rig: Rig = {
    dir,
    db,
    sandbox,
    client,
    store,
    engine,
    sales,
    clock,
    advance(ms) {
      clock.now += ms;
    },
    async settle(max = 200) {
      for (let i = 0; i < max; i++) {
        await engine.runOnce();
        const next = store.nextDue();
        if (next === null) return;
        if (next > clock.now) clock.now = next;
        // While offline the engine waits for its probe time: move past it.
        if (!engine.status().online) clock.now += 60_000;
      }
    },
    ledgerCounts() {
      const counts = new Map<string, number>();
      for (const r of sandbox.controls.ledger().receipts)
        counts.set(r.orderNumber, (counts.get(r.orderNumber) ?? 0) + 1);
      return counts;
    },
    async close() {
      await engine.stop();
      if (!options.sandbox) await sandbox.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return rig;
}

/** A simple valid checkout: `n` lines at label A, paid in cash. */
export function saleInput(n = 1, price = 100, label = 'A'): CheckoutInput {
  const lines = Array.from({ length: n }, (_, i) => ({
    name: `Артикал ${i + 1}`,
    quantity: 1,
    unitPrice: price,
    labels: [label],
  }));
  return { lines, payments: [{ type: 'cash', amount: n * price }] };
}

/**
 * Makes the database forget that `orderNumber` was used (the old row is renamed), then captures a 300.00
 * cash sale under it: the next send of that number meets another sale's receipt at the gateway.
 */
export function reuseOrderNumber(db: Db, store: OrderStore, orderNumber: string, now = Date.now()): number {
  db.prepare("UPDATE orders SET order_number = order_number || '-forgotten' WHERE order_number = ?").run(orderNumber);
  const body = {
    orderNumber,
    items: [{ name: 'Скупо', quantity: 1, unitPrice: 300, totalAmount: 300, labels: ['A'] }],
    payments: [{ type: 'cash', amount: 300 }],
    settings: { returnIfOrderNumberExists: true },
  };
  return store.capture(
    () => ({
      orderNumber,
      kind: 'sale',
      invoiceType: 'normal',
      transactionType: 'sale',
      createdAt: new Date(now).toISOString(),
      totalPara: 30_000,
      changePara: 0,
      data: { lines: [], payments: [{ type: 'cash', amountPara: 30_000 }] },
      request: JSON.stringify(body),
    }),
    now,
  ).orderId;
}
