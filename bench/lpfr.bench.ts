/**
 * lpfr: the latency of one L-PFR signature as Kasa would ask for it during an outage: a frozen gateway body
 * mapped by toLpfrInvoice, POST /api/v3/invoices through the LpfrClient with its RequestId, answered by the
 * L-PFR sandbox (its own process, as the device is on the LAN; real state file, synchronous=FULL, so one
 * fsync per invoice) with the journal, and read back by lpfrToIssuedReceipt. p50 and p99 over BENCH_N
 * signings (default 400) after a warm-up.
 *
 * Limit: p99 250 ms. The cashier waits at most the online budget (3 s, electron/core.ts) for the receipt
 * before the sale is left queued; a real L-PFR's smart card takes a good part of that to sign (its own,
 * not measured here). What Kasa and the protocol add around the card — mapping, HTTP, validation, journal,
 * the durable write — should stay well under a tenth of the budget so the card's time is what the cashier
 * feels.
 *
 *   node bench/lpfr.bench.ts
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LpfrClient } from '../electron/lpfr/client.ts';
import { lpfrToIssuedReceipt, toLpfrInvoice } from '../electron/lpfr/map.ts';
import { benchLine, percentile } from './format.ts';

const N = Number(process.env.BENCH_N ?? 400);
const WARMUP = 20;
const LIMIT_MS = 250;
const PIN = '2468';
const HERE = path.dirname(fileURLToPath(import.meta.url));

const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'kasa-bench-lpfr-'));
const child = spawn(
  process.execPath,
  [path.join(HERE, '../test/support/lpfr-sandbox/cli.ts'), '--port', '0', '--data', dir, '--pin', PIN],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
try {
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve((JSON.parse(out) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`lpfr sandbox exited ${code}`)));
  });
  const client = new LpfrClient({ baseUrl: url });
  await client.enterPin(PIN);
  // A typical basket: five lines, one weighed, card and cash.
  const request = JSON.stringify({
    orderNumber: 'T1-20261126-0001',
    items: [
      { name: 'Хлеб бели 500г', quantity: 2, unitPrice: 69.99, totalAmount: 139.98, labels: ['A'] },
      { name: 'Млеко 2,8% 1л', quantity: 1, unitPrice: 129.99, totalAmount: 129.99, labels: ['Ж'] },
      { name: 'Сир трапист', quantity: 0.347, unitPrice: 1299, totalAmount: 450.75, labels: ['Ж'] },
      { name: 'Јабуке', quantity: 1.25, unitPrice: 89.9, totalAmount: 112.38, labels: ['F'] },
      { name: 'Кафа 200г', quantity: 1, unitPrice: 399, totalAmount: 399, labels: ['A'] },
    ],
    payments: [
      { type: 'card', amount: 1000 },
      { type: 'cash', amount: 232.1 },
    ],
    cashier: 'Мара',
  });
  const times: number[] = [];
  for (let i = 0; i < WARMUP + N; i++) {
    const t0 = process.hrtime.bigint();
    const body = toLpfrInvoice(
      { kind: 'sale', invoiceType: 'normal', transactionType: 'sale', request },
      { cashier: 'Каса' },
    );
    const result = await client.signInvoice(body, `bench-${i}`);
    const receipt = lpfrToIssuedReceipt(result, body);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (!receipt.journal) throw new Error('no journal');
    if (i >= WARMUP) times.push(ms);
  }
  process.stderr.write(
    `lpfr: ${N} signings, p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms, ` +
      `max ${Math.max(...times).toFixed(2)} ms\n`,
  );
  console.log(benchLine('lpfr-sign', 'p99', percentile(times, 99), LIMIT_MS, 'ms'));
} finally {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  fs.rmSync(dir, { recursive: true, force: true });
}
