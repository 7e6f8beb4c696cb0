/**
 * Power cut. The browser host runs as a child process (the writer) against a separate sandbox gateway
 * while two loops ring up sales over HTTP. At random moments the writer is frozen (SIGSTOP), its
 * kasa.sqlite, -wal and -shm are copied as they are, and it runs on (SIGCONT); at the end it is killed
 * with SIGKILL mid-workload and copied once more. Every copy must open, pass `PRAGMA integrity_check`,
 * and hold every order whose checkout was acknowledged before the copy was taken.
 *
 * The freeze makes each copy one instant of the files (what a power cut leaves, given synchronous=FULL:
 * an acknowledged commit is already fsynced to the WAL). Copying a running writer's three files one
 * after another would mix instants, which no power cut can produce.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox } from '../../electron/sandbox/server.ts';
import { signInHost, startHostProcess } from '../support/host-process.ts';
import { newTally, sale, type FaultTally } from './harness.ts';
import { mulberry32 } from '../../electron/sandbox/faults.ts';

const FILES = ['kasa.sqlite', 'kasa.sqlite-wal', 'kasa.sqlite-shm'];

function snapshot(dataDir: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const f of FILES) {
    const from = path.join(dataDir, f);
    if (fs.existsSync(from)) fs.copyFileSync(from, path.join(to, f));
  }
}

/** Opens a copy (WAL recovery runs), checks it, and returns the problems found. */
function verify(
  copyDir: string,
  mustHave: ReadonlySet<string>,
): { problems: string[]; orders: number; missing: number } {
  const problems: string[] = [];
  let db: Database.Database | null = null;
  try {
    db = new Database(path.join(copyDir, 'kasa.sqlite'));
    const check = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') problems.push(`integrity_check: ${String(check)}`);
    const fk = db.pragma('foreign_key_check') as unknown[];
    if (fk.length) problems.push(`${fk.length} foreign key violation(s)`);
    const numbers = new Set(
      db
        .prepare<[], { order_number: string }>('SELECT order_number FROM orders')
        .all()
        .map((r) => r.order_number),
    );
    let missing = 0;
    for (const n of mustHave) if (!numbers.has(n)) missing++;
    if (missing) problems.push(`${missing} acknowledged order(s) missing`);
    const orphans = db
      .prepare(
        "SELECT count(*) AS n FROM orders o LEFT JOIN outbox b ON b.order_id = o.id WHERE o.state = 'queued' AND b.order_id IS NULL",
      )
      .get() as { n: number };
    if (orphans.n) problems.push(`${orphans.n} queued order(s) without an outbox row`);
    return { problems, orders: numbers.size, missing };
  } catch (err) {
    problems.push(`does not open: ${err instanceof Error ? err.message : String(err)}`);
    return { problems, orders: 0, missing: mustHave.size };
  } finally {
    db?.close();
  }
}

export async function runPowerCuts(
  options: { snapshots?: number; seed?: number; log?: (line: string) => void } = {},
): Promise<FaultTally> {
  const tally = newTally();
  const log = options.log ?? (() => undefined);
  const random = mulberry32(options.seed ?? 7);
  const count = options.snapshots ?? 6;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-power-'));
  const dataDir = path.join(root, 'data');
  const sandbox = await startSandbox({ port: 0 });
  // Some replies are slow or lost, so copies also catch orders mid-sync and attempts left open.
  sandbox.controls.setFaults(
    [
      { match: 'POST /receipt/', action: 'drop_after', probability: 0.1 },
      { match: 'POST /receipt/', action: 'delay', probability: 0.2, delayMs: 100 },
    ],
    { seed: options.seed ?? 7 },
  );
  const host = await startHostProcess({
    dataDir,
    env: {
      KASA_API_KEY: 'demo-key',
      KASA_GATEWAY_URL: sandbox.url,
      KASA_ONLINE_BUDGET_MS: '100',
      KASA_TERMINAL_ID: 'POWER',
    },
  });
  await signInHost(host);
  const acknowledged = new Set<string>();
  let stop = false;
  const fire = async (): Promise<void> => {
    while (!stop) {
      try {
        const r = await host.call<{ orderNumber: string }>(
          'sales.checkout',
          sale(1 + Math.floor(random() * 9000) / 100),
        );
        if (r.body.ok && r.body.value) acknowledged.add(r.body.value.orderNumber);
      } catch {
        return; // killed under us
      }
    }
  };
  const loops = [fire(), fire()];
  const check = (label: string, copyDir: string, mustHave: ReadonlySet<string>): void => {
    tally.cases++;
    const v = verify(copyDir, mustHave);
    tally.lost += v.missing;
    const ok = v.problems.length === 0;
    log(
      `${ok ? 'ok  ' : 'FAIL'} power: ${label}: ${ok ? `opens, integrity ok, ${mustHave.size} acknowledged of ${v.orders} orders present` : v.problems.join('; ')}`,
    );
    if (!ok) tally.rows.push({ area: 'power cut', fault: label, result: v.problems.join('; '), ok: false });
  };
  try {
    const pid = host.child.pid as number;
    for (let i = 0; i < count; i++) {
      await new Promise((r) => setTimeout(r, 40 + Math.floor(random() * 250)));
      process.kill(pid, 'SIGSTOP');
      const mustHave = new Set(acknowledged);
      const to = path.join(root, `copy-${i}`);
      try {
        snapshot(dataDir, to);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      check(`copy ${i + 1} of a running writer`, to, mustHave);
    }
    await new Promise((r) => setTimeout(r, 50 + Math.floor(random() * 200)));
    const mustHave = new Set(acknowledged);
    await host.stop(true);
    stop = true;
    await Promise.all(loops);
    const to = path.join(root, 'copy-killed');
    snapshot(dataDir, to);
    check('copy after kill -9 of the writer', to, mustHave);
    tally.rows.unshift({
      area: 'power cut',
      fault: `${count} copies of kasa.sqlite+wal+shm at random moments (writer frozen), then kill -9`,
      result:
        tally.lost === 0 && tally.rows.length === 0
          ? `every copy opens, integrity_check ok, all ${mustHave.size} acknowledged orders present`
          : `${tally.lost} acknowledged order(s) missing`,
      ok: tally.lost === 0 && tally.rows.length === 0,
    });
  } catch (err) {
    tally.crashes++;
    tally.rows.push({
      area: 'power cut',
      fault: 'power run',
      result: `crash: ${err instanceof Error ? err.message : String(err)}`,
      ok: false,
    });
  } finally {
    stop = true;
    await host.stop(true);
    await sandbox.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
  return tally;
}
