/**
 * The chaos run: the browser host as a child process against a standalone sandbox gateway with a fault
 * plan (lost responses after commit, 500s, delays, dropped requests, offline periods). Checkouts are
 * fired while the host is killed with SIGKILL at random moments and restarted on the same data
 * directory. At the end every order in the till's database must have exactly one receipt in the
 * gateway's ledger, and every checkout the till acknowledged must be in the database.
 *
 * With `lpfr`, the shop also has an L-PFR (its sandbox, durable on disk) that is up, down (refusing
 * connections), without its card, or faulty (replies lost after signing, 500s, delays) from one life to the
 * next, while the gateway is offline more often. The truth is then both ledgers together: every order is
 * signed exactly once across the gateway's ledger and the L-PFR's journal, and by the processor the till
 * recorded.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox } from '../../electron/sandbox/server.ts';
import { fireCheckouts, signInHost, startHostProcess, type HostProcess } from '../support/host-process.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { mulberry32 } from '../../electron/sandbox/faults.ts';
import { startLpfrSandbox, type LpfrFaultRule, type LpfrSandbox } from '../support/lpfr-sandbox/server.ts';

export interface ChaosOptions {
  kills: number;
  /** Checkouts fired per host life. */
  ordersPerLife: number;
  seed?: number;
  log?: (line: string) => void;
  /** The shop has an L-PFR too (up, down, card out or faulty at random). */
  lpfr?: boolean;
  /** The L-PFR remembers only its last `keep` RequestIds, as real devices do (ML: 1, OFS: 100); default all. */
  keep?: number;
}

export interface ChaosResult {
  orders: number;
  acknowledged: number;
  kills: number;
  duplicates: number;
  lost: number;
  unfiscalized: number;
  seconds: number;
  /** With an L-PFR: orders it signed, and orders whose recorded processor is not the ledger they are in. */
  signedByLpfr?: number;
  wrongProcessor?: number;
}

const LPFR_PIN = '4821';

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
  const lpfrDir = options.lpfr ? fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-chaos-lpfr-')) : null;
  const lpfr: LpfrSandbox | null = lpfrDir
    ? await startLpfrSandbox({
        dataDir: lpfrDir,
        pin: LPFR_PIN,
        ...(options.keep !== undefined ? { keepRequests: options.keep } : {}),
      })
    : null;
  const env: Record<string, string> = {
    KASA_API_KEY: 'demo-key',
    KASA_GATEWAY_URL: sandbox.url,
    KASA_ONLINE_BUDGET_MS: '200',
    KASA_TERMINAL_ID: 'CHAOS',
    ...(lpfr ? { KASA_LPFR_URL: lpfr.url, KASA_LPFR_PIN: LPFR_PIN } : {}),
  };
  const lpfrFaults: LpfrFaultRule[] = [
    { match: 'POST /api/v3/invoices', action: 'drop_after', times: 2 },
    { match: 'POST /api/v3/invoices', action: 'drop_before', times: 1 },
    { match: 'POST /api/v3/invoices', action: 'error500', times: 1 },
    { match: 'GET /api/v3/invoices/', action: 'drop_before', times: 1 },
  ];
  const acknowledged = new Set<string>();
  let kills = 0;
  let host: HostProcess | null = null;
  try {
    for (let life = 0; life < options.kills; life++) {
      host = await startHostProcess({ dataDir, env });
      await signInHost(host, MANAGER_PIN, life === 0); // the session is the till's, per start
      sandbox.controls.setOffline(random() < (lpfr ? 0.5 : 0.2));
      const killAfter = 100 + Math.floor(random() * 1400);
      if (lpfr) {
        // This life's L-PFR: up, down, without its card, or faulty.
        const roll = random();
        lpfr.controls.setCard(!(roll >= 0.55 && roll < 0.7));
        lpfr.controls.setFaults(roll >= 0.7 && roll < 0.9 ? lpfrFaults : []);
        if (roll >= 0.9) void lpfr.controls.refuseConnections(killAfter + 500);
      }
      const h = host;
      const fire = (): Promise<void> =>
        fireCheckouts(h, { count: options.ordersPerLife, random, payment: 'card', acknowledged });
      await Promise.race([Promise.all([fire(), fire()]), new Promise((r) => setTimeout(r, killAfter))]);
      await host.stop(true);
      kills++;
      if (kills % 10 === 0) log(`chaos: ${kills} kills, ${acknowledged.size} acknowledged`);
    }
    // Calm: no faults, online; one last host drains everything.
    sandbox.controls.setFaults([]);
    sandbox.controls.setOffline(false);
    // The L-PFR up too: orders whose L-PFR outcome is unknown are looked up there, never sent elsewhere.
    lpfr?.controls.setFaults([]);
    lpfr?.controls.setCard(true);
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
      .prepare<[], { order_number: string; state: string; processor: string | null }>(
        'SELECT order_number, state, processor FROM orders',
      )
      .all();
    db.close();
    const inDb = new Set(rows.map((r) => r.order_number));
    // Both processors' ledgers together: an order signed by each would count twice.
    const ledger = new Map<string, number>();
    for (const r of sandbox.controls.ledger().receipts) ledger.set(r.orderNumber, (ledger.get(r.orderNumber) ?? 0) + 1);
    const byLpfr = new Set<string>();
    for (const e of lpfr?.controls.ledger().invoices ?? []) {
      const n = e.requestId ?? '';
      byLpfr.add(n);
      ledger.set(n, (ledger.get(n) ?? 0) + 1);
    }
    const wrongProcessor = rows.filter(
      (r) => r.state === 'fiscalized' && (r.processor === 'lpfr') !== byLpfr.has(r.order_number),
    ).length;
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
      ...(lpfr ? { signedByLpfr: byLpfr.size, wrongProcessor } : {}),
    };
  } finally {
    await host?.stop(true);
    await sandbox.close();
    await lpfr?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (lpfrDir) fs.rmSync(lpfrDir, { recursive: true, force: true });
  }
}
