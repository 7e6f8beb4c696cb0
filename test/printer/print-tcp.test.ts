/**
 * End to end over real TCP: the print service sends receipts to a capture server on an ephemeral port;
 * the captured bytes are decoded with the project's decoder and checked line for line.
 */
import { describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { decodeEscPos, type Decoded } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset, type PrinterProfile } from '../../electron/printer/profiles.ts';
import { journalLines, END_MARKER } from '../../electron/printer/layout.ts';
import { qrMatrix } from '../../electron/printer/raster.ts';
import { startSandbox } from '../../electron/sandbox/server.ts';
import type { ReceiptView } from '../../shared/domain.ts';
import { makeReceipt } from './fixtures.ts';
import { startCaptureServer, testPrintService, toRgba, until, type CaptureServer } from './helpers.ts';
import { cleanupAfterEach } from '../support/cleanups.ts';

const later = cleanupAfterEach();

async function printOne(
  profileId: string,
  receipt: ReceiptView,
  header?: string,
): Promise<{ decoded: Decoded; raw: Buffer; profile: PrinterProfile; server: CaptureServer }> {
  const server = await startCaptureServer();
  later(() => server.close());
  const { service, db, close } = testPrintService(
    {
      'printer.uri': `tcp://127.0.0.1:${server.port}`,
      'printer.profile': profileId,
      ...(header ? { 'printer.header': header } : {}),
    },
    { getReceipt: () => ({ receipt, cash: true }) },
  );
  later(close);
  service.start();
  const jobId = service.enqueueReceipt(7);
  await until(() => db.prepare('SELECT state FROM print_jobs WHERE id = ?').pluck().get(jobId) === 'printed');
  expect(server.jobs).toHaveLength(1);
  const profile = findPreset(profileId)!;
  const raw = server.jobs[0]!;
  return { decoded: decodeEscPos(raw, { codePages: codePageNumbers(profile) }), raw, profile, server };
}

/** Every check the issue asks for, on one printed receipt. */
function checkReceipt(decoded: Decoded, raw: Buffer, profile: PrinterProfile, receipt: ReceiptView) {
  expect(decoded.problems).toEqual([]);
  expect(decoded.discarded).toEqual([]);
  // Every journal line comes back exactly, in order, contiguous.
  const journal = journalLines(receipt.journal);
  const start = decoded.lines.indexOf(journal[0]!);
  expect(start).toBeGreaterThanOrEqual(0);
  expect(decoded.lines.slice(start, start + journal.length)).toEqual(journal);
  // The QR: data = verificationUrl, just before the end marker, fitting the paper.
  const endIdx = decoded.events.findIndex((e) => e.type === 'text' && e.text.includes(END_MARKER));
  const modules = qrMatrix(receipt.verificationUrl).size;
  if (profile.qr === 'native') {
    expect(decoded.qr).toHaveLength(1);
    const qr = decoded.qr[0]!;
    expect(qr.data).toBe(receipt.verificationUrl);
    expect(qr.model).toBe(2);
    expect(modules * qr.cellSize).toBeLessThanOrEqual(profile.dots);
    const qrIdx = decoded.events.findIndex((e) => e.type === 'qr');
    expect(qrIdx).toBe(endIdx - 1);
  } else {
    expect(decoded.qr).toHaveLength(0);
    const rIdx = decoded.events.findIndex((e) => e.type === 'raster');
    expect(rIdx).toBe(endIdx - 1);
    const img = decoded.rasterImages[0]!;
    expect(img.width).toBeLessThanOrEqual(profile.dots);
    const rgba = toRgba(img);
    expect(jsQR(rgba.data, rgba.width, rgba.height)?.data).toBe(receipt.verificationUrl);
  }
  // One cut per receipt (none on printers without a cutter), a well-formed drawer pulse.
  expect(decoded.cuts).toBe(profile.cutter === 'none' ? 0 : 1);
  if (profile.drawerPin === null) {
    expect(decoded.drawerPulses).toEqual([]);
  } else {
    expect(decoded.drawerPulses).toEqual([{ pin: profile.drawerPin, on: 0x19, off: 0xfa }]);
    expect(raw.includes(Buffer.from([0x1b, 0x70, profile.drawerPin, 0x19, 0xfa]))).toBe(true);
  }
}

describe('receipts printed over TCP', () => {
  const cases: [string, string][] = [
    ['epson-tm-t88v', '80 mm, 512 dots, CP1251, native QR'],
    ['star-tsp600', '80 mm, 576 dots, Star ESC t numbers, native QR model 2'],
    ['rongta-rp326', '80 mm, Rongta ESC t numbers'],
    ['pos-5890', '58 mm, font B, raster QR, no cutter'],
    ['sunmi-v2', '58 mm, CP855 + CP852'],
    ['generic-58', '58 mm, font B, native QR'],
  ];
  for (const [id, what] of cases) {
    it(`${id} (${what}): every journal line, the QR, the cut and the drawer`, async () => {
      const receipt = makeReceipt({ seed: id, latin: true });
      const { decoded, raw, profile } = await printOne(id, receipt, 'Моја радња d.o.o.\nŠid, Čika Ljubina 3');
      checkReceipt(decoded, raw, profile, receipt);
      expect(decoded.lines.slice(0, 2)).toEqual(['Моја радња d.o.o.', 'Šid, Čika Ljubina 3']);
      // 58 mm: 40 columns only fit in font B; the journal is never printed in font A there.
      const journalFonts = new Set(decoded.events.flatMap((e) => (e.type === 'text' ? [e.font] : [])));
      expect([...journalFonts]).toEqual([profile.font]);
      if (profile.paperMm === 58) expect(profile.font).toBe('B');
    });
  }

  it('a receipt without the end marker gets its QR at the end', async () => {
    const receipt = makeReceipt({ seed: 'noend', endMarker: false });
    const { decoded } = await printOne('epson-tm-t88v', receipt);
    const last = decoded.events.filter((e) => e.type === 'text' || e.type === 'qr').at(-1);
    expect(last?.type).toBe('qr');
  });

  it('prints a receipt issued by the sandbox gateway', async () => {
    const sb = await startSandbox();
    later(() => sb.close());
    const res = await fetch(`${sb.url}/receipt/normal/sale`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-key', 'content-type': 'application/json' },
      body: JSON.stringify({
        orderNumber: 'PRINT-TEST-1',
        items: [
          {
            name: 'Ћевапчићи са лепињом и кајмаком, велика порција',
            quantity: 2,
            unitPrice: 650,
            totalAmount: 1300,
            labels: ['A'],
          },
          { name: 'Кисела вода Књаз Милош 0,5л', quantity: 1, unitPrice: 120, totalAmount: 120, labels: ['A'] },
        ],
        payments: [{ type: 'cash', amount: 1420 }],
        settings: { returnIfOrderNumberExists: true },
      }),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { receipt: { journal: string; verificationUrl: string; invoiceNumber: string } };
    const receipt: ReceiptView = { ...makeReceipt(), ...body.receipt };
    for (const id of ['pos-5890', 'epson-tm-t88v']) {
      const { decoded, raw, profile } = await printOne(id, receipt);
      checkReceipt(decoded, raw, profile, receipt);
    }
  });
});
