/**
 * drain: 10,000 queued orders fiscalized after an outage, the sandbox answering every request after
 * 100 ms. Limits: the bulk-only floor (10,000 / 30 requests x 100 ms = 33.4 s) and one-at-a-time
 * sequential sending (10,000 x 100 ms = 1,000 s).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../electron/db/open.ts';
import { GatewayClient } from '../electron/gateway/client.ts';
import { TaxRatesCache } from '../electron/sales/tax-rates.ts';
import { startSandbox } from '../electron/sandbox/server.ts';
import { tillServices } from '../test/support/rig.ts';
import { benchLine } from './format.ts';

const N = Number(process.env.BENCH_DRAIN_N ?? 10_000);
const LATENCY = 100;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-drain-'));
const sandbox = await startSandbox({ port: 0 });
try {
  const db = openDatabase(path.join(dir, 'kasa.sqlite'));
  const client = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'demo-key', timeoutMs: 60_000 });
  const taxRates = new TaxRatesCache(db);
  await taxRates.refresh(client);
  const { store, engine, sales } = tillServices({ db, client, taxRates, terminalId: 'DRAIN' });
  // The backlog, captured while offline (in one transaction to build it quickly).
  sandbox.controls.setOffline(true);
  const inputs = Array.from({ length: N }, (_, i) => ({
    lines: [{ name: 'Хлеб', quantity: 1, unitPrice: 50 + (i % 100), labels: ['A'] }],
    payments: [{ type: 'cash' as const, amount: 50 + (i % 100) }],
  }));
  const build = db.transaction(() => {
    const promises = inputs.map((input) => sales.checkout(input));
    return promises;
  });
  await Promise.all(build());
  sandbox.controls.setOffline(false);
  sandbox.controls.setLatency(LATENCY);
  const t0 = Date.now();
  engine.start();
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    if (store.counts().queued === 0) break;
  }
  const seconds = (Date.now() - t0) / 1000;
  await engine.stop();
  const ledger = sandbox.controls.ledger().receipts.length;
  if (ledger !== N) throw new Error(`ledger has ${ledger} receipts for ${N} orders`);
  const requests = sandbox.controls.stats().total;
  process.stderr.write(`drain: ${N} orders, ${requests} requests, ${seconds.toFixed(1)} s\n`);
  db.close();
  const bulkFloor = (Math.ceil(N / 30) * LATENCY) / 1000;
  const sequential = (N * LATENCY) / 1000;
  console.log(benchLine('drain', 'seconds', seconds, bulkFloor, 's'));
  console.log(benchLine('drain', 'vs_sequential', seconds, sequential, 's'));
} finally {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
