/**
 * The Windows spooler path with the spooler itself stubbed at its boundary (`WinspoolApi`: the calls
 * OpenPrinter / StartDocPrinter RAW / WritePrinter / EndDocPrinter): there is no Windows spooler here.
 * Everything above it is real: address parsing, the transport, the print service with its SQLite queue,
 * the receipt bytes, the `printer.installed` handler and the contract's validation.
 */
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../support/cleanups.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createWindowsSpooler,
  powershellPath,
  powershellWinspool,
  WinspoolError,
  type WinspoolApi,
} from '../../electron/printer/spooler.ts';
import { createTransportFactory } from '../../electron/printer/transport.ts';
import { printerHandlers } from '../../electron/printer/handlers.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { journalLines } from '../../electron/printer/layout.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { parsePrinterUri, PrinterUri, winspoolUri } from '../../shared/contract/printer.ts';
import { makeReceipt } from './fixtures.ts';
import { testPrintService, until } from './helpers.ts';
import type { Db } from '../../electron/db/open.ts';

const later = cleanupAfterEach();

/** The stubbed spooler: records each RAW job, or fails the way `fail` says. */
function stubApi(
  printers: { name: string; isDefault: boolean }[] = [],
  fail?: () => WinspoolError | Error,
): WinspoolApi & { jobs: { printer: string; bytes: Buffer; doc: string }[] } {
  const jobs: { printer: string; bytes: Buffer; doc: string }[] = [];
  return {
    jobs,
    printers: async () => printers,
    writeRaw: async (printer, bytes, doc) => {
      if (fail) throw fail();
      jobs.push({ printer, bytes: Buffer.from(bytes), doc });
      return 40 + jobs.length;
    },
  };
}

describe('winspool:// addresses', () => {
  it('parse with the name percent-decoded; cups:// still parses', () => {
    expect(parsePrinterUri('winspool://POS-80')).toEqual({ kind: 'winspool', name: 'POS-80' });
    expect(parsePrinterUri('winspool://POS-80%20(USB)')).toEqual({ kind: 'winspool', name: 'POS-80 (USB)' });
    expect(parsePrinterUri('winspool://%D0%9A%D0%B0%D1%81%D0%B0%201')).toEqual({ kind: 'winspool', name: 'Каса 1' });
    expect(parsePrinterUri('winspool://%5C%5CKANCELARIJA%5CEPSON')).toEqual({
      kind: 'winspool',
      name: '\\\\KANCELARIJA\\EPSON',
    });
    expect(parsePrinterUri('cups://POS58')).toEqual({ kind: 'cups', queue: 'POS58' });
  });

  it('refuse what the spooler cannot name: empty, control characters, commas, a stray backslash, bad escapes', () => {
    for (const bad of [
      'winspool://',
      'winspool://%0APOS',
      'winspool://a%2Cb',
      'winspool://a%5Cb',
      'winspool://%20POS',
      'winspool://%E0%A4',
      `winspool://${'x'.repeat(221)}`,
    ]) {
      expect(parsePrinterUri(bad), bad).toBeNull();
      expect(PrinterUri.safeParse(bad).success, bad).toBe(false);
    }
    expect(PrinterUri.safeParse('winspool://POS-80%20(USB)').success).toBe(true);
  });

  it('winspoolUri round-trips any valid name', () => {
    for (const name of ['POS-80 (USB)', 'Каса 1 — šank', 'EPSON TM-T20II Receipt5', '\\\\SRV\\Kasa 2']) {
      expect(parsePrinterUri(winspoolUri(name))).toEqual({ kind: 'winspool', name });
    }
  });
});

