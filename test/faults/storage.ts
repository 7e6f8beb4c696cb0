/**
 * Disk full and a read-only database under the real core (createCore; gateway = a separate sandbox, as
 * the cloud would be). The data directory is a small tmpfs when this process may mount one (root on
 * Linux): the disk really fills (ENOSPC -> SQLITE_FULL). Elsewhere it falls back to SQLite's
 * `PRAGMA max_page_count` on the core's connection. Read-only is `PRAGMA query_only` on the connection
 * (remounting the filesystem of an open database read-only is refused as busy).
 *
 * Checked: a checkout either answers saved (and the order is really there, and gets fiscalized) or
 * answers `storage` with a message and saves nothing; the sync engine survives a disk that will not take
 * the receipt it just got (the order stays queued, is fiscalized once later); orders saved before are
 * intact (integrity_check, same invoiceNumbers); everything works again when space returns.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore, type Core } from '../../electron/core.ts';
import { signIn } from '../support/session.ts';
import { createLogger } from '../../electron/log/logger.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { newTally, sale, type FaultRow, type FaultTally } from './harness.ts';

type Space = { mode: 'tmpfs' | 'max_page_count'; fill(): void; free(): void; cleanup(): void };

function tryMount(dir: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Fills the disk (tmpfs) or caps the database at its current size (fallback). */
function makeSpace(dataDir: string, core: () => Core, mounted: boolean): Space {
  const filler = path.join(dataDir, 'filler.bin');
  if (mounted) {
    return {
      mode: 'tmpfs',
      fill() {
        const chunk = Buffer.alloc(64 * 1024, 0x5a);
        const fd = fs.openSync(filler, 'a');
        try {
          for (;;) fs.writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        } finally {
          fs.closeSync(fd);
        }
        // Squeeze out the last partial chunk too.
        try {
          for (;;) fs.appendFileSync(filler, Buffer.alloc(512));
        } catch {
          // full
        }
      },
      free() {
        fs.rmSync(filler, { force: true });
      },
      cleanup() {
        try {
          execFileSync('umount', ['-l', dataDir], { stdio: 'ignore' });
        } catch {
          // already gone
        }
      },
    };
  }
  return {
    mode: 'max_page_count',
    fill() {
      const db = core().db;
      db.pragma('wal_checkpoint(TRUNCATE)');
      const pages = db.pragma('page_count', { simple: true }) as number;
      db.pragma(`max_page_count = ${pages}`);
    },
    free() {
      core().db.pragma('max_page_count = 1073741823');
    },
    cleanup() {},
  };
}

interface Checkout {
  ok: boolean;
  orderNumber?: string;
  code?: string;
  message?: string;
}

async function checkout(core: Core, price: number): Promise<Checkout> {
  const r = await core.dispatch('sales.checkout', sale(price));
  if (r.ok) return { ok: true, orderNumber: (r.value as { orderNumber: string }).orderNumber };
  return { ok: false, code: r.error.code, message: r.error.message };
}

