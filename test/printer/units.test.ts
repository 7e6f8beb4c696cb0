/** Code pages, decoder round trips, migration 002, file and CUPS transports, configuration and handlers. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../support/cleanups.ts';
import fc from 'fast-check';
import {
  CODE_PAGE_NAMES,
  canEncode,
  decodeByte,
  encodeRuns,
  SERBIAN_CYRILLIC,
  SERBIAN_LATIN_DIACRITICS,
} from '../../electron/printer/codepages.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { buildDocumentBytes, drawerPulse, slipDocument, testPageDocument } from '../../electron/printer/layout.ts';
import { PRESETS, codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { createTransportFactory } from '../../electron/printer/transport.ts';
import { createPrintService } from '../../electron/printer/service.ts';
import { printerHandlers } from '../../electron/printer/handlers.ts';
import { parsePrinterUri } from '../../shared/contract/printer.ts';
import { makeReceipt } from './fixtures.ts';
import { memorySettings, startCaptureServer, statusLog, tempDb, until } from './helpers.ts';

const later = cleanupAfterEach();

describe('code pages', () => {
  it('CP1251 and CP855 have every Serbian Cyrillic letter; CP1250 and CP852 every Latin one', () => {
    for (const p of ['CP1251', 'CP855'] as const) expect(canEncode(p, SERBIAN_CYRILLIC)).toBe(true);
    for (const p of ['CP1250', 'CP852'] as const) expect(canEncode(p, SERBIAN_LATIN_DIACRITICS)).toBe(true);
    expect(canEncode('CP1251', 'Š')).toBe(false);
  });

  it('mixed-script text round-trips through runs in any Cyrillic+Latin page pair', () => {
    const alphabet = [...(SERBIAN_CYRILLIC + SERBIAN_LATIN_DIACRITICS + 'abcXYZ 0123,.-=')];
    const pairs = [
      ['CP1251', 'CP1250'],
      ['CP855', 'CP852'],
      ['CP1251', 'CP852'],
    ] as const;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...alphabet), { maxLength: 60 }),
        fc.constantFrom(...pairs),
        (chars, pages) => {
          const text = chars.join('');
          const runs = encodeRuns(text, pages)!;
          const back = runs.map((r) => [...r.bytes].map((b) => decodeByte(r.page, b)).join('')).join('');
          expect(back).toBe(text);
        },
      ),
    );
  });

  it('returns null for a character no page has (the line is then drawn as an image)', () => {
    expect(encodeRuns('日本', ['CP1251', 'CP1250'])).toBeNull();
    expect(CODE_PAGE_NAMES).toContain('CP855');
  });
});

describe('layout details', () => {
  it('sets the code page again after every ESC @ (including the one the cut sends)', () => {
    const p = findPreset('star-tsp600')!;
    const bytes = buildDocumentBytes(slipDocument(['ОВО НИЈЕ ФИСКАЛНИ РАЧУН']), p);
    const esc = Buffer.from([0x1b, 0x40]);
    for (let i = bytes.indexOf(esc); i >= 0; i = bytes.indexOf(esc, i + 1)) {
      expect([...bytes.subarray(i + 2, i + 5)]).toEqual([0x1b, 0x74, p.codePages.CP1251]);
    }
    expect(decodeEscPos(bytes, { codePages: codePageNumbers(p) }).lines).toEqual(['ОВО НИЈЕ ФИСКАЛНИ РАЧУН']);
  });

  it('a 50-column line is drawn as an image, never wrapped', () => {
    const p = findPreset('pos-5890')!;
    const d = decodeEscPos(buildDocumentBytes(slipDocument(['Ж'.repeat(50), 'кратко']), p), {
      codePages: codePageNumbers(p),
    });
    expect(d.lines).toEqual(['кратко']);
    expect(d.rasterImages).toHaveLength(1);
  });

  it('the test page has every Serbian letter and a QR on every preset', () => {
    for (const p of PRESETS.filter((x) => x.mode === 'text')) {
      const d = decodeEscPos(buildDocumentBytes(testPageDocument(p, 'now'), p), { codePages: codePageNumbers(p) });
      const text = d.lines.join('\n');
      for (const ch of SERBIAN_CYRILLIC + SERBIAN_LATIN_DIACRITICS) expect(text, `${p.id} ${ch}`).toContain(ch);
      expect(d.qr.length + d.rasterImages.length).toBeGreaterThan(0);
    }
  });

  it('drawer pulse is the 5-byte ESC p', () => {
    expect([...drawerPulse(0)]).toEqual([0x1b, 0x70, 0x00, 0x19, 0xfa]);
    expect([...drawerPulse(1)]).toEqual([0x1b, 0x70, 0x01, 0x19, 0xfa]);
  });
});

describe('migrations 002 and 014', () => {
  it('create print_jobs with its constraints', () => {
    const t = tempDb();
    later(() => t.cleanup());
    const cols = t.db.prepare("SELECT name FROM pragma_table_info('print_jobs')").pluck().all();
    expect(cols).toEqual([
      'id',
      'order_id',
      'kind',
      'payload',
      'state',
      'attempts',
      'next_attempt_at',
      'last_error',
      'created_at',
      'printed_at',
      'sent_at',
      'released',
    ]);
    expect(() =>
      t.db
        .prepare(
          "INSERT INTO print_jobs (kind, payload, state, next_attempt_at, created_at) VALUES ('x', '{}', 'queued', 0, '')",
        )
        .run(),
    ).toThrow(/CHECK/);
  });
});

describe('transports', () => {
  it('parses printer addresses', () => {
    expect(parsePrinterUri('tcp://10.0.0.5')).toEqual({ kind: 'tcp', host: '10.0.0.5', port: 9100 });
    expect(parsePrinterUri('tcp://printer.local:9101')).toEqual({ kind: 'tcp', host: 'printer.local', port: 9101 });
    expect(parsePrinterUri('cups://POS58')).toEqual({ kind: 'cups', queue: 'POS58' });
    expect(parsePrinterUri('/dev/usb/lp0')).toEqual({ kind: 'file', path: '/dev/usb/lp0' });
    expect(parsePrinterUri('http://x')).toBeNull();
  });

  it('writes to a file path and through a CUPS raw queue (lp stand-in)', async () => {
    const t = tempDb();
    later(() => t.cleanup());
    const file = path.join(t.dir, 'lp0');
    const bytes = Buffer.from([0x1b, 0x40, 0x41, 0x0a]);
    await createTransportFactory()({ kind: 'file', path: file }).send(bytes);
    expect(fs.readFileSync(file)).toEqual(bytes);
    const lp = path.join(t.dir, 'lp');
    const out = path.join(t.dir, 'cups-out');
    fs.writeFileSync(lp, `#!/bin/sh\n[ "$1 $2 $3 $4" = "-d POS58 -o raw" ] || exit 3\ncat > ${JSON.stringify(out)}\n`, {
      mode: 0o755,
    });
    await createTransportFactory({ lpCommand: lp })({ kind: 'cups', queue: 'POS58' }).send(bytes);
    expect(fs.readFileSync(out)).toEqual(bytes);
    await expect(
      createTransportFactory({ lpCommand: lp })({ kind: 'cups', queue: 'OTHER' }).send(bytes),
    ).rejects.toThrow(/exited 3/);
  });
});

describe('service configuration and handlers', () => {
  function make(env: NodeJS.ProcessEnv = {}) {
    const t = tempDb();
    const settings = memorySettings();
    const log = statusLog();
    const receipt = makeReceipt();
    const service = createPrintService({
      db: t.db,
      settings,
      emit: log.emit,
      env,
      getReceipt: (id) => (id === 1 ? { receipt, cash: true } : null),
    });
    later(() => t.cleanup());
    later(() => service.stop());
    return { t, settings, service, handlers: printerHandlers(service, { audit: () => {} }) };
  }

  it('KASA_PRINTER and KASA_PRINTER_PROFILE override the settings', async () => {
    const { handlers } = make({ KASA_PRINTER: 'tcp://127.0.0.1:1', KASA_PRINTER_PROFILE: 'pos-5890' });
    expect(await handlers['print.status']({})).toMatchObject({
      uri: 'tcp://127.0.0.1:1',
      uriSource: 'env',
      profileId: 'pos-5890',
    });
    const { profiles, current } = await handlers['printer.profiles']({});
    expect(current).toBe('pos-5890');
    expect(profiles.map((p) => p.id)).toContain('epson-tm-t88v');
  });

  it('configure validates; missing orders are not_found; a printed receipt is not printed again locally', async () => {
    // The test printer listens on loopback, a destination only the installer may allow.
    expect(() => make().service.configure({ uri: 'tcp://127.0.0.1:9100', profileId: 'generic-80' })).toThrow(
      expect.objectContaining({ code: 'invalid_input', field: 'uri' }),
    );
    const { service, handlers, t } = make({ KASA_PRINTER_ALLOW_LOOPBACK: '1' });
    expect(service.status().state).toBe('unconfigured');
    expect(() => service.configure({ uri: 'http://x', profileId: 'generic-80' })).toThrow(
      expect.objectContaining({ code: 'invalid_input', field: 'uri' }),
    );
    // Through the contract only printer devices, never arbitrary files (KASA_PRINTER may name any path).
    for (const uri of ['/tmp/kasa-x', 'file:///etc/passwd', '/dev/../etc/passwd', 'C:\\Windows\\win.ini']) {
      expect(() => service.configure({ uri, profileId: 'generic-80' })).toThrow(
        expect.objectContaining({ code: 'invalid_input', field: 'uri' }),
      );
    }
    expect(() => service.configure({ uri: 'tcp://127.0.0.1:1', profileId: 'nope' })).toThrow(
      expect.objectContaining({ code: 'invalid_input' }),
    );
    await expect(handlers['print.receipt']({ orderId: 2 })).rejects.toMatchObject({ code: 'not_found' });

    const server = await startCaptureServer();
    later(() => server.close());
    const custom = { ...findPreset('generic-58')!, id: 'custom', name: 'Moj štampač', source: 'custom' };
    await handlers['printer.configure']({
      uri: `tcp://127.0.0.1:${server.port}`,
      profileId: 'custom',
      custom,
      header: 'Радња',
      autoPrint: false,
    });
    expect(service.status()).toMatchObject({ profileId: 'custom', autoPrint: false, state: 'idle' });
    service.start();
    const { jobId } = await handlers['print.receipt']({ orderId: 1 });
    expect(service.enqueueReceipt(1)).toBe(jobId); // idempotent while queued
    await until(() => t.db.prepare('SELECT state FROM print_jobs WHERE id = ?').pluck().get(jobId) === 'printed');
    await expect(handlers['print.reprintLast']({})).rejects.toMatchObject({ code: 'conflict' });
    expect(() => service.enqueueReceipt(1)).toThrow(expect.objectContaining({ code: 'conflict' }));

    const test = await handlers['print.test']({});
    await until(() => server.jobs.length === 2);
    const again = await handlers['print.reprintLast']({});
    expect(again.jobId).not.toBe(test.jobId);
    await until(() => server.jobs.length === 3);
    const p = findPreset('generic-58')!;
    for (const bytes of server.jobs.slice(1)) {
      expect(decodeEscPos(bytes, { codePages: codePageNumbers(p) }).lines).toContain('Ђ Ј Љ Њ Ћ Џ ђ ј љ њ ћ џ');
    }
  });
});