describe('the Windows spooler (stubbed at the spooler calls)', () => {
  it('a receipt goes through the print service to printRaw: RAW bytes, the decoded printer name', async () => {
    const api = stubApi();
    const receipt = makeReceipt({ seed: 'winspool', latin: true });
    const { service, db, close } = testPrintService(
      { 'printer.uri': 'winspool://POS-80%20(USB)', 'printer.profile': 'epson-tm-t88v' },
      {
        transport: createTransportFactory({ spoolers: { winspool: createWindowsSpooler(api) } }),
        getReceipt: () => ({ receipt, cash: true }),
      },
    );
    later(close);
    service.start();
    const jobId = service.enqueueReceipt(7);
    await until(() => api.jobs.length > 0);
    await until(() => !['queued', 'printing'].includes(String(state(db, jobId))));
    expect(state(db, jobId)).not.toBe('failed');
    expect(api.jobs).toHaveLength(1);
    const job = api.jobs[0]!;
    expect(job.printer).toBe('POS-80 (USB)');
    expect(job.doc).toBe('Kasa');
    // The receipt's own ESC/POS bytes, untouched: they decode to the journal.
    expect(job.bytes.subarray(0, 2)).toEqual(Buffer.from([0x1b, 0x40]));
    const decoded = decodeEscPos(job.bytes, { codePages: codePageNumbers(findPreset('epson-tm-t88v')!) });
    expect(decoded.problems).toEqual([]);
    const journal = journalLines(receipt.journal);
    const start = decoded.lines.indexOf(journal[0]!);
    expect(decoded.lines.slice(start, start + journal.length)).toEqual(journal);
  });

  it('maps spooler errors to the transport reasons: a missing printer is offline, a failed write is io', async () => {
    const cases: [WinspoolError | Error, 'offline' | 'io', RegExp][] = [
      [new WinspoolError('open', 1801, 'ERR open 1801'), 'offline', /open failed \(Win32 error 1801\)/],
      [new WinspoolError('open', 5, 'ERR open 5'), 'offline', /open failed \(Win32 error 5\)/],
      [new WinspoolError('start', 1905, 'ERR start 1905'), 'offline', /start failed/],
      [new WinspoolError('start', 5, 'ERR start 5'), 'io', /start failed \(Win32 error 5\)/],
      [new WinspoolError('write', 1167, 'ERR write 1167'), 'io', /write failed/],
      [new WinspoolError('run', 0, 'powershell: spawn ENOENT'), 'offline', /powershell: spawn ENOENT/],
      [new Error('something else'), 'io', /something else/],
    ];
    for (const [err, reason, text] of cases) {
      const send = createTransportFactory({ spoolers: { winspool: createWindowsSpooler(stubApi([], () => err)) } })({
        kind: 'winspool',
        name: 'POS-80',
      }).send(Buffer.from([0x1b, 0x40]));
      await expect(send).rejects.toMatchObject({ name: 'TransportError', reason });
      await expect(send).rejects.toThrow(text);
    }
  });

  it('printer.installed: the Windows printers with winspool:// addresses and the default; empty without a spooler', async () => {
    const { service, close } = testPrintService();
    later(close);
    const api = stubApi([
      { name: 'POS-80 (USB)', isDefault: true },
      { name: 'Microsoft Print to PDF', isDefault: false },
      { name: 'bad,name', isDefault: false },
    ]);
    const spooler = createWindowsSpooler(api);
    const h = printerHandlers(service, { audit: () => {}, installed: () => spooler.list() });
    expect((await h['printer.installed']({})).printers).toEqual([
      { name: 'POS-80 (USB)', uri: 'winspool://POS-80%20(USB)', isDefault: true },
      { name: 'Microsoft Print to PDF', uri: 'winspool://Microsoft%20Print%20to%20PDF', isDefault: false },
    ]);
    const none = createWindowsSpooler({
      printers: async () => {
        throw new WinspoolError('run', 0, 'the spooler service is stopped');
      },
      writeRaw: async () => 0,
    });
    const h2 = printerHandlers(service, { audit: () => {}, installed: () => none.list() });
    expect(await h2['printer.installed']({})).toEqual({ printers: [] });
  });

  it('runs Windows PowerShell from SystemRoot, never from PATH', () => {
    expect(powershellPath({ SystemRoot: 'D:\\Win' })).toBe(
      'D:\\Win\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    );
    expect(powershellPath({ PATH: '/evil' })).toBe('C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
  });
});

describe('the PowerShell binding, driven through a stand-in powershell.exe', () => {
  // The stand-in decodes `-EncodedCommand` as PowerShell does (base64 of UTF-16LE) and answers like the
  // script would: the printer list (after a byte order mark), or `JOB n` / `ERR step code` for a job,
  // recording what it was given. What PowerShell itself then does is not run here (no Windows).
  function standIn(dir: string): string {
    const exe = path.join(dir, 'powershell.exe');
    const log = path.join(dir, 'calls.jsonl');
    const src = `#!${process.execPath}
const fs = require('node:fs');
const args = process.argv.slice(2);
const script = Buffer.from(args[args.indexOf('-EncodedCommand') + 1], 'base64').toString('utf16le');
if (script.includes('Win32_Printer')) {
  process.stdout.write('\\uFEFF' + JSON.stringify([{ name: 'POS-80 (USB)', isDefault: true }, { name: 'Каса 2', isDefault: false }]));
  process.exit(0);
}
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const printer = process.env.KASA_WINSPOOL_PRINTER;
  fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ printer, doc: process.env.KASA_WINSPOOL_DOC,
    bytes: Buffer.concat(chunks).toString('hex'), argv: args.join(' '), raw: script.includes('pDatatype = "RAW"'),
    secret: process.env.KASA_API_KEY ?? null }) + '\\n');
  if (printer === 'Nema') { console.log('ERR open 1801'); process.exit(2); }
  console.log('JOB 12');
});
`;
    fs.writeFileSync(exe, src, { mode: 0o755 });
    return exe;
  }

  it('lists printers, and prints with the name in the environment and the bytes on stdin', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-ps-'));
    later(() => fs.rmSync(dir, { recursive: true, force: true }));
    const api = powershellWinspool(standIn(dir));
    expect(await createWindowsSpooler(api).list()).toEqual([
      { name: 'POS-80 (USB)', uri: 'winspool://POS-80%20(USB)', isDefault: true },
      { name: 'Каса 2', uri: 'winspool://%D0%9A%D0%B0%D1%81%D0%B0%202', isDefault: false },
    ]);
    const saved = process.env['KASA_API_KEY'];
    process.env['KASA_API_KEY'] = 'must-not-leak';
    try {
      const bytes = Buffer.from([0x1b, 0x40, 0x00, 0xff, 0x0a, 0x1d, 0x56, 0x00]);
      expect(await api.writeRaw('Каса 2', bytes, 'Kasa')).toBe(12);
      const spooler = createWindowsSpooler(api);
      await expect(spooler.printRaw('Nema', bytes, 'Kasa')).rejects.toMatchObject({ reason: 'offline' });
      const calls = fs
        .readFileSync(path.join(dir, 'calls.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(calls[0]).toMatchObject({ printer: 'Каса 2', doc: 'Kasa', bytes: bytes.toString('hex'), raw: true });
      expect(calls[0]!['secret']).toBeNull();
      // Nothing from the address reaches the command line.
      expect(String(calls[0]!['argv'])).not.toContain('Каса');
      expect(calls[1]).toMatchObject({ printer: 'Nema' });
    } finally {
      if (saved === undefined) delete process.env['KASA_API_KEY'];
      else process.env['KASA_API_KEY'] = saved;
    }
  });

  it('a PowerShell that cannot start is offline, and no printers are listed', async () => {
    const spooler = createWindowsSpooler(powershellWinspool('/nonexistent/powershell.exe'));
    expect(await spooler.list()).toEqual([]);
    await expect(spooler.printRaw('POS', Buffer.from('x'), 'Kasa')).rejects.toMatchObject({ reason: 'offline' });
  });
});

function state(db: Db, id: number): unknown {
  return db.prepare('SELECT state FROM print_jobs WHERE id = ?').pluck().get(id);
}