function orderCount(core: Core): number {
  return (core.db.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n;
}

async function drain(core: Core): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const s = await core.dispatch('sync.now', {});
    if (s.ok && (s.value as { queued: number }).queued === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function runStorageFaults(
  log: (line: string) => void = () => undefined,
  options: { mount?: boolean } = {},
): Promise<FaultTally> {
  const tally = newTally();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-storage-'));
  const dataDir = path.join(root, 'data');
  fs.mkdirSync(dataDir);
  const mounted = options.mount !== false && tryMount(dataDir);
  let sandbox: Sandbox | null = null;
  let core: Core | null = null;
  const space = makeSpace(dataDir, () => core as Core, mounted);
  const row = (fault: string, problems: string[], good: string): void => {
    const r: FaultRow = {
      area: 'storage',
      fault: `${fault} (${space.mode})`,
      result: problems.length ? problems.join('; ') : good,
      ok: problems.length === 0,
    };
    tally.rows.push(r);
    log(`${r.ok ? 'ok  ' : 'FAIL'} storage: ${r.fault}: ${r.result}`);
  };
  /** One case: counted, given a list to note its problems in, and rowed; `run` answers what a pass reads like. */
  const faultCase = async (name: string, run: (problems: string[]) => Promise<string>): Promise<void> => {
    tally.cases++;
    const problems: string[] = [];
    row(name, problems, await run(problems));
  };
  try {
    sandbox = await startSandbox({ port: 0 });
    core = await createCore({
      dataDir,
      transport: 'host',
      env: {
        KASA_API_KEY: 'demo-key',
        KASA_GATEWAY_URL: sandbox.url,
        KASA_LANG: 'en',
        KASA_ONLINE_BUDGET_MS: '3000',
        KASA_TERMINAL_ID: 'DISK',
      },
      logger: createLogger({ echo: false }),
    });
    await signIn(core);
    const c = core;
    const { controls } = sandbox;
    const acknowledged: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await checkout(c, 50 + i);
      if (r.orderNumber) acknowledged.push(r.orderNumber);
    }
    const before = c.db
      .prepare("SELECT order_number, invoice_number FROM orders WHERE state = 'fiscalized' ORDER BY id")
      .all();

    // 1. Disk full at checkout.
    await faultCase('disk full at checkout', async (problems) => {
      space.fill();
      let refused: Checkout | null = null;
      for (let i = 0; i < 400 && !refused; i++) {
        const n = orderCount(c);
        const r = await checkout(c, 10 + i);
        if (r.ok && r.orderNumber) acknowledged.push(r.orderNumber);
        else {
          refused = r;
          if (r.code !== 'storage')
            problems.push(`refused with ${r.code ?? '?'} instead of storage: ${r.message ?? ''}`);
          if (!r.message) problems.push('no message for the cashier');
          if (orderCount(c) !== n) problems.push('a refused checkout left an order behind');
        }
      }
      if (!refused) problems.push('the disk never refused a checkout');
      const check = c.db.pragma('integrity_check', { simple: true });
      if (check !== 'ok') problems.push(`integrity_check: ${String(check)}`);
      const still = c.db
        .prepare("SELECT order_number, invoice_number FROM orders WHERE state = 'fiscalized' ORDER BY id LIMIT ?")
        .all(before.length);
      if (JSON.stringify(still) !== JSON.stringify(before)) problems.push('orders saved before changed');
      return `refused with code storage ("${refused?.message ?? ''}"), saved orders intact`;
    });

    // 2. Disk full while the engine stores a receipt the gateway just issued.
    await faultCase('disk full when storing an issued receipt', async (problems) => {
      space.free();
      controls.setOffline(true);
      const q = await checkout(c, 77);
      if (!q.ok || !q.orderNumber) problems.push(`offline checkout failed: ${q.message ?? ''}`);
      else acknowledged.push(q.orderNumber);
      space.fill();
      controls.setOffline(false);
      const s = await c.dispatch('sync.now', {});
      if (!s.ok && s.error.code !== 'storage') problems.push(`sync.now answered ${s.error.code}`);
      const stored = q.orderNumber
        ? (c.db.prepare('SELECT state FROM orders WHERE order_number = ?').get(q.orderNumber) as
            { state: string } | undefined)
        : undefined;
      if (stored && stored.state === 'fiscalized') {
        // The receipt fitted after all (a checkpoint freed WAL space): fine, nothing to reconcile.
      } else if (stored?.state !== 'queued')
        problems.push(`order is ${stored?.state ?? 'missing'} while the disk is full`);
      space.free();
      await drain(c);
      return 'order stayed queued, fiscalized once after space returned';
    });

    // 3. Read-only database.
    await faultCase('read-only database (query_only)', async (problems) => {
      c.db.pragma('query_only = ON');
      const n = orderCount(c);
      const r = await checkout(c, 33);
      if (r.ok) problems.push('a read-only database answered saved');
      else if (r.code !== 'storage')
        problems.push(`refused with ${r.code ?? '?'} instead of storage: ${r.message ?? ''}`);
      if (orderCount(c) !== n) problems.push('order written to a read-only database');
      const list = await c.dispatch('orders.list', { limit: 5 });
      if (!list.ok) problems.push(`reading refused too: ${list.error.code}`);
      c.db.pragma('query_only = OFF');
      return `refused with code storage ("${r.message ?? ''}"), reads still work`;
    });

    // 4. Recovery: space is back, sales go on, everything acknowledged is fiscalized exactly once.
    await faultCase('recovery after disk full / read-only', async (problems) => {
      space.free();
      const r = await checkout(c, 99);
      if (!r.ok || !r.orderNumber) problems.push(`checkout after recovery failed: ${r.code ?? ''} ${r.message ?? ''}`);
      else acknowledged.push(r.orderNumber);
      await drain(c);
      const ledger = new Map<string, number>();
      for (const x of controls.ledger().receipts) ledger.set(x.orderNumber, (ledger.get(x.orderNumber) ?? 0) + 1);
      for (const n of acknowledged) {
        const o = c.db.prepare('SELECT state, invoice_number FROM orders WHERE order_number = ?').get(n) as
          { state: string; invoice_number: string | null } | undefined;
        if (!o || o.state !== 'fiscalized' || !o.invoice_number) {
          tally.lost++;
          problems.push(`${n} is ${o?.state ?? 'missing'}`);
        }
        const k = ledger.get(n) ?? 0;
        if (k > 1) tally.duplicates += k - 1;
      }
      const check = c.db.pragma('integrity_check', { simple: true });
      if (check !== 'ok') problems.push(`integrity_check: ${String(check)}`);
      return `${acknowledged.length} acknowledged orders all fiscalized once, integrity ok`;
    });
  } catch (err) {
    tally.crashes++;
    tally.rows.push({
      area: 'storage',
      fault: 'storage run',
      result: `crash: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      ok: false,
    });
    log(`FAIL storage crash: ${String(err)}`);
  } finally {
    try {
      space.free();
    } catch {
      // cleanup best effort
    }
    await core?.close().catch(() => undefined);
    await sandbox?.close();
    space.cleanup();
    fs.rmSync(root, { recursive: true, force: true });
  }
  return tally;
}
