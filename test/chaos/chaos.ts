/**
 * The chaos run: the browser host as a child process against a standalone sandbox gateway with a fault
 * plan (lost responses after commit, 500s, delays, dropped requests, offline periods). Checkouts are
 * fired while the host is killed with SIGKILL at random moments and restarted on the same data
 * directory. At the end every order in the till's database must have exactly one receipt in the
 * gateway's ledger, and every checkout the till acknowledged must be in the database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox } from '../../electron/sandbox/server.ts';
import { fireCheckouts, signInHost, startHostProcess, type HostProcess } from '../support/host-process.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { mulberry32 } from '../../electron/sandbox/faults.ts';

export interface ChaosOptions {
  kills: number;
  /** Checkouts fired per host life. */
  ordersPerLife: number;
  seed?: number;
  log?: (line: string) => void;
}

export interface ChaosResult {
  orders: number;
  acknowledged: number;
  kills: number;
  duplicates: number;
  lost: number;
  unfiscalized: number;
  seconds: number;
}

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const started = Date.now();
  const random = mulberry32(options.seed ?? 42);
  const log = options.log ?? (() => undefined);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-chaos-'));
  const sandbox = await startSandbox({ port: 0 });
  const faults = [
    { match: 'POST /receipt/', action: 'drop_after' as const, probability: 0.15 },
    { match: 'POST /receipt/', action: 'error500' as const, probability: 0.08 },
    { match: 'POST /receipt/', action: 'drop_before' as const, probability: 0.05 },
    { match: 'POST /receipt/', action: 'delay' as const, probability: 0.2, delayMs: 300 },
  ];
  sandbox.controls.setFaults(faults, { seed: options.seed ?? 42 });
  const env = {
    KASA_API_KEY: 'demo-key',
    KASA_GATEWAY_URL: sandbox.url,
    KASA_ONLINE_BUDGET_MS: '200',
    KASA_TERMINAL_ID: 'CHAOS',
  };
  const acknowledged = new Set<string>();
  let kills = 0;
  let host: HostProcess | null = null;
  try {
    for (let life = 0; life < options.kills; life++) {
      host = await startHostProcess({ dataDir, env });
      await signInHost(host, MANAGER_PIN, life === 0); // the session is the till's, per start
      sandbox.controls.setOffline(random() < 0.2);
      const h = host;
      const fire = (): Promise<void> =>
        fireCheckouts(h, { count: options.ordersPerLife, random, payment: 'card', acknowledged });
      const killAfter = 100 + Math.floor(random() * 1400);
      await Promise.race([Promise.all([fire(), fire()]), new Promise((r) => setTimeout(r, killAfter))]);
      await host.stop(true);
      kills++;
      if (kills % 10 === 0) log(`chaos: ${kills} kills, ${acknowledged.size} acknowledged`);
    }
    // Calm: no faults, online; one last host drains everything.
    sandbox.controls.setFaults([]);
    sandbox.controls.setOffline(false);
    host = await startHostProcess({ dataDir, env });
    await signInHost(host, MANAGER_PIN, options.kills === 0);
    for (let i = 0; i < 600; i++) {
      const s = await host.call<{ queued: number }>('sync.now', {});
      if (s.body.ok && s.body.value?.queued === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await host.stop();
    host = null;

    const db = new Database(path.join(dataDir, 'kasa.sqlite'), { readonly: true });
    const rows = db
      .prepare<[], { order_number: string; state: string }>('SELECT order_number, state FROM orders')
      .all();
    db.close();
    const inDb = new Set(rows.map((r) => r.order_number));
    const ledger = new Map<string, number>();
    for (const r of sandbox.controls.ledger().receipts) ledger.set(r.orderNumber, (ledger.get(r.orderNumber) ?? 0) + 1);
    let duplicates = 0;
    for (const n of ledger.values()) if (n > 1) duplicates += n - 1;
    let lost = 0;
    for (const n of acknowledged) if (!inDb.has(n) || ledger.get(n) !== 1) lost++;
    for (const r of rows) if (r.state === 'fiscalized' && ledger.get(r.order_number) !== 1) lost++;
    const unfiscalized = rows.filter((r) => r.state !== 'fiscalized').length;
    return {
      orders: rows.length,
      acknowledged: acknowledged.size,
      kills,
      duplicates,
      lost,
      unfiscalized,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await host?.stop(true);
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
