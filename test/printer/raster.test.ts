/** Raster mode: the whole receipt as a 1-bit image, QR decoded back with jsQR, text against a golden PNG. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { buildReceiptBytes, linesBitmap, type Block } from '../../electron/printer/layout.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { findPreset } from '../../electron/printer/profiles.ts';
import { BAND_ROWS } from '../../electron/printer/raster.ts';
import { SERBIAN_CYRILLIC, SERBIAN_LATIN_DIACRITICS } from '../../electron/printer/codepages.ts';
import { makeReceipt } from './fixtures.ts';
import { toRgba } from './helpers.ts';

const GOLDEN_DIR = path.join(import.meta.dirname, 'golden');
const GS_V_0 = Buffer.from([0x1d, 0x76, 0x30]);

describe('raster mode', () => {
  for (const id of ['zj-5870', 'epson-tm-t88iv', 'epson-tm-t88v']) {
    it(`${id}: one banded image; its QR decodes to the verificationUrl`, () => {
      const profile = findPreset(id)!;
      const receipt = makeReceipt({ seed: `raster-${id}`, latin: true });
      const bytes = buildReceiptBytes(receipt, profile, { mode: 'raster', openDrawer: true });
      const d = decodeEscPos(bytes);
      expect(d.problems).toEqual([]);
      expect(d.lines).toEqual([]); // no text: nothing depends on the printer's code pages
      expect(d.rasterImages).toHaveLength(1);
      const img = d.rasterImages[0]!;
      expect(img.width).toBe(profile.dots);
      // Banded: several GS v 0 commands, none taller than BAND_ROWS.
      let bands = 0;
      for (let i = bytes.indexOf(GS_V_0); i >= 0;) {
        const rows = bytes[i + 6]! + bytes[i + 7]! * 256;
        expect(rows).toBeLessThanOrEqual(BAND_ROWS);
        bands++;
        i = bytes.indexOf(GS_V_0, i + 8 + (bytes[i + 4]! + bytes[i + 5]! * 256) * rows);
      }
      expect(bands).toBe(Math.ceil(img.height / BAND_ROWS));
      const rgba = toRgba(img);
      expect(jsQR(rgba.data, rgba.width, rgba.height)?.data).toBe(receipt.verificationUrl);
      expect(d.cuts).toBe(profile.cutter === 'none' ? 0 : 1);
      expect(d.drawerPulses).toEqual([{ pin: 0, on: 0x19, off: 0xfa }]);
    });
  }

  it('renders text like the golden image (UPDATE_GOLDEN=1 regenerates it)', () => {
    const profile = findPreset('zj-5870')!;
    const receipt = makeReceipt({ seed: 'golden', latin: true });
    const blocks: Block[] = [
      { type: 'text', text: 'Моја радња d.o.o.', align: 'center', bold: true },
      ...receipt.journal
        .trimEnd()
        .split('\r\n')
        .slice(0, 14)
        .map((text): Block => ({ type: 'text', text, align: 'left' })),
      { type: 'text', text: SERBIAN_CYRILLIC.slice(0, 30), align: 'left' },
      { type: 'text', text: SERBIAN_CYRILLIC.slice(30), align: 'left' },
      { type: 'text', text: SERBIAN_LATIN_DIACRITICS, align: 'left' },
    ];
    const rgba = toRgba(linesBitmap(blocks, profile));
    const png = new PNG({ width: rgba.width, height: rgba.height });
    png.data = Buffer.from(rgba.data);
    const file = path.join(GOLDEN_DIR, 'journal-384.png');
    if (process.env.UPDATE_GOLDEN === '1') {
      fs.mkdirSync(GOLDEN_DIR, { recursive: true });
      fs.writeFileSync(file, PNG.sync.write(png));
    }
    const golden = PNG.sync.read(fs.readFileSync(file));
    expect([golden.width, golden.height]).toEqual([rgba.width, rgba.height]);
    expect(Buffer.compare(golden.data, png.data)).toBe(0);
  });
});
