/**
 * Contract fuzzing through the browser host over real HTTP: the real core (demo mode, embedded sandbox
 * gateway over HTTP) on a real SQLite file, every command of `COMMAND_NAMES` (so a new command is fuzzed
 * the day it is added), with arbitrary JSON, schema-shaped values and near-valid values (one thing wrong).
 *
 * For every case: no connection failure, no 5xx other than 503 (`unavailable` is a legitimate answer),
 * a JSON `Result` body; a 400 is `invalid_input` naming a field that is in the input (or the missing
 * field's parent is, or the input is not an object and the field is `(input)`); and a rejected command
 * leaves every table of the database exactly as it was (digest before/after). At the end every order an
 * accepted command acknowledged is in the database, nothing is fiscalized without an invoiceNumber, and
 * the gateway issued at most one receipt per order number.
 *
 * Used by `npm run fuzz -- --runs N` (scripts/fuzz.ts) and, with a small N, by fuzz.test.ts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { COMMAND_NAMES, commands, type CommandName } from '../../shared/contract/index.ts';
import { createCore, type Core } from '../../electron/core.ts';
import { startHost, type Host } from '../../electron/host/server.ts';
import { createLogger } from '../../electron/log/logger.ts';
import { get, hostileJson, nearValid, toJsonSchema, validish } from './schema-arb.ts';
import { MANAGER_PIN, signIn } from '../support/session.ts';

export interface FuzzOptions {
  runs: number;
  seed?: number;
  /** Fuzz only these commands (default: all of COMMAND_NAMES). */
  only?: readonly string[];
  log?: (line: string) => void;
}

export interface FuzzFailure {
  command: string;
  kind: CaseKind;
  status: number | null;
  problem: string;
  input: string;
}

export interface FuzzResult {
  cases: number;
  crashes: number;
  lost: number;
  duplicates: number;
  accepted: number;
  rejected: number;
  /** Rejections after which the database digest was compared. */
  digestChecks: number;
  statuses: Record<string, number>;
  commands: number;
  failures: FuzzFailure[];
  seconds: number;
}

type CaseKind = 'json' | 'shape' | 'near';
interface Case {
  command: CommandName;
  kind: CaseKind;
  input: unknown;
}

const TOKEN = 'fuzz-token-0123456789abcdef';

/** The cases: round-robin over the commands so that a short run still touches every one. */
export function fuzzCases(runs: number, seed: number, only?: readonly string[]): Case[] {
  const names = COMMAND_NAMES.filter((n) => !only || only.includes(n));
  const per = Math.ceil(runs / Math.max(1, names.length));
  const byCommand = names.map((command, i) => {
    const schema = toJsonSchema(commands[command].input);
    const arb = fc.oneof(
      { weight: 1, arbitrary: hostileJson().map((input) => ({ kind: 'json' as const, input })) },
      { weight: 1, arbitrary: validish(schema).map((input) => ({ kind: 'shape' as const, input })) },
      { weight: 3, arbitrary: nearValid(schema).map((n) => ({ kind: 'near' as const, input: n.value })) },
    );
    return fc.sample(arb, { numRuns: per, seed: seed + i * 7919 }).map((c) => ({ command, ...c }));
  });
  const out: Case[] = [];
  for (let k = 0; k < per && out.length < runs; k++) {
    for (const list of byCommand) {
      const c = list[k];
      if (c && out.length < runs) out.push(c);
    }
  }
  return out;
}

