/**
 * Generates the app icons in resources/icons/ without any network or image tool: a teal rounded square
 * with a white receipt (zigzag tear-off edge) carrying a teal "K". Drawn with 4x4 supersampling.
 *
 *   npx node resources/build/make-icons.ts
 *
 * Writes NxN.png (16 … 1024; electron-builder's Linux icon set), icon.png (512), icon.ico (16/24/32/48/64
 * as 32-bit BMP entries, 128 and 256 as PNG entries: Windows and NSIS) and icon.icns (ic07–ic10 PNG
 * entries: macOS). The outputs are committed; run again only when the design changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'icons');
const TEAL = [15, 118, 110] as const;
const WHITE = [255, 255, 255] as const;

type Rgb = readonly [number, number, number];

/** Colour at (u, v) in the unit square, or null (transparent). */
function shade(u: number, v: number): Rgb | null {
  // Rounded square background (corner radius 0.2, 3% margin).
  const m = 0.03;
  const r = 0.2;
  if (u < m || v < m || u > 1 - m || v > 1 - m) return null;
  const cx = Math.min(Math.max(u, m + r), 1 - m - r);
  const cy = Math.min(Math.max(v, m + r), 1 - m - r);
  if ((u - cx) ** 2 + (v - cy) ** 2 > r * r) return null;
  // The receipt: a white strip with a zigzag bottom edge.
  const left = 0.26;
  const right = 0.74;
  const top = 0.16;
  const bottom = 0.8;
  if (u >= left && u <= right && v >= top) {
    const teeth = 6;
    const w = (right - left) / teeth;
    const phase = ((u - left) % w) / w;
    const edge = bottom + 0.05 * (phase < 0.5 ? phase * 2 : (1 - phase) * 2);
    if (v <= edge) return inK(u, v) ? TEAL : WHITE;
  }
  return TEAL;
}

/** The letter K on the receipt: a stem and two arms, as thick segments. */
function inK(u: number, v: number): boolean {
  const t = 0.055;
  const seg = (x1: number, y1: number, x2: number, y2: number): boolean => {
    const dx = x2 - x1;
    const dy = y2 - y1;
    const k = Math.max(0, Math.min(1, ((u - x1) * dx + (v - y1) * dy) / (dx * dx + dy * dy)));
    return (u - x1 - k * dx) ** 2 + (v - y1 - k * dy) ** 2 <= t * t;
  };
  return seg(0.39, 0.3, 0.39, 0.68) || seg(0.41, 0.5, 0.61, 0.3) || seg(0.45, 0.46, 0.62, 0.68);
}

export function render(size: number): PNG {
  const png = new PNG({ width: size, height: size });
  const ss = 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const c = shade((x + (sx + 0.5) / ss) / size, (y + (sy + 0.5) / ss) / size);
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a++;
        }
      }
      const i = (y * size + x) * 4;
      png.data[i] = a ? Math.round(r / a) : 0;
      png.data[i + 1] = a ? Math.round(g / a) : 0;
      png.data[i + 2] = a ? Math.round(b / a) : 0;
      png.data[i + 3] = Math.round((255 * a) / (ss * ss));
    }
  }
  return png;
}

/** A 32-bit BGRA DIB (bottom-up, with an all-zero AND mask) as stored in an ICO entry. */
function dib(png: PNG): Buffer {
  const { width: w, height: h } = png;
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(w, 4);
  header.writeInt32LE(h * 2, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  const pixels = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const s = (y * w + x) * 4;
      const d = ((h - 1 - y) * w + x) * 4;
      pixels[d] = png.data[s + 2] as number;
      pixels[d + 1] = png.data[s + 1] as number;
      pixels[d + 2] = png.data[s] as number;
      pixels[d + 3] = png.data[s + 3] as number;
    }
  }
  const mask = Buffer.alloc(Math.ceil(w / 32) * 4 * h);
  header.writeUInt32LE(pixels.length + mask.length, 20);
  return Buffer.concat([header, pixels, mask]);
}

export function ico(images: { size: number; data: Buffer }[]): Buffer {
  const head = Buffer.alloc(6);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2);
  head.writeUInt16LE(images.length, 4);
  const entries: Buffer[] = [];
  let offset = 6 + 16 * images.length;
  for (const img of images) {
    const e = Buffer.alloc(16);
    e.writeUInt8(img.size >= 256 ? 0 : img.size, 0);
    e.writeUInt8(img.size >= 256 ? 0 : img.size, 1);
    e.writeUInt8(0, 2);
    e.writeUInt8(0, 3);
    e.writeUInt16LE(1, 4);
    e.writeUInt16LE(32, 6);
    e.writeUInt32LE(img.data.length, 8);
    e.writeUInt32LE(offset, 12);
    offset += img.data.length;
    entries.push(e);
  }
  return Buffer.concat([head, ...entries, ...images.map((i) => i.data)]);
}

export function icns(entries: { type: string; png: Buffer }[]): Buffer {
  const parts = entries.map((e) => {
    const h = Buffer.alloc(8);
    h.write(e.type, 0, 'ascii');
    h.writeUInt32BE(8 + e.png.length, 4);
    return Buffer.concat([h, e.png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + parts.reduce((n, p) => n + p.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

function main(): void {
  fs.mkdirSync(OUT, { recursive: true });
  const pngs = new Map<number, { png: PNG; bytes: Buffer }>();
  for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) {
    const png = render(size);
    const bytes = PNG.sync.write(png, { colorType: 6 });
    pngs.set(size, { png, bytes });
    fs.writeFileSync(path.join(OUT, `${size}x${size}.png`), bytes);
  }
  const get = (s: number): { png: PNG; bytes: Buffer } => pngs.get(s) as { png: PNG; bytes: Buffer };
  fs.writeFileSync(path.join(OUT, 'icon.png'), get(512).bytes);
  fs.writeFileSync(
    path.join(OUT, 'icon.ico'),
    ico([
      ...[16, 24, 32, 48, 64].map((s) => ({ size: s, data: dib(get(s).png) })),
      { size: 128, data: get(128).bytes },
      { size: 256, data: get(256).bytes },
    ]),
  );
  fs.writeFileSync(
    path.join(OUT, 'icon.icns'),
    icns([
      { type: 'ic07', png: get(128).bytes },
      { type: 'ic08', png: get(256).bytes },
      { type: 'ic09', png: get(512).bytes },
      { type: 'ic10', png: get(1024).bytes },
    ]),
  );
  process.stdout.write(`icons written to ${OUT}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
