/**
 * 1-bit images for raster printing: a packed bitmap, the bundled bitmap fonts, QR matrices, and the
 * banded `GS v 0` encoding.
 */
import QRCode from 'qrcode';
import font8x16 from '../../resources/fonts/kasa-mono-8x16.json' with { type: 'json' };
import font12x24 from '../../resources/fonts/kasa-mono-12x24.json' with { type: 'json' };

/** A 1-bit image, rows packed MSB-first, 1 = black dot. */
export interface Bitmap {
  width: number;
  height: number;
  bytesPerRow: number;
  bits: Uint8Array;
}

/** A blank (white) bitmap. */
export function createBitmap(width: number, height: number): Bitmap {
  const bytesPerRow = Math.ceil(width / 8);
  return { width, height, bytesPerRow, bits: new Uint8Array(bytesPerRow * height) };
}

/** True when the dot at (x, y) is black. */
export function getPixel(b: Bitmap, x: number, y: number): boolean {
  if (x < 0 || y < 0 || x >= b.width || y >= b.height) return false;
  return ((b.bits[y * b.bytesPerRow + (x >> 3)] ?? 0) & (0x80 >> (x & 7))) !== 0;
}

/** Blackens a rectangle (clipped to the bitmap). */
export function fillRect(b: Bitmap, x: number, y: number, w: number, h: number): void {
  const x0 = Math.max(0, x);
  const x1 = Math.min(b.width, x + w);
  const y1 = Math.min(b.height, y + h);
  for (let yy = Math.max(0, y); yy < y1; yy++) {
    const row = yy * b.bytesPerRow;
    for (let xx = x0; xx < x1; xx++) b.bits[row + (xx >> 3)]! |= 0x80 >> (xx & 7);
  }
}

/** A monospace bitmap font with Serbian Cyrillic and Latin (derived from Terminus Font, OFL). */
export interface BitmapFont {
  name: string;
  width: number;
  height: number;
  bytesPerRow: number;
  glyph(codePoint: number): Uint8Array | undefined;
}

interface FontFile {
  name: string;
  width: number;
  height: number;
  bytesPerRow: number;
  glyphs: Record<string, string>;
}

function loadFont(file: FontFile): BitmapFont {
  const cache = new Map<number, Uint8Array>();
  for (const [hex, b64] of Object.entries(file.glyphs)) cache.set(parseInt(hex, 16), Buffer.from(b64, 'base64'));
  return {
    name: file.name,
    width: file.width,
    height: file.height,
    bytesPerRow: file.bytesPerRow,
    glyph: (cp) => cache.get(cp),
  };
}

/** The bundled fonts, smallest first. */
export const FONTS: readonly BitmapFont[] = [loadFont(font8x16), loadFont(font12x24)];

/** The largest bundled font that fits `columns` characters into `dots`. */
export function fontFor(dots: number, columns: number): BitmapFont {
  let best = FONTS[0]!;
  for (const f of FONTS) if (f.width * columns <= dots) best = f;
  return best;
}

/**
 * Draws `text` with its top-left corner at (x, y); characters the font lacks print as `?`. `scale` enlarges each
 * dot to a square of that many dots (a shelf label's price).
 */
export function drawText(b: Bitmap, font: BitmapFont, x: number, y: number, text: string, scale = 1): void {
  let cx = x;
  const fallback = font.glyph(0x3f);
  for (const ch of text) {
    const g = font.glyph(ch.codePointAt(0) ?? 0x3f) ?? fallback;
    if (g) {
      for (let row = 0; row < font.height; row++) {
        for (let col = 0; col < font.width; col++) {
          if (((g[row * font.bytesPerRow + (col >> 3)] ?? 0) & (0x80 >> (col & 7))) === 0) continue;
          if (scale === 1) {
            const xx = cx + col;
            const yy = y + row;
            if (xx >= 0 && xx < b.width && yy >= 0 && yy < b.height)
              b.bits[yy * b.bytesPerRow + (xx >> 3)]! |= 0x80 >> (xx & 7);
          } else fillRect(b, cx + col * scale, y + row * scale, scale, scale);
        }
      }
    }
    cx += font.width * scale;
  }
}

/** A QR symbol's modules. */
export interface QrMatrix {
  size: number;
  dark(x: number, y: number): boolean;
}

/**
 * The QR matrix of `data` in byte mode (the mode printers use for `GS ( k`), so the module count is
 * the one a native printer QR has too. Error correction M, as printed by Kasa everywhere.
 */
export function qrMatrix(data: string, correction: 'L' | 'M' | 'Q' | 'H' = 'M'): QrMatrix {
  const qr = QRCode.create([{ data: Buffer.from(data, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: correction });
  const { size, data: modules } = qr.modules;
  return { size, dark: (x, y) => modules[y * size + x] === 1 };
}

/** Quiet zone in modules around a QR symbol. */
export const QR_QUIET = 4;

/** The largest cell size (1-8 dots, as `GS ( k` allows) whose symbol plus quiet zone fits `dots`. */
export function qrCellSize(modules: number, dots: number): number {
  for (let cell = 8; cell > 1; cell--) if ((modules + 2 * QR_QUIET) * cell <= dots) return cell;
  return 1;
}

/** Draws a QR symbol at (x, y), `cell` dots per module, without its quiet zone. */
export function drawQr(b: Bitmap, m: QrMatrix, x: number, y: number, cell: number): void {
  for (let my = 0; my < m.size; my++)
    for (let mx = 0; mx < m.size; mx++) if (m.dark(mx, my)) fillRect(b, x + mx * cell, y + my * cell, cell, cell);
}

/** Default rows per `GS v 0` band: small enough that a printer's input buffer never stalls. */
export const BAND_ROWS = 128;

/**
 * `GS v 0 0 xL xH yL yH d…` commands printing `b`, split into bands of at most `bandRows` rows so big
 * images stream without stalling the printer.
 */
export function rasterCommands(b: Bitmap, bandRows = BAND_ROWS): Buffer {
  const parts: Buffer[] = [];
  for (let y = 0; y < b.height; y += bandRows) {
    const rows = Math.min(bandRows, b.height - y);
    const head = Buffer.from([
      0x1d,
      0x76,
      0x30,
      0x00,
      b.bytesPerRow & 0xff,
      b.bytesPerRow >> 8,
      rows & 0xff,
      rows >> 8,
    ]);
    parts.push(head, Buffer.from(b.bits.buffer, b.bits.byteOffset + y * b.bytesPerRow, rows * b.bytesPerRow));
  }
  return Buffer.concat(parts);
}
