/**
 * Reading back what Kasa sends to a label printer (docs/prices.md, "Shelf labels"): the subset of ZPL and TSPL
 * that electron/labels/ emits, parsed into what the printer would draw (images, boxes, barcodes with their data),
 * drawn into a 1-bit picture as the printer would and saved as PNG, so a test checks the fields and a person looks
 * at the label. The barcode's bars are drawn from its data (shared/labels/barcode.ts), as the printer draws them.
 */
import net from 'node:net';
import { PNG } from 'pngjs';
import { keepPicture, shotPath } from './shots.ts';
import { FONTS, createBitmap, drawText, fillRect, getPixel, type Bitmap } from '../../electron/printer/raster.ts';
import { barcodeModules, gs1CheckDigit, type LabelBarcode } from '../../shared/labels/barcode.ts';

export type PrintedElement =
  | { kind: 'image'; x: number; y: number; bitmap: Bitmap }
  | { kind: 'box'; x: number; y: number; width: number; height: number }
  | { kind: 'barcode'; x: number; y: number; module: number; height: number; barcode: LabelBarcode };

export interface PrintedLabel {
  widthDots: number;
  heightDots: number;
  copies: number;
  media: 'gap' | 'mark';
  elements: PrintedElement[];
}

/** EAN data as a printer takes it (without its check digit) back to the full code. */
const withCheck = (body: string): string => body + String(gs1CheckDigit(body));

function bitmapFrom(bytesPerRow: number, height: number, bits: Uint8Array): Bitmap {
  return { width: bytesPerRow * 8, height, bytesPerRow, bits };
}

/** Parses ZPL labels (^XA … ^XZ). */
export function parseZpl(text: string): PrintedLabel[] {
  const labels: PrintedLabel[] = [];
  let cur: PrintedLabel | null = null;
  let x = 0;
  let y = 0;
  let module = 2;
  let pending: { symbology: LabelBarcode['symbology']; height: number } | null = null;
  let hex = false;
  for (const m of text.matchAll(/\^([A-Z@][A-Z0-9@])([^^]*)/g)) {
    const [, cmd = '', rawArgs = ''] = m;
    const args = rawArgs.trim();
    if (cmd === 'XA') {
      cur = { widthDots: 0, heightDots: 0, copies: 1, media: 'gap', elements: [] };
      continue;
    }
    if (!cur) throw new Error(`ZPL ^${cmd} outside a label`);
    const n = args.split(',');
    switch (cmd) {
      case 'PW':
        cur.widthDots = Number(args);
        break;
      case 'LL':
        cur.heightDots = Number(args);
        break;
      case 'MN':
        cur.media = args === 'M' ? 'mark' : 'gap';
        break;
      case 'PQ':
        cur.copies = Number(n[0]);
        break;
      case 'FO':
        x = Number(n[0]);
        y = Number(n[1]);
        break;
      case 'BY':
        module = Number(n[0]);
        break;
      case 'GF': {
        // ^GFA,total,total,bytesPerRow,hex
        const [, total, , perRow, data = ''] = n;
        const bits = new Uint8Array(Buffer.from(data, 'hex'));
        if (bits.length !== Number(total)) throw new Error('^GFA byte count does not match its data');
        cur.elements.push({
          kind: 'image',
          x,
          y,
          bitmap: bitmapFrom(Number(perRow), bits.length / Number(perRow), bits),
        });
        break;
      }
      case 'GB':
        cur.elements.push({ kind: 'box', x, y, width: Number(n[0]), height: Number(n[1]) });
        break;
      case 'BE':
        pending = { symbology: 'ean13', height: Number(n[1]) };
        break;
      case 'B8':
        pending = { symbology: 'ean8', height: Number(n[1]) };
        break;
      case 'BC':
        pending = { symbology: 'code128', height: Number(n[1]) };
        break;
      case 'FH':
        hex = true;
        break;
      case 'FD': {
        if (!pending) throw new Error('^FD without a barcode: Kasa sends no text fields');
        const raw = hex
          ? rawArgs.replace(/_([0-9A-F]{2})/g, (_s, h: string) => String.fromCharCode(parseInt(h, 16)))
          : rawArgs;
        const data = pending.symbology === 'code128' ? raw : withCheck(raw);
        cur.elements.push({
          kind: 'barcode',
          x,
          y,
          module,
          height: pending.height,
          barcode: { symbology: pending.symbology, data },
        });
        pending = null;
        hex = false;
        break;
      }
      case 'XZ':
        labels.push(cur);
        cur = null;
        break;
      default:
        break;
    }
  }
  return labels;
}

