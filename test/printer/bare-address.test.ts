/**
 * A network printer's address as written on its self-test page, without `tcp://` (issue 38 §2): the core takes
 * `127.0.0.1:PORT` (a real socket here), stores it as `tcp://127.0.0.1:PORT` and prints the test page there; the
 * installer's `KASA_PRINTER` is read the same way. A print that fails is told in the user's language on the
 * manager's screen, never as the socket's English (`ECONNREFUSED`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PrintStatus } from '../../shared/contract/printer.ts';
import { PrinterUri, normalizePrinterAddress } from '../../shared/contract/printer.ts';
import { printerErrorText, printerProblem } from '../../shared/i18n/printer-errors.ts';
import { message } from '../../shared/messages.ts';
import { LANGUAGES } from '../../shared/domain.ts';
import { MANAGER_PIN, closeCores, fails, ok, startCore } from '../support/session.ts';
import { startCaptureServer, until } from './helpers.ts';
import { freePort } from '../support/ports.ts';

const approval = { managerPin: MANAGER_PIN };
afterEach(closeCores);

describe('a printer address without tcp://', () => {
  it('is read as a network printer; a bare word, a path or another scheme stays as typed', () => {
    for (const bare of [' 192.168.1.50:9100 ', '192.168.1.50', 'kasa-printer.local:9101', '[fd00::5]:9100'])
      expect(normalizePrinterAddress(bare)).toBe(`tcp://${bare.trim()}`);
    for (const kept of ['tcp://10.0.0.9:9100', 'cups://POS80', '/dev/usb/lp0', 'COM3', 'printer', '\\\\.\\COM3'])
      expect(normalizePrinterAddress(kept)).toBe(kept);
    expect(PrinterUri.parse('192.168.1.50:9100')).toBe('tcp://192.168.1.50:9100');
    expect(PrinterUri.safeParse('192.168.1.50:99999').success).toBe(false);
  });

  it('is saved as tcp:// and the test page reaches that socket', async () => {
    const printer = await startCaptureServer();
    const core = await startCore({ env: { KASA_PRINTER_ALLOW_LOOPBACK: '1' } });
    try {
      const status = await ok<PrintStatus>(core, 'printer.configure', {
        uri: `127.0.0.1:${printer.port}`,
        profileId: 'epson-tm-t88v',
        approval,
      });
      expect(status).toMatchObject({ uri: `tcp://127.0.0.1:${printer.port}`, uriSource: 'settings' });
      await ok(core, 'print.test');
      await until(() => printer.jobs.length === 1);
      expect(printer.jobs[0]!.length).toBeGreaterThan(100);
    } finally {
      await printer.close();
    }
  });

  it("the installer's KASA_PRINTER without tcp:// too", async () => {
    const printer = await startCaptureServer();
    const core = await startCore({
      env: { KASA_PRINTER_ALLOW_LOOPBACK: '1', KASA_PRINTER: `127.0.0.1:${printer.port}` },
    });
    try {
      const status = await ok<PrintStatus>(core, 'print.status');
      expect(status).toMatchObject({ uri: `tcp://127.0.0.1:${printer.port}`, uriSource: 'env', configured: true });
      await ok(core, 'print.test');
      await until(() => printer.jobs.length === 1);
    } finally {
      await printer.close();
    }
  });

  it('a refused address is refused at its field in each language, in that language only', async () => {
    const core = await startCore();
    const e = await fails(core, 'printer.configure', {
      uri: '169.254.169.254:80',
      profileId: 'epson-tm-t88v',
      approval,
    });
    expect(e).toMatchObject({ code: 'invalid_input', field: 'uri' });
    for (const lang of LANGUAGES) {
      const text = message(lang, 'printer_address_forbidden', { field: 'x' });
      if (lang !== 'en') expect(text, lang).not.toMatch(/loopback|link-local|metadata/);
    }
  });
});

describe("a failed print in the user's words", () => {
  it('a printer that refuses the connection: the core keeps ECONNREFUSED for the log, the screen says it in words', async () => {
    const port = await freePort();
    const core = await startCore({ env: { KASA_PRINTER_ALLOW_LOOPBACK: '1' } });
    await ok(core, 'printer.configure', { uri: `127.0.0.1:${port}`, profileId: 'epson-tm-t88v', approval });
    await ok(core, 'print.test');
    let status = await ok<PrintStatus>(core, 'print.status');
    while (!status.lastError) {
      await new Promise((r) => setTimeout(r, 20));
      status = await ok<PrintStatus>(core, 'print.status');
    }
    expect(status.lastError).toMatch(/ECONNREFUSED/);
    expect(printerProblem(status.lastError)).toBe('refused');
    expect(printerErrorText('sr-Cyrl', status.lastError)).toBe(
      'штампач је одбио везу: проверите да ли је укључен и да ли је адреса тачна',
    );
    expect(printerErrorText('sr-Latn', status.lastError)).toMatch(/^štampač je odbio vezu/);
    expect(printerErrorText('en', status.lastError)).toMatch(/^the printer refused the connection/);
  });

  it('every kind of failure the transports write has its words, with no Latin letters on a Cyrillic screen', () => {
    const raws: [string, string][] = [
      ['job 3: printer 10.0.0.9:9100: connect timeout', 'unreachable'],
      ['job 3: printer 10.0.0.9:9100: EHOSTUNREACH', 'unreachable'],
      ['job 3: printer nema.local:9100: ENOTFOUND', 'not_found'],
      ['job 3: printer 10.0.0.9:9100: closed before all bytes were written', 'cut_off'],
      ['printer stopped: paper out', 'paper_out'],
      ['printer stopped: cover open', 'cover_open'],
      ['printer stopped: mechanical error', 'stopped'],
      ['cups POS80: lp exited 1: lp: The printer or class does not exist.', 'spooler'],
      ['winspool POS-80: the printer is offline', 'spooler'],
      ['printer /dev/usb/lp0: ENOENT', 'device'],
      ['interrupted: Kasa stopped while printing', 'interrupted'],
      ['job 4: the printer stopped answering after the job; the cashier is asked', 'silent_after'],
      ['something new', 'unknown'],
    ];
    for (const [raw, problem] of raws) {
      expect(printerProblem(raw), raw).toBe(problem);
      expect(printerErrorText('sr-Cyrl', raw), raw).not.toMatch(/[A-Za-z]/);
      expect(printerErrorText('sr-Latn', raw), raw).not.toMatch(/[\u0400-\u04FF]/);
    }
  });
});

describe('environment variables a message names', () => {
  it('are each in the README', async () => {
    const fs = await import('node:fs');
    const catalogs = [
      'shared/messages.ts',
      'renderer/src/manager/i18n.ts',
      'renderer/src/i18n/ui.ts',
      'renderer/src/i18n/setup.ts',
    ].map((f) => fs.readFileSync(f, 'utf8'));
    const readme = fs.readFileSync('README.md', 'utf8');
    const named = new Set(catalogs.flatMap((text) => text.match(/KASA_[A-Z_]+/g) ?? []));
    expect(named.size).toBeGreaterThan(0);
    for (const name of named) expect(readme, name).toContain(`| \`${name}\``);
  });
});
