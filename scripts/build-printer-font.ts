/**
 * Development-time converter: turns a PSF2 console font (e.g. Debian console-setup-linux's
 * Uni2-Terminus16.psf.gz, SIL OFL 1.1) into the compact JSON bitmap font the printer's raster mode
 * bundles under resources/fonts/. Only the characters a Serbian receipt needs are kept.
 *
 *   npx node scripts/build-printer-font.ts <font.psf[.gz]> <out.json> "<display name>"
 */
import fs from 'node:fs';
import zlib from 'node:zlib';

const [input, output, displayName] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: build-printer-font.ts <font.psf[.gz]> <out.json> [name]');

let data = fs.readFileSync(input);
if (data[0] === 0x1f && data[1] === 0x8b) data = zlib.gunzipSync(data);
/** A parsed console font: glyph bitmaps (rows of ceil(width/8) bytes) and the Unicode → glyph map. */
interface Psf {
  width: number;
  height: number;
  bitmap(glyph: number): Buffer;
  glyphOf: Map<number, number>;
}

function parsePsf2(buf: Buffer): Psf {
  const headerSize = buf.readUInt32LE(8);
  const flags = buf.readUInt32LE(12);
  const count = buf.readUInt32LE(16);
  const charSize = buf.readUInt32LE(20);
  if ((flags & 1) === 0) throw new Error('font has no Unicode table');
  // Per glyph: UTF-8 characters, 0xFE starts combining sequences (skipped), 0xFF ends the entry.
  const glyphOf = new Map<number, number>();
  let pos = headerSize + count * charSize;
  for (let g = 0; g < count; g++) {
    const start = pos;
    while (pos < buf.length && buf[pos] !== 0xff && buf[pos] !== 0xfe) pos++;
    for (const ch of buf.subarray(start, pos).toString('utf8')) glyphOf.set(ch.codePointAt(0) ?? 0, g);
    while (pos < buf.length && buf[pos] !== 0xff) pos++;
    pos++;
  }
  return {
    width: buf.readUInt32LE(28),
    height: buf.readUInt32LE(24),
    bitmap: (g) => buf.subarray(headerSize + g * charSize, headerSize + (g + 1) * charSize),
    glyphOf,
  };
}

function parsePsf1(buf: Buffer): Psf {
  const mode = buf[2] ?? 0;
  const height = buf[3] ?? 0;
  const count = mode & 1 ? 512 : 256;
  if ((mode & 2) === 0) throw new Error('font has no Unicode table');
  // Per glyph: UCS-2 LE values, 0xFFFE starts sequences (skipped), 0xFFFF ends the entry.
  const glyphOf = new Map<number, number>();
  let pos = 4 + count * height;
  for (let g = 0; g < count; g++) {
    let seq = false;
    for (;;) {
      const v = buf.readUInt16LE(pos);
      pos += 2;
      if (v === 0xffff) break;
      if (v === 0xfffe) seq = true;
      else if (!seq) glyphOf.set(v, g);
    }
  }
  return { width: 8, height, bitmap: (g) => buf.subarray(4 + g * height, 4 + (g + 1) * height), glyphOf };
}

const psf =
  data.readUInt32LE(0) === 0x864ab572 ? parsePsf2(data) : data.readUInt16LE(0) === 0x0436 ? parsePsf1(data) : null;
if (!psf) throw new Error('not a PSF1/PSF2 font');
const { width, height, glyphOf } = psf;

const wanted: number[] = [];
const range = (a: number, b: number) => {
  for (let c = a; c <= b; c++) wanted.push(c);
};
range(0x20, 0x7e); // ASCII
range(0xa0, 0x17f); // Latin-1 supplement, Latin Extended-A (Č Ć Đ Š Ž)
range(0x400, 0x45f); // Cyrillic
for (const c of '–—‘’‚“”„†•…‰‹›€№™−') wanted.push(c.codePointAt(0) ?? 0);

const glyphs: Record<string, string> = {};
for (const cp of wanted) {
  const g = glyphOf.get(cp);
  if (g === undefined) continue;
  glyphs[cp.toString(16)] = psf.bitmap(g).toString('base64');
}
const font = {
  name: displayName ?? 'Kasa Mono',
  derivedFrom:
    'Terminus Font by Dimitar Toshkov Zhekov (SIL OFL 1.1, see OFL-Terminus.txt); renamed per the Reserved Font Name',
  width,
  height,
  bytesPerRow: Math.ceil(width / 8),
  glyphs,
};
fs.writeFileSync(output, JSON.stringify(font) + '\n');
console.log(`${output}: ${width}x${height}, ${Object.keys(glyphs).length} glyphs`);