/** Parses TSPL labels (SIZE … PRINT), BITMAP data binary (0 = a dot). */
export function parseTspl(bytes: Buffer, dpi: number): PrintedLabel[] {
  const labels: PrintedLabel[] = [];
  const dots = (mm: string): number => Math.round((parseFloat(mm) * dpi) / 25.4);
  let cur: PrintedLabel = { widthDots: 0, heightDots: 0, copies: 1, media: 'gap', elements: [] };
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n', at, 'latin1');
    const head = bytes.subarray(at, end < 0 ? bytes.length : end).toString('latin1');
    if (head.startsWith('BITMAP ')) {
      const [x, y, perRow, height] = head.slice(7).split(',').map(Number) as [number, number, number, number];
      // The data starts after the header's fifth comma (x, y, width, height, mode).
      let comma = -1;
      for (let i = 0; i < 5; i++) comma = head.indexOf(',', comma + 1);
      const start = at + comma + 1;
      const data = bytes.subarray(start, start + perRow * height);
      const bits = new Uint8Array(data.map((v) => ~v & 0xff));
      cur.elements.push({ kind: 'image', x, y, bitmap: bitmapFrom(perRow, height, bits) });
      at = start + perRow * height + 2;
      continue;
    }
    at = (end < 0 ? bytes.length : end) + 2;
    const [cmd = '', ...rest] = head.split(' ');
    const args = rest.join(' ');
    if (cmd === 'SIZE') {
      const [w = '0', h = '0'] = args.split(',');
      cur.widthDots = dots(w);
      cur.heightDots = dots(h);
    } else if (cmd === 'BLINE') cur.media = 'mark';
    else if (cmd === 'BAR') {
      const [x, y, width, height] = args.split(',').map(Number) as [number, number, number, number];
      cur.elements.push({ kind: 'box', x, y, width, height });
    } else if (cmd === 'BARCODE') {
      const m = /^(\d+),(\d+),"([^"]+)",(\d+),\d,\d,(\d+),\d+,"(.*)"$/.exec(args);
      if (!m) throw new Error(`BARCODE not understood: ${args}`);
      const [, x, y, type, height, module, raw = ''] = m;
      const symbology = type === 'EAN13' ? 'ean13' : type === 'EAN8' ? 'ean8' : 'code128';
      const data = symbology === 'code128' ? raw.replace(/\\\["\]/g, '"') : withCheck(raw);
      cur.elements.push({
        kind: 'barcode',
        x: Number(x),
        y: Number(y),
        module: Number(module),
        height: Number(height),
        barcode: { symbology, data },
      });
    } else if (cmd === 'PRINT') {
      cur.copies = Number(args.split(',')[1] ?? 1);
      labels.push(cur);
      cur = { widthDots: cur.widthDots, heightDots: cur.heightDots, copies: 1, media: cur.media, elements: [] };
    }
  }
  return labels;
}

/** The label as the printer would print it. */
export function renderPrinted(label: PrintedLabel): Bitmap {
  const b = createBitmap(label.widthDots, label.heightDots);
  for (const e of label.elements) {
    if (e.kind === 'box') fillRect(b, e.x, e.y, e.width, e.height);
    else if (e.kind === 'image') {
      for (let yy = 0; yy < e.bitmap.height; yy++)
        for (let xx = 0; xx < e.bitmap.width; xx++)
          if (getPixel(e.bitmap, xx, yy)) fillRect(b, e.x + xx, e.y + yy, 1, 1);
    } else {
      const m = barcodeModules(e.barcode);
      for (let i = 0; i < m.length; i++) if (m[i] === '1') fillRect(b, e.x + i * e.module, e.y, e.module, e.height);
    }
  }
  return b;
}

/** True when the image is exactly `text` in one of the bundled fonts at a whole scale (what Kasa draws). */
export function imageReads(image: Bitmap, text: string): boolean {
  return FONTS.some((font, i) => {
    const scale = image.height / font.height;
    if (!Number.isInteger(scale) || scale < 1) return false;
    const width = [...text].length * font.width * scale;
    if (Math.ceil(width / 8) !== image.bytesPerRow) return false;
    const expected = createBitmap(width, font.height * scale);
    drawText(expected, FONTS[i]!, 0, 0, text, scale);
    return Buffer.from(expected.bits).equals(Buffer.from(image.bits));
  });
}

/** The texts of a label's images, each read against the candidates. */
export function textsOf(label: PrintedLabel, candidates: readonly string[]): string[] {
  return label.elements.flatMap((e) =>
    e.kind === 'image' ? candidates.filter((t) => imageReads(e.bitmap, t)).slice(0, 1) : [],
  );
}

/**
 * Keeps a 1-bit picture as `<name>.png` when pictures were asked for (test/support/shots.ts), each dot `zoom`
 * pixels, with a grey frame showing the label's edge.
 */
export function keepLabelPicture(b: Bitmap, name: string, zoom = 2): void {
  if (shotPath(name) === null) return;
  const png = new PNG({ width: b.width * zoom + 4, height: b.height * zoom + 4 });
  png.data.fill(0xa0);
  for (let y = 0; y < b.height * zoom; y++)
    for (let x = 0; x < b.width * zoom; x++) {
      const i = ((y + 2) * png.width + (x + 2)) * 4;
      const v = getPixel(b, Math.floor(x / zoom), Math.floor(y / zoom)) ? 0 : 255;
      png.data[i] = v;
      png.data[i + 1] = v;
      png.data[i + 2] = v;
      png.data[i + 3] = 255;
    }
  keepPicture(name, PNG.sync.write(png));
}

/** A label printer on an ephemeral loopback TCP port that keeps the bytes of every job (one connection each). */
export async function labelPrinter(): Promise<{ port: number; jobs: Buffer[]; close(): Promise<void> }> {
  const jobs: Buffer[] = [];
  const server = net.createServer((s) => {
    const parts: Buffer[] = [];
    s.on('data', (d: Buffer) => parts.push(d));
    s.on('end', () => {
      jobs.push(Buffer.concat(parts));
      s.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return { port, jobs, close: () => new Promise<void>((r) => server.close(() => r())) };
}
