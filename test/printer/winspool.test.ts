/**
 * The Windows spooler path with the spooler itself stubbed at its boundary (`WinspoolApi`: the calls
 * OpenPrinter / StartDocPrinter RAW / WritePrinter / EndDocPrinter): there is no Windows spooler here.
 * Everything above it is real: address parsing, the transport, the print service with its SQLite queue,
 * the receipt bytes, the `printer.installed` handler and the contract's validation.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createWindowsSpooler,
  powershellPath,
  WinspoolError,
  type WinspoolApi,
} from '../../electron/printer/spooler.ts';
import { createTransportFactory } from '../../electron/printer/transport.ts';
import { createPrintService } from '../../electron/printer/service.ts';
import { printerHandlers } from '../../electron/printer/handlers.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { journalLines } from '../../electron/printer/layout.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { parsePrinterUri, PrinterUri, winspoolUri } from '../../shared/contract/printer.ts';
import { makeReceipt } from './fixtures.ts';
import { memorySettings, statusLog, tempDb, until } from './helpers.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

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
    const t = tempDb();
    const service = createPrintService({
      db: t.db,
      settings: memorySettings({ 'printer.uri': 'winspool://POS-80%20(USB)', 'printer.profile': 'epson-tm-t88v' }),
      emit: statusLog().emit,
      env: {},
      transport: createTransportFactory({ spoolers: { winspool: createWindowsSpooler(api) } }),
      getReceipt: () => ({ receipt, cash: true }),
    });
    cleanups.push(
      () => t.cleanup(),
      () => service.stop(),
    );
    service.start();
    const jobId = service.enqueueReceipt(7);
    await until(() => api.jobs.length > 0);
    await until(() => !['queued', 'printing'].includes(String(state(t, jobId))));
    expect(state(t, jobId)).not.toBe('failed');
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
    const t = tempDb();
    const service = createPrintService({
      db: t.db,
      settings: memorySettings(),
      emit: statusLog().emit,
      env: {},
      getReceipt: () => null,
    });
    cleanups.push(
      () => t.cleanup(),
      () => service.stop(),
    );
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

function state(t: ReturnType<typeof tempDb>, id: number): unknown {
  return t.db.prepare('SELECT state FROM print_jobs WHERE id = ?').pluck().get(id);
}