/** A digest of every table (rows in rowid order), and per table, to say what changed. */
export function tableDigests(db: Core['db']): Map<string, string> {
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all();
  const out = new Map<string, string>();
  for (const { name } of tables) {
    const h = crypto.createHash('sha256');
    for (const row of db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`).iterate()) {
      h.update(JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
      h.update('\n');
    }
    out.set(name, h.digest('hex'));
  }
  return out;
}

/**
 * `tableDigests`, read again only when the database may have changed since the last reading: SQLite counts every
 * row this connection inserted, updated or deleted (triggers' too: `total_changes()`), every commit of another
 * connection (`data_version`) and every schema change (`schema_version`). While the three stand still the tables
 * are as they were, so the last digest is theirs. Half of the fuzz run's CPU was these digests, read twice per case.
 */
export function digestsWhileUnchanged(db: Core['db']): () => Map<string, string> {
  const counters = db.prepare<[], { changes: number; data: number; schema: number }>(
    'SELECT total_changes() AS changes, d.data_version AS data, s.schema_version AS schema FROM pragma_data_version d, pragma_schema_version s',
  );
  let last: { at: string; digests: Map<string, string> } | null = null;
  return () => {
    const at = JSON.stringify(counters.get());
    if (last?.at !== at) last = { at, digests: tableDigests(db) };
    return last.digests;
  };
}

function changedTables(a: Map<string, string>, b: Map<string, string>): string[] {
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((n) => a.get(n) !== b.get(n));
}

/** Splits a field path back into keys: `a.0."".b` -> ['a', 0, '', 'b'] (quoted keys as JSON strings). */
export function splitField(field: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /("(?:[^"\\]|\\.)*"|[^.]+)(?:\.|$)/y;
  let m: RegExpExecArray | null;
  while (re.lastIndex < field.length && (m = re.exec(field))) {
    const seg = m[1] as string;
    out.push(seg.startsWith('"') ? (JSON.parse(seg) as string) : /^\d+$/.test(seg) ? Number(seg) : seg);
  }
  return out;
}

/**
 * Does a 400's `field` point into the input: the key is there (a wrong value, or an unknown key), or
 * its parent object is there (a missing key)? `(input)` only when the input is not an object at all.
 * A null body is read as `{}` by the dispatcher.
 */
export function fieldRelates(rawInput: unknown, field: string): boolean {
  const input = rawInput ?? {};
  if (field === '(input)') return typeof input !== 'object' || Array.isArray(input);
  const parts = splitField(field);
  if (parts.length === 0) return false;
  if (get(input, parts) !== undefined) return true;
  const parent = get(input, parts.slice(0, -1));
  return parent !== null && typeof parent === 'object';
}

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 300 ? `${s.slice(0, 300)}…(${s.length})` : s;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const started = Date.now();
  const seed = options.seed ?? 424242;
  const log = options.log ?? (() => undefined);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-fuzz-'));
  const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-fuzz-static-'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Kasa</title>');
  // The printer is a file in the data dir (the environment wins over a fuzzed printer.configure), so
  // auto-printed receipts finish at once and nothing is written anywhere else on this machine.
  const env = {
    KASA_LANG: 'en',
    KASA_ONLINE_BUDGET_MS: '3000',
    KASA_TERMINAL_ID: 'FUZZ',
    KASA_PRINTER: `file://${path.join(dataDir, 'printer.bin')}`,
  };
  const core = await createCore({ dataDir, env, transport: 'host', logger: createLogger({ echo: false }) });
  // A till in use: the first-run PIN changed and a manager logged in, so the fuzz reaches the
  // handlers; every other object case carries a manager's approval beside its input.
  await signIn(core);
  let host: Host | null = null;
  const result: FuzzResult = {
    cases: 0,
    crashes: 0,
    lost: 0,
    duplicates: 0,
    accepted: 0,
    rejected: 0,
    digestChecks: 0,
    statuses: {},
    commands: 0,
    failures: [],
    seconds: 0,
  };
  const fail = (c: Case, status: number | null, problem: string): void => {
    result.failures.push({ command: c.command, kind: c.kind, status, problem, input: short(c.input) });
    log(`FAIL ${c.command} [${c.kind}] ${status ?? '-'}: ${problem} input=${short(c.input)}`);
  };
  try {
    host = await startHost({ core, token: TOKEN, staticDir });
    const url = host.url;
    const post = async (command: string, body: string): Promise<{ status: number; text: string }> => {
      const res = await fetch(new URL(`api/${encodeURIComponent(command)}`, url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
        body,
      });
      return { status: res.status, text: await res.text() };
    };
    /** Waits (bounded) until no background work is pending: receipts printed, nothing due to send. */
    const quiesce = async (): Promise<void> => {
      // Parked carts are mirrored to gateway drafts in the background; parked.list waits for that sync.
      await core.dispatch('parked.list', {});
      for (let i = 0; i < 400; i++) {
        const p = (await core.dispatch('print.status', {})) as { ok: boolean; value?: { queued: number } };
        const s = (await core.dispatch('sync.status', {})) as {
          ok: boolean;
          value?: { queued: number; online: boolean; paused: string | null };
        };
        const printIdle = !p.ok || (p.value?.queued ?? 0) === 0;
        const syncIdle = !s.ok || (s.value?.queued ?? 0) === 0 || !s.value?.online || s.value.paused !== null;
        if (printIdle && syncIdle) return;
        await new Promise((r) => setTimeout(r, 10));
      }
    };

    const cases = fuzzCases(options.runs, seed, options.only);
    result.commands = new Set(cases.map((c) => c.command)).size;
    const acknowledged = new Set<string>();
    const digests = digestsWhileUnchanged(core.db);
    let dirty = true;
    let relogin = false;
    for (const c of cases) {
      result.cases++;
      if (dirty) await quiesce();
      // A fuzzed logout, login or staff change may have ended the manager's session: log in again.
      if (relogin) await core.dispatch('staff.login', { pin: MANAGER_PIN });
      relogin = c.command.startsWith('staff.');
      const before = digests();
      let status: number | null = null;
      let body: { ok?: unknown; value?: unknown; error?: { code?: unknown; field?: unknown } };
      const approve =
        result.cases % 2 === 0 && c.input !== null && typeof c.input === 'object' && !Array.isArray(c.input);
      const sent: unknown = approve ? { ...(c.input as object), approval: { managerPin: MANAGER_PIN } } : c.input;
      try {
        const res = await post(c.command, JSON.stringify(sent));
        status = res.status;
        body = JSON.parse(res.text) as typeof body;
      } catch (err) {
        result.crashes++;
        fail(c, status, `no JSON answer: ${err instanceof Error ? err.message : String(err)}`);
        continue;
      }
      result.statuses[String(status)] = (result.statuses[String(status)] ?? 0) + 1;
      if (status >= 500 && status !== 503) {
        result.crashes++;
        fail(c, status, `server error ${JSON.stringify(body.error)}`);
        dirty = true;
        continue;
      }
      if (body.ok === true) {
        result.accepted++;
        dirty = true;
        const v = body.value as { orderNumber?: unknown } | null;
        if (v && typeof v === 'object' && typeof v.orderNumber === 'string') acknowledged.add(v.orderNumber);
        continue;
      }
      if (body.ok !== false || !body.error) {
        result.crashes++;
        fail(c, status, `not a Result: ${short(body)}`);
        continue;
      }
      result.rejected++;
      if (status === 400) {
        const field = body.error.field;
        if (body.error.code !== 'invalid_input' || typeof field !== 'string' || field === '') {
          fail(c, status, `400 without a field: ${short(body.error)}`);
        } else if (!fieldRelates(sent, field)) {
          fail(c, status, `field "${field}" is not in the input`);
        }
      }
      const after = digests();
      result.digestChecks++;
      // A refused PIN or command is audited (forbidden), and every PIN tried is counted before its compare
      // (auth_attempts): the only writes a rejection may make.
      const changed = changedTables(before, after).filter(
        (t) => t !== 'auth_attempts' && !(status === 403 && t === 'audit_log'),
      );
      if (changed.length) fail(c, status, `rejected (${String(body.error.code)}) but changed: ${changed.join(', ')}`);
    }

    // Liveness, loss and duplicates.
    const alive = await post('app.info', '{}').catch(() => ({ status: 0, text: '' }));
    if (alive.status !== 200) {
      result.crashes++;
      log(`FAIL host not answering after the run: ${alive.status}`);
    }
    await quiesce();
    const rows = core.db
      .prepare<[], { order_number: string; state: string; invoice_number: string | null }>(
        'SELECT order_number, state, invoice_number FROM orders',
      )
      .all();
    const inDb = new Set(rows.map((r) => r.order_number));
    for (const n of acknowledged) if (!inDb.has(n)) result.lost++;
    for (const r of rows) if (r.state === 'fiscalized' && !r.invoice_number) result.lost++;
    if (core.sandboxUrl) {
      const ledger = (await (await fetch(`${core.sandboxUrl.replace(/\/$/, '')}/__sandbox/ledger`)).json()) as {
        receipts: { orderNumber: string }[];
      };
      const counts = new Map<string, number>();
      for (const r of ledger.receipts) counts.set(r.orderNumber, (counts.get(r.orderNumber) ?? 0) + 1);
      for (const n of counts.values()) if (n > 1) result.duplicates += n - 1;
    }
    const invoices = new Map<string, number>();
    for (const r of rows)
      if (r.invoice_number) invoices.set(r.invoice_number, (invoices.get(r.invoice_number) ?? 0) + 1);
    for (const n of invoices.values()) if (n > 1) result.duplicates += n - 1;
  } finally {
    await host?.close();
    await core.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(staticDir, { recursive: true, force: true });
    result.seconds = (Date.now() - started) / 1000;
  }
  return result;
}

export function summaryLine(r: { cases: number; crashes: number; lost: number; duplicates: number }): string {
  return `cases=${r.cases} crashes=${r.crashes} lost=${r.lost} duplicates=${r.duplicates}`;
}
