/**
 * The verification QR code as a PFR returns it: a base64 GIF ("R0lGOD…"). A two-colour GIF89a (white 0,
 * black 1) with the standard variable-width LZW of the GIF format (min code size 2, codes up to 12 bits).
 */
import QRCode from 'qrcode';

/** Pixels of the QR code of `text`: 1 = black, `scale` pixels a module, `margin` white modules around. */
export function qrPixels(text: string, scale = 4, margin = 2): { width: number; pixels: Uint8Array } {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'L' });
  const n = qr.modules.size;
  const width = (n + 2 * margin) * scale;
  const pixels = new Uint8Array(width * width);
  for (let y = 0; y < width; y++) {
    const my = Math.floor(y / scale) - margin;
    for (let x = 0; x < width; x++) {
      const mx = Math.floor(x / scale) - margin;
      if (mx >= 0 && my >= 0 && mx < n && my < n && qr.modules.get(my, mx)) pixels[y * width + x] = 1;
    }
  }
  return { width, pixels };
}

/** LZW-compresses colour indexes (each < 4) as a GIF image's data, without the sub-block framing. */
function lzw(pixels: Uint8Array): Buffer {
  const minCodeSize = 2;
  const clear = 1 << minCodeSize;
  const eoi = clear + 1;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  let size = minCodeSize + 1;
  const emit = (code: number) => {
    acc |= code << bits;
    bits += size;
    while (bits >= 8) {
      out.push(acc & 0xff);
      acc >>>= 8;
      bits -= 8;
    }
  };
  let table = new Map<number, number>();
  let next = eoi + 1;
  emit(clear);
  let prefix = pixels[0] ?? 0;
  for (let i = 1; i < pixels.length; i++) {
    const k = pixels[i] ?? 0;
    const key = (prefix << 8) | k;
    const hit = table.get(key);
    if (hit !== undefined) {
      prefix = hit;
      continue;
    }
    emit(prefix);
    if (next === 4096) {
      emit(clear);
      table = new Map();
      next = eoi + 1;
      size = minCodeSize + 1;
    } else {
      if (next >= 1 << size) size++;
      table.set(key, next++);
    }
    prefix = k;
  }
  emit(prefix);
  // The decoder adds an entry after the last code too: it widens its codes before reading the end code.
  if (next >= 1 << size && size < 12) size++;
  emit(eoi);
  if (bits > 0) out.push(acc & 0xff);
  return Buffer.from(out);
}

/** A GIF89a of a square two-colour image (`pixels[i]` 0 = white, 1 = black). */
export function gif(width: number, pixels: Uint8Array): Buffer {
  const head = Buffer.alloc(13 + 6 + 10 + 1);
  let o = head.write('GIF89a', 0, 'ascii');
  o = head.writeUInt16LE(width, o);
  o = head.writeUInt16LE(width, o);
  o = head.writeUInt8(0x80, o); // global colour table of 2 entries
  o = head.writeUInt8(0, o); // background: white
  o = head.writeUInt8(0, o); // aspect ratio
  for (const c of [0xff, 0xff, 0xff, 0, 0, 0]) o = head.writeUInt8(c, o);
  o = head.writeUInt8(0x2c, o); // image descriptor
  o = head.writeUInt16LE(0, o);
  o = head.writeUInt16LE(0, o);
  o = head.writeUInt16LE(width, o);
  o = head.writeUInt16LE(width, o);
  o = head.writeUInt8(0, o); // no local table, not interlaced
  head.writeUInt8(2, o); // LZW minimum code size
  const data = lzw(pixels);
  const blocks: Buffer[] = [];
  for (let i = 0; i < data.length; i += 255) {
    const chunk = data.subarray(i, i + 255);
    blocks.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat([head, ...blocks, Buffer.from([0x00, 0x3b])]);
}

/** The base64 GIF of the QR code of `text`, as `verificationQRCode`. */
export function qrGifBase64(text: string): string {
  const { width, pixels } = qrPixels(text);
  return gif(width, pixels).toString('base64');
}
