/**
 * The IPS QR slip as the printer gets it, on both kinds of printer: a cheap 58 mm clone that prints QR codes as an
 * image (decoded back with jsQR from the raster the bytes carry) and an Epson that prints them natively (`GS ( k`,
 * whose length bytes count the UTF-8 bytes of a Cyrillic payee name). Both give back the code's exact text.
 */
import { describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { buildDocumentBytes, nativeQr, slipDocument } from '../../electron/printer/layout.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { ipsRequest, ipsSlip } from '../../electron/sales/ips.ts';
import { toRgba } from '../printer/helpers.ts';

const view = ipsRequest(
  {
    setting: (key) => (key === 'ipsAccount' ? '840000000095584510' : 'Продавница Код Мике'),
    now: () => Date.parse('2026-11-28T15:30:05Z'),
    random2: () => '42',
  },
  123456,
);

describe('the IPS QR slip on paper', () => {
  it('the reference is the Belgrade time and the random pair under model 97', () => {
    expect(view.reference).toBe('975026112816300542');
    expect(view.payload).toBe(
      'K:PT|V:01|C:1|R:840000000095584510|N:Продавница Код Мике|I:RSD1234,56|SF:221|RO:975026112816300542',
    );
  });

  it('a raster-QR printer: the code in the image decodes to the exact text, the lines say what it is', () => {
    const profile = findPreset('pos-5890')!;
    expect(profile.qr).toBe('raster');
    const slip = ipsSlip(view);
    const d = decodeEscPos(buildDocumentBytes(slipDocument(slip.lines, slip.qr), profile), {
      codePages: codePageNumbers(profile),
    });
    expect(d.problems).toEqual([]);
    expect(d.drawerPulses).toEqual([]);
    expect(d.rasterImages).toHaveLength(1);
    const rgba = toRgba(d.rasterImages[0]!);
    expect(jsQR(rgba.data, rgba.width, rgba.height)?.data).toBe(view.payload);
    const lines = d.lines.map((l) => l.trimEnd()).filter((l) => l !== '');
    expect(lines).toEqual([
      'ОВО НИЈЕ ФИСКАЛНИ РАЧУН',
      'ИПС QR — плаћање инстант трансфером',
      'Скенирајте апликацијом банке: ИПС скенирај',
      'Износ: 1.234,56 RSD',
      'Прималац: Продавница Код Мике',
      'Рачун: 840-0000000955845-10',
      'Позив на број: 975026112816300542',
      'ОВО НИЈЕ ФИСКАЛНИ РАЧУН',
    ]);
  });

  it('a native-QR printer: pL pH count the UTF-8 bytes, so the printer stores the whole text', () => {
    const bytes = nativeQr(view.payload, 6);
    const utf8 = Buffer.from(view.payload, 'utf8');
    const store = bytes.indexOf(Buffer.from([0x31, 0x50, 0x30])) - 5;
    expect(bytes[store + 3]! + bytes[store + 4]! * 256).toBe(utf8.length + 3);
    expect(utf8.length).toBeGreaterThan(view.payload.length); // Cyrillic: more bytes than characters
    const d = decodeEscPos(bytes);
    expect(Buffer.from(d.qr[0]!.data, 'latin1').toString('utf8')).toBe(view.payload);
    expect(d.qr[0]).toMatchObject({ model: 2, cellSize: 6, correction: 'M' });
  });
});
