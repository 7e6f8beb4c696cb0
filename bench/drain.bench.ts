/**
 * drain: 10,000 queued orders fiscalized after an outage, the sandbox answering every request after 100 ms. Two
 * runs side by side, the same engine:
 *
 * - `drain`: the sandbox as it was when the drain was built, a bulk answered after the latency alone. Limits: the
 *   bulk-only floor (10,000 / 30 requests × 100 ms = 33.4 s) and one-at-a-time sequential sending (1,000 s).
 * - `drain-processing`: the sandbox as it is now (since 2026-11-23): a bulk also takes 5 ms per receipt of
 *   processing, during which the shop's bulk lock is held (spec rule 8: one bulk per shop at a time, 429
 *   otherwise). Its bulk-only floor is 10,000 / 30 × (100 ms + 30 × 5 ms) = 83.4 s; the single lanes beside
 *   the bulk lane are what bring a drain under it.
 *
 * Measured for issue 37 §7: the drain's 66 s against 33.4 s (ratio 1.97) was the sandbox's processing time, not
 * the engine's: Kasa's process is idle about 80 % of a drain (a CPU profile of 3,000 orders: 16.2 s idle of
 * 20.6 s), and with bulks answered after the latency alone the same engine drains at the old floor's pace.
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
/** The sandbox's default bulk processing time per receipt (electron/sandbox/server.ts `bulkDelayMsPerReceipt`). */
const PROCESSING = 5;

async function drain(bulkDelayMsPerReceipt: number): Promise<{ seconds: number; requests: Record<string, number> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-drain-'));
  const sandbox = await startSandbox({ port: 0, bulkDelayMsPerReceipt });
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
    const build = db.transaction(() => inputs.map((input) => sales.checkout(input)));
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
    db.close();
    return { seconds, requests: sandbox.controls.stats().requests };
  } finally {
    await sandbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const bulks = (r: Record<string, number>) => r['POST /receipt/{invoiceType}/{transactionType}/bulk'] ?? 0;
const singles = (r: Record<string, number>) => r['POST /receipt/{invoiceType}/{transactionType}'] ?? 0;

const plain = await drain(0);
process.stderr.write(
  `drain: ${N} orders, ${bulks(plain.requests)} bulks + ${singles(plain.requests)} singles, ${plain.seconds.toFixed(1)} s\n`,
);
const processing = await drain(PROCESSING);
process.stderr.write(
  `drain-processing: ${N} orders, ${bulks(processing.requests)} bulks + ${singles(processing.requests)} singles, ` +
    `${processing.seconds.toFixed(1)} s\n`,
);
const batches = Math.ceil(N / 30);
console.log(benchLine('drain', 'seconds', plain.seconds, (batches * LATENCY) / 1000, 's'));
console.log(benchLine('drain', 'vs_sequential', plain.seconds, (N * LATENCY) / 1000, 's'));
console.log(
  benchLine('drain-processing', 'seconds', processing.seconds, (batches * (LATENCY + 30 * PROCESSING)) / 1000, 's'),
);
