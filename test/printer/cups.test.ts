/**
 * The CUPS path end to end against a real cupsd (Debian's `cups`), started and stopped here: its own
 * config, state, spool and log directories in a temp directory, listening only on a private Unix socket
 * (never the system's, never a TCP port), reached through `CUPS_SERVER`. A raw queue's device is
 * `socket://127.0.0.1:PORT`, a TCP "printer" this test listens on (ephemeral port). A real Kasa receipt
 * goes through the print service with `cups://QUEUE`; the bytes cupsd delivers must be exactly the bytes
 * the service handed to the transport, and decode to the receipt's journal.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrintService } from '../../electron/printer/service.ts';
import { createTransportFactory, type TransportFactory } from '../../electron/printer/transport.ts';
import { createCupsSpooler } from '../../electron/printer/spooler.ts';
import { printerHandlers } from '../../electron/printer/handlers.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { journalLines } from '../../electron/printer/layout.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { makeReceipt } from './fixtures.ts';
import { memorySettings, startCaptureServer, statusLog, tempDb, until, type CaptureServer } from './helpers.ts';

const CUPSD = ['/usr/sbin/cupsd', '/usr/local/sbin/cupsd'].find((p) => fs.existsSync(p)) ?? null;
const isRoot = process.getuid?.() === 0;
const skipReason = !CUPSD
  ? "cupsd is not installed (Debian's `cups` package; .ci/run installs it)"
  : !isRoot
    ? 'cupsd needs root to start its backends as `lp` (CI runs as root)'
    : null;
if (skipReason) console.warn(`test/printer/cups.test.ts skipped: ${skipReason}`);

interface Cupsd {
  dir: string;
  socket: string;
  child: ChildProcess;
  env: NodeJS.ProcessEnv;
  log(): string;
}

/** Starts a private cupsd in the foreground; resolves once it answers on its socket. */
async function startCupsd(): Promise<Cupsd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-cups-'));
  fs.chmodSync(dir, 0o755); // cupsd checks the directories it is given, and runs backends as `lp`
  for (const d of ['root', 'spool', 'cache', 'state', 'tmp', 'log']) fs.mkdirSync(path.join(dir, d));
  const socket = path.join(dir, 'cups.sock');
  fs.writeFileSync(
    path.join(dir, 'cups-files.conf'),
    [
      `ServerRoot ${dir}/root`,
      `RequestRoot ${dir}/spool`,
      `CacheDir ${dir}/cache`,
      `StateDir ${dir}/state`,
      `TempDir ${dir}/tmp`,
      `ErrorLog ${dir}/log/error_log`,
      `AccessLog ${dir}/log/access_log`,
      `PageLog ${dir}/log/page_log`,
      'ServerBin /usr/lib/cups',
      'DataDir /usr/share/cups',
      'User lp',
      'Group lp',
      'Sandboxing relaxed',
      'FatalErrors none',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'cupsd.conf'),
    [
      `Listen ${socket}`,
      'LogLevel info',
      'Browsing No',
      'WebInterface No',
      'DefaultAuthType None',
      '<Location />',
      '  Order allow,deny',
      '  Allow all',
      '</Location>',
      '',
    ].join('\n'),
  );
  const child = spawn(CUPSD!, ['-f', '-c', path.join(dir, 'cupsd.conf'), '-s', path.join(dir, 'cups-files.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const env = { ...process.env, CUPS_SERVER: socket, LC_ALL: 'C' };
  const log = () => {
    const f = path.join(dir, 'log', 'error_log');
    return stderr + (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '');
  };
  // Up to ~20 s for the scheduler to answer; an exit means it refused its configuration.
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`cupsd exited ${child.exitCode}: ${log()}`);
    if (fs.existsSync(socket) && spawnSync('lpstat', ['-r'], { env, encoding: 'utf8' }).stdout.includes('is running')) {
      return { dir, socket, child, env, log };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error(`cupsd did not answer on ${socket}: ${log()}`);
}

/** `lpadmin` against the private cupsd; throws with its output on failure. */
function lpadmin(c: Cupsd, args: string[]): void {
  const r = spawnSync('lpadmin', args, { env: c.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`lpadmin ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
}

describe.skipIf(skipReason !== null)('a receipt through a real CUPS raw queue', () => {
  let cupsd: Cupsd;
  let printer: CaptureServer;
  const savedServer = process.env['CUPS_SERVER'];

  beforeAll(async () => {
    cupsd = await startCupsd();
    printer = await startCaptureServer();
    // A raw queue (no filter touches the bytes) whose device is the test's TCP printer.
    lpadmin(cupsd, ['-p', 'KasaPOS', '-E', '-v', `socket://127.0.0.1:${printer.port}`, '-m', 'raw']);
    lpadmin(cupsd, ['-p', 'Kuhinja', '-E', '-v', `socket://127.0.0.1:${printer.port}`, '-m', 'raw']);
    lpadmin(cupsd, ['-d', 'KasaPOS']);
    // Kasa's own `lp` / `lpstat` children find this cupsd the way a till finds a remote CUPS server.
    process.env['CUPS_SERVER'] = cupsd.socket;
  }, 60_000);

  afterAll(async () => {
    if (savedServer === undefined) delete process.env['CUPS_SERVER'];
    else process.env['CUPS_SERVER'] = savedServer;
    await printer?.close();
    if (cupsd) {
      const exited = new Promise((r) => cupsd.child.once('exit', r));
      cupsd.child.kill('SIGTERM');
      await exited;
      fs.rmSync(cupsd.dir, { recursive: true, force: true });
    }
  });

  it('printer.installed lists the queues with their cups:// addresses and the default', async () => {
    const t = tempDb();
    const service = createPrintService({
      db: t.db,
      settings: memorySettings(),
      emit: statusLog().emit,
      env: {},
      getReceipt: () => null,
    });
    try {
      const handlers = printerHandlers(service, { audit: () => {} });
      const { printers } = await handlers['printer.installed']({});
      expect([...printers].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
        { name: 'KasaPOS', uri: 'cups://KasaPOS', isDefault: true },
        { name: 'Kuhinja', uri: 'cups://Kuhinja', isDefault: false },
      ]);
    } finally {
      service.stop();
      t.cleanup();
    }
  });

  it('prints a Kasa receipt through cups://KasaPOS, byte for byte', async () => {
    const receipt = makeReceipt({ seed: 'cups', latin: true });
    const t = tempDb();
    // The only wrapper: it records what the service hands the real CUPS transport, to compare.
    const handed: Buffer[] = [];
    const real = createTransportFactory();
    const transport: TransportFactory = (target) => {
      expect(target).toEqual({ kind: 'cups', queue: 'KasaPOS' });
      const inner = real(target);
      return { send: (bytes) => (handed.push(Buffer.from(bytes)), inner.send(bytes)) };
    };
    const service = createPrintService({
      db: t.db,
      settings: memorySettings({ 'printer.uri': 'cups://KasaPOS', 'printer.profile': 'epson-tm-t88v' }),
      emit: statusLog().emit,
      env: {},
      transport,
      getReceipt: () => ({ receipt, cash: true }),
    });
    service.start();
    try {
      const before = printer.jobs.length;
      const jobId = service.enqueueReceipt(7);
      await until(() => printer.jobs.length > before);
      expect(printer.jobs).toHaveLength(before + 1);
      expect(handed).toHaveLength(1);
      const arrived = printer.jobs.at(-1)!;
      expect(arrived.equals(handed[0]!)).toBe(true);
      const decoded = decodeEscPos(arrived, { codePages: codePageNumbers(findPreset('epson-tm-t88v')!) });
      expect(decoded.problems).toEqual([]);
      const journal = journalLines(receipt.journal);
      const start = decoded.lines.indexOf(journal[0]!);
      expect(start).toBeGreaterThanOrEqual(0);
      expect(decoded.lines.slice(start, start + journal.length)).toEqual(journal);
      expect(decoded.qr.map((q) => q.data)).toEqual([receipt.verificationUrl]);
      expect(decoded.cuts).toBe(1);
      // The spooler accepted it: the job left the queue without an error.
      await until(() => !['queued', 'printing'].includes(String(jobState(t, jobId))));
      expect(jobState(t, jobId)).not.toBe('failed');
    } finally {
      service.stop();
      t.cleanup();
    }
  });

  it('the spooler returns the CUPS job id, and a queue that does not exist is offline', async () => {
    const spooler = createCupsSpooler();
    const before = printer.jobs.length;
    const id = await spooler.printRaw('Kuhinja', Buffer.from([0x1b, 0x40, 0x00, 0xff, 0x0a]), 'Kasa');
    expect(id).toMatch(/^Kuhinja-\d+$/);
    await until(() => printer.jobs.length > before);
    expect(printer.jobs.at(-1)).toEqual(Buffer.from([0x1b, 0x40, 0x00, 0xff, 0x0a]));
    await expect(spooler.printRaw('Nema', Buffer.from('x'), 'Kasa')).rejects.toMatchObject({ reason: 'offline' });
  });
});

function jobState(t: ReturnType<typeof tempDb>, id: number): unknown {
  return t.db.prepare('SELECT state FROM print_jobs WHERE id = ?').pluck().get(id);
}
