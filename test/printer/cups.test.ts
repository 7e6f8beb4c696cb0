/**
 * The CUPS path end to end against a real cupsd (Debian's `cups`), started and stopped here: its own
 * config, state, spool and log directories in a temp directory, listening only on a private Unix socket
 * (never the system's, never a TCP port), reached through `CUPS_SERVER`. A raw queue's device is
 * `socket://127.0.0.1:PORT`, a TCP "printer" this test listens on (ephemeral port). A real Kasa receipt
 * goes through the print service with `cups://QUEUE`; the bytes cupsd delivers must be exactly the bytes
 * the service handed to the transport, and decode to the receipt's journal.
 */
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
import { cupsdSkipReason, lpadmin, startCupsd, stopCupsd, type Cupsd } from './cupsd.ts';
import { makeReceipt } from './fixtures.ts';
import {
  memorySettings,
  startCaptureServer,
  statusLog,
  tempDb,
  until,
  type CaptureServer,
  testPrintService,
} from './helpers.ts';

const skipReason = cupsdSkipReason();
if (skipReason) console.warn(`test/printer/cups.test.ts skipped: ${skipReason}`);

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
    if (cupsd) await stopCupsd(cupsd);
  });

  it('printer.installed lists the queues with their cups:// addresses and the default', async () => {
    const { service, close } = testPrintService();
    try {
      const handlers = printerHandlers(service, { audit: () => {} });
      const { printers } = await handlers['printer.installed']({});
      expect([...printers].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
        { name: 'KasaPOS', uri: 'cups://KasaPOS', isDefault: true },
        { name: 'Kuhinja', uri: 'cups://Kuhinja', isDefault: false },
      ]);
    } finally {
      await close();
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

describe('the CUPS client tools, whatever the scheduler', () => {
  it('an lp that never finishes is a timeout, and its child is ended; no lpstat lists nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-lp-'));
    try {
      const lp = path.join(dir, 'lp');
      const pidFile = path.join(dir, 'pid');
      fs.writeFileSync(lp, `#!/bin/sh\necho $$ > ${JSON.stringify(pidFile)}\nexec sleep 30\n`, { mode: 0o755 });
      const spooler = createCupsSpooler({ lp, lpstat: path.join(dir, 'no-lpstat'), printTimeoutMs: 300 });
      await expect(spooler.printRaw('POS58', Buffer.from('x'), 'Kasa')).rejects.toMatchObject({ reason: 'timeout' });
      const pid = Number(fs.readFileSync(pidFile, 'utf8'));
      expect(() => process.kill(pid, 0)).toThrow(); // no stuck lp left behind
      expect(await spooler.list()).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

function jobState(t: ReturnType<typeof tempDb>, id: number): unknown {
  return t.db.prepare('SELECT state FROM print_jobs WHERE id = ?').pluck().get(id);
}
