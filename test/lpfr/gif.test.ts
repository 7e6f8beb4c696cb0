/**
 * verificationQRCode is a real GIF of the verification URL's QR code: decoded here by a GIF reader written
 * from the format (independent of the encoder's code paths) and read back by jsQR.
 */
import jsQR from 'jsqr';
import { afterEach, describe, expect, it } from 'vitest';
import { gif, qrPixels } from '../support/lpfr-sandbox/gif.ts';
import { LpfrClient } from '../../electron/lpfr/client.ts';
import { invoice, Kit } from './helpers.ts';

const kit = new Kit();
afterEach(() => kit.cleanup());

/** Decodes a single-image, non-interlaced GIF with a global colour table into RGBA. */
function decodeGif(buf: Buffer): { width: number; height: number; rgba: Uint8ClampedArray } {
  expect(buf.toString('ascii', 0, 6)).toBe('GIF89a');
  const width = buf.readUInt16LE(6);
  const height = buf.readUInt16LE(8);
  const packed = buf.readUInt8(10);
  expect(packed & 0x80).toBe(0x80);
  const colours = 2 << (packed & 7);
  const table = buf.subarray(13, 13 + colours * 3);
  let o = 13 + colours * 3;
  expect(buf.readUInt8(o)).toBe(0x2c);
  expect(buf.readUInt16LE(o + 5)).toBe(width);
  o += 10;
  const minCodeSize = buf.readUInt8(o++);
  const parts: Buffer[] = [];
  for (let n = buf.readUInt8(o++); n > 0; n = buf.readUInt8(o++)) {
    parts.push(buf.subarray(o, o + n));
    o += n;
  }
  expect(buf.readUInt8(o)).toBe(0x3b);
  const data = Buffer.concat(parts);
  const clear = 1 << minCodeSize;
  const eoi = clear + 1;
  const out: number[] = [];
  let dict: number[][] = [];
  const reset = () => {
    dict = [];
    for (let i = 0; i < clear; i++) dict.push([i]);
    dict.push([], []);
  };
  reset();
  let size = minCodeSize + 1;
  let bitPos = 0;
  let prev: number[] | null = null;
  const read = (): number => {
    let code = 0;
    for (let i = 0; i < size; i++, bitPos++) {
      const byte = data[bitPos >> 3] ?? 0;
      code |= ((byte >> (bitPos & 7)) & 1) << i;
    }
    return code;
  };
  for (;;) {
    if (bitPos + size > data.length * 8) throw new Error('LZW data ended without an end code');
    const code = read();
    if (code === clear) {
      reset();
      size = minCodeSize + 1;
      prev = null;
      continue;
    }
    if (code === eoi) break;
    let entry: number[];
    if (code < dict.length) entry = dict[code] as number[];
    else if (code === dict.length && prev) entry = [...prev, prev[0] as number];
    else throw new Error(`bad LZW code ${code}`);
    out.push(...entry);
    if (prev) {
      dict.push([...prev, entry[0] as number]);
      if (dict.length === 1 << size && size < 12) size++;
    }
    prev = entry;
  }
  expect(out).toHaveLength(width * height);
  const rgba = new Uint8ClampedArray(width * height * 4);
  out.forEach((idx, i) => {
    rgba[i * 4] = table[idx * 3] ?? 0;
    rgba[i * 4 + 1] = table[idx * 3 + 1] ?? 0;
    rgba[i * 4 + 2] = table[idx * 3 + 2] ?? 0;
    rgba[i * 4 + 3] = 255;
  });
  return { width, height, rgba };
}

describe('verificationQRCode', () => {
  it('the GIF encoder round-trips images long enough to reset the LZW table', () => {
    const width = 300;
    const pixels = new Uint8Array(width * width).map((_, i) => ((i * 2654435761) >>> 13) & 1);
    const { rgba } = decodeGif(gif(width, pixels));
    const wrong = pixels.filter((p, i) => rgba[i * 4] !== (p ? 0 : 255)).length;
    expect(wrong).toBe(0);
    const qr = qrPixels('https://sandbox.suf.purs.gov.rs/v/?vl=AAAA');
    const back = decodeGif(gif(qr.width, qr.pixels));
    expect(back.width).toBe(qr.width);
  });

  it('is a base64 GIF whose QR code reads back as the verificationUrl', async () => {
    const { client, sandbox } = await kit.ready();
    expect(client).toBeInstanceOf(LpfrClient);
    const r = await client.signInvoice(JSON.stringify(invoice()), 'qr-1');
    expect(r.verificationQRCode?.startsWith('R0lGOD')).toBe(true);
    const { width, height, rgba } = decodeGif(Buffer.from(r.verificationQRCode ?? '', 'base64'));
    expect(jsQR(rgba, width, height)?.data).toBe(r.verificationUrl);
    expect(sandbox.controls.ledger().invoices).toHaveLength(1);
  });
});
