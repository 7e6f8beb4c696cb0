/**
 * Shared parts of the fault scenarios: a till slice (real SQLite file, engine, sales) whose gateway
 * client talks to a hostile HTTP server in front of the real sandbox, all on one controllable clock;
 * and the result bookkeeping (`cases, crashes, lost, duplicates` plus one table row per fault).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../../electron/db/open.ts';
import { GatewayClient } from '../../electron/gateway/client.ts';
import type { SyncEngine, EngineOptions } from '../../electron/outbox/engine.ts';
import type { OrderStore } from '../../electron/orders/store.ts';
import type { SalesService } from '../../electron/sales/service.ts';
import { TaxRatesCache } from '../../electron/sales/tax-rates.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { tillServices } from '../support/rig.ts';
import { listenOnLoopback } from '../support/ports.ts';

export interface FaultRow {
  area: string;
  fault: string;
  /** What happened, in a few words (goes into docs/reliability.md). */
  result: string;
  ok: boolean;
  /** A known limitation: shown in the table, not counted as a failure. */
  known?: boolean;
}

export interface FaultTally {
  cases: number;
  crashes: number;
  lost: number;
  duplicates: number;
  rows: FaultRow[];
}

export function newTally(): FaultTally {
  return { cases: 0, crashes: 0, lost: 0, duplicates: 0, rows: [] };
}

export function merge(into: FaultTally, from: FaultTally): FaultTally {
  into.cases += from.cases;
  into.crashes += from.crashes;
  into.lost += from.lost;
  into.duplicates += from.duplicates;
  into.rows.push(...from.rows);
  return into;
}

/** What the hostile server does with a request: pass it on, or answer it itself (after or instead of the sandbox). */
export type Hostility = (
  req: { method: string; path: string; body: Buffer },
  forward: () => Promise<Upstream>,
) => Promise<Reply | 'forward'>;
export interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** A body, or a function that writes it (drip, hang). */
  body?: string | Buffer | ((res: http.ServerResponse) => void);
}

export interface HostileGateway {
  url: string;
  /** The rule applied to every request; null = transparent proxy. */
  hostility: Hostility | null;
  close(): Promise<void>;
}

/** A tiny HTTP server in front of the sandbox that lets a test answer any request the way it likes. */
export async function startHostileGateway(upstreamUrl: string): Promise<HostileGateway> {
  const sockets = new Set<import('node:net').Socket>();
  const state: HostileGateway = { url: '', hostility: null, close: async () => undefined };
  const forwardTo = async (req: http.IncomingMessage, body: Buffer): Promise<Upstream> => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    const res = await fetch(upstreamUrl.replace(/\/$/, '') + (req.url ?? '/'), {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(body),
    });
    const out: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'content-encoding')
        out[k] = v;
    });
    return { status: res.status, headers: out, body: Buffer.from(await res.arrayBuffer()) };
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const pathOnly = (req.url ?? '/').split('?')[0] ?? '/';
      const forward = () => forwardTo(req, body);
      const rule = state.hostility;
      void (async () => {
        const decision = rule ? await rule({ method: req.method ?? 'GET', path: pathOnly, body }, forward) : 'forward';
        const reply: Reply = decision === 'forward' ? await forward() : decision;
        if (typeof reply.body === 'function') {
          res.writeHead(reply.status, reply.headers ?? {});
          reply.body(res);
          return;
        }
        const payload =
          reply.body === undefined
            ? Buffer.alloc(0)
            : Buffer.isBuffer(reply.body)
              ? reply.body
              : Buffer.from(reply.body);
        res.writeHead(reply.status, { ...(reply.headers ?? {}), 'Content-Length': String(payload.length) });
        res.end(payload);
      })().catch(() => res.destroy());
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  state.url = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return state;
}

export interface Till {
  dir: string;
  db: Db;
  sandbox: Sandbox;
  gateway: HostileGateway;
  store: OrderStore;
  engine: SyncEngine;
  sales: SalesService;
  clock: { now: number };
  /** Engine passes, moving the clock past backoffs and offline probes, until nothing is due. */
  settle(max?: number): Promise<void>;
  /** Receipts the sandbox issued per order number. */
  ledger(): Map<string, number>;
  close(): Promise<void>;
}

export const START = Date.UTC(2026, 10, 22, 9, 0, 0);

/** A till whose gateway is the hostile server in front of a fresh sandbox. */
export async function makeTill(
  options: { engine?: Partial<EngineOptions>; tillOffsetMs?: number } = {},
): Promise<Till> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-faults-'));
  const clock = { now: START };
  const sandbox = await startSandbox({ port: 0, now: () => clock.now });
  const gateway = await startHostileGateway(sandbox.url);
  const db = openDatabase(path.join(dir, 'kasa.sqlite'));
  const tillNow = (): number => clock.now + (options.tillOffsetMs ?? 0);
  const client = new GatewayClient({ baseUrl: gateway.url, apiKey: 'demo-key', timeoutMs: 2000 });
  const taxRates = new TaxRatesCache(db, tillNow);
  await taxRates.refresh(client);
  const { store, engine, sales } = tillServices({
    db,
    client,
    taxRates,
    terminalId: 'F1',
    now: tillNow,
    seed: 1,
    engine: { requestTimeoutMs: 1000, ...options.engine },
  });
  return {
    dir,
    db,
    sandbox,
    gateway,
    store,
    engine,
    sales,
    clock,
    async settle(max = 100) {
      for (let i = 0; i < max; i++) {
        await engine.runOnce();
        const next = store.nextDue();
        if (next === null) return;
        const now = tillNow();
        if (next > now) clock.now += next - now;
        if (!engine.status().online) clock.now += 60_000;
      }
    },
    ledger() {
      const m = new Map<string, number>();
      for (const r of sandbox.controls.ledger().receipts) m.set(r.orderNumber, (m.get(r.orderNumber) ?? 0) + 1);
      return m;
    },
    async close() {
      await engine.stop();
      await gateway.close();
      await sandbox.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A checkout of one line at label A, paid by card. */
export function sale(price = 100): {
  lines: { name: string; quantity: number; unitPrice: number; labels: string[] }[];
  payments: { type: 'card'; amount: number }[];
} {
  return {
    lines: [{ name: 'Хлеб', quantity: 1, unitPrice: price, labels: ['A'] }],
    payments: [{ type: 'card', amount: price }],
  };
}

/**
 * Final accounting for a till: every order fiscalized exactly once, with the invoiceNumber the gateway
 * issued for it; returns lost (not fiscalized, or fiscalized without/with a wrong invoiceNumber) and
 * duplicates (more than one receipt for an order number).
 */
export function account(till: Till, orderNumbers: readonly string[]): { lost: number; duplicates: number } {
  const ledger = till.ledger();
  const issued = new Map(till.sandbox.controls.ledger().receipts.map((r) => [r.orderNumber, r.invoiceNumber]));
  let lost = 0;
  let duplicates = 0;
  for (const n of orderNumbers) {
    const row = till.store.getByNumber(n);
    if (!row || row.state !== 'fiscalized' || !row.invoice_number || row.invoice_number !== issued.get(n)) lost++;
    const count = ledger.get(n) ?? 0;
    if (count > 1) duplicates += count - 1;
  }
  return { lost, duplicates };
}
