/**
 * The project's own ESC/POS decoder, used by tests (and handy when debugging a printer): it reads the
 * bytes a printer would receive and reports what would come out — text lines decoded through the
 * code page selected with `ESC t` (reset by `ESC @`), QR symbols, raster images, cuts and drawer pulses,
 * in print order.
 */
import { decodeByte, type CodePageName } from './codepages.ts';

/** A native QR symbol (`GS ( k`, cn 49). */
export interface DecodedQr {
  data: string;
  cellSize: number;
  model: number;
  correction: 'L' | 'M' | 'Q' | 'H';
}

/** A `GS v 0` image; consecutive bands of the same width are joined into one image. */
export interface DecodedRaster {
  width: number;
  height: number;
  /** Packed rows, MSB first, 1 = black. */
  bits: Uint8Array;
}

/** A `ESC p` pulse. */
export interface DrawerPulse {
  pin: number;
  on: number;
  off: number;
}

/** What happens on paper, in order. */
export type DecodedEvent =
  | { type: 'text'; text: string; align: 'left' | 'center' | 'right'; font: 'A' | 'B'; bold: boolean }
  | { type: 'qr'; qr: DecodedQr }
  | { type: 'raster'; image: DecodedRaster }
  | { type: 'cut'; partial: boolean }
  | { type: 'drawer'; pulse: DrawerPulse };

export interface Decoded {
  /** Text lines as printed, decoded per the code page in force for each byte. */
  lines: string[];
  qr: DecodedQr[];
  cuts: number;
  drawerPulses: DrawerPulse[];
  rasterImages: DecodedRaster[];
  events: DecodedEvent[];
  /** Problems a printer would show as garbage: unknown commands, unknown `ESC t` numbers, truncation. */
  problems: string[];
  /** Text that an `ESC @` threw away before it was printed. */
  discarded: string[];
}

/** Options: the printer's `ESC t` table (number → page); the Epson table by default. */
export interface DecodeOptions {
  codePages?: Record<number, CodePageName>;
}

/** Epson's `ESC t` numbers for the pages Kasa knows. */
export const EPSON_CODE_PAGES: Record<number, CodePageName> = {
  0: 'CP437',
  18: 'CP852',
  34: 'CP855',
  45: 'CP1250',
  46: 'CP1251',
};

const CORRECTION = ['L', 'M', 'Q', 'H'] as const;

/** Decodes printer bytes into what the printer would print. */
export function decodeEscPos(bytes: Uint8Array, options: DecodeOptions = {}): Decoded {
  const pages = options.codePages ?? EPSON_CODE_PAGES;
  const out: Decoded = {
    lines: [],
    qr: [],
    cuts: 0,
    drawerPulses: [],
    rasterImages: [],
    events: [],
    problems: [],
    discarded: [],
  };
  let page: CodePageName | null = pages[0] ?? 'CP437';
  let align: 'left' | 'center' | 'right' = 'left';
  let font: 'A' | 'B' = 'A';
  let bold = false;
  let text = '';
  let pendingText = false;
  const qrState = { model: 2, cellSize: 3, correction: 'L' as DecodedQr['correction'], data: '' };
  let lastRaster: DecodedRaster | null = null;

  const flush = () => {
    out.lines.push(text);
    out.events.push({ type: 'text', text, align, font, bold });
    text = '';
    pendingText = false;
  };
  const event = (e: DecodedEvent) => {
    if (e.type !== 'raster') lastRaster = null;
    out.events.push(e);
  };
  const need = (i: number, n: number) => {
    if (i + n > bytes.length) {
      out.problems.push(`truncated command at ${i}`);
      return false;
    }
    return true;
  };

  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b === 0x0a) {
      flush();
      lastRaster = null;
      i++;
    } else if (b === 0x1b) {
      if (!need(i, 2)) break;
      const c = bytes[i + 1]!;
      const arg = bytes[i + 2] ?? 0;
      switch (c) {
        case 0x40: // ESC @
          if (pendingText) out.discarded.push(text);
          text = '';
          pendingText = false;
          page = pages[0] ?? 'CP437';
          align = 'left';
          font = 'A';
          bold = false;
          i += 2;
          continue;
        case 0x74: // ESC t n
          if (!need(i, 3)) break;
          page = pages[arg] ?? null;
          if (page === null) out.problems.push(`ESC t ${arg}: code page not in the table`);
          i += 3;
          continue;
        case 0x61: // ESC a n
          align = arg === 1 || arg === 49 ? 'center' : arg === 2 || arg === 50 ? 'right' : 'left';
          i += 3;
          continue;
        case 0x4d: // ESC M n
          font = arg === 1 || arg === 49 ? 'B' : 'A';
          i += 3;
          continue;
        case 0x45: // ESC E n
          bold = (arg & 1) === 1;
          i += 3;
          continue;
        case 0x64: // ESC d n: print and feed n lines
          if (pendingText) flush();
          lastRaster = null;
          i += 3;
          continue;
        case 0x70: // ESC p m t1 t2
          if (!need(i, 5)) break;
          {
            const pulse = { pin: arg, on: bytes[i + 3]!, off: bytes[i + 4]! };
            out.drawerPulses.push(pulse);
            event({ type: 'drawer', pulse });
          }
          i += 5;
          continue;
        case 0x21: // ESC ! n
        case 0x2d: // ESC - n
        case 0x33: // ESC 3 n
        case 0x4a: // ESC J n
        case 0x47: // ESC G n
        case 0x52: // ESC R n
        case 0x56: // ESC V n
        case 0x7b: // ESC { n
        case 0x20: // ESC SP n
          i += 3;
          continue;
        case 0x32: // ESC 2
          i += 2;
          continue;
        default:
          out.problems.push(`unknown ESC 0x${c.toString(16)} at ${i}`);
          i += 2;
          continue;
      }
      break;
    } else if (b === 0x1d) {
      if (!need(i, 2)) break;
      const c = bytes[i + 1]!;
      if (c === 0x56) {
        // GS V m [n]
        const m = bytes[i + 2] ?? 0;
        if (pendingText) out.discarded.push(text);
        text = '';
        pendingText = false;
        out.cuts++;
        event({ type: 'cut', partial: m === 1 || m === 49 || m === 66 });
        i += m === 65 || m === 66 ? 4 : 3;
      } else if (c === 0x28 && bytes[i + 2] === 0x6b) {
        // GS ( k pL pH cn fn …
        if (!need(i, 7)) break;
        const len = bytes[i + 3]! + bytes[i + 4]! * 256;
        const body = bytes.subarray(i + 5, i + 5 + len);
        if (body.length < len) {
          out.problems.push(`truncated GS ( k at ${i}`);
          break;
        }
        const [cn, fn] = [body[0], body[1]];
        if (cn === 49) {
          if (fn === 65) qrState.model = (body[2] ?? 50) - 48;
          else if (fn === 67) qrState.cellSize = body[2] ?? 3;
          else if (fn === 69) qrState.correction = CORRECTION[(body[2] ?? 48) - 48] ?? 'L';
          else if (fn === 80) qrState.data = Buffer.from(body.subarray(3)).toString('latin1');
          else if (fn === 81) {
            const qr = {
              data: qrState.data,
              cellSize: qrState.cellSize,
              model: qrState.model,
              correction: qrState.correction,
            };
            out.qr.push(qr);
            event({ type: 'qr', qr });
          }
        }
        i += 5 + len;
      } else if (c === 0x76 && bytes[i + 2] === 0x30) {
        // GS v 0 m xL xH yL yH d…
        if (!need(i, 8)) break;
        const w = bytes[i + 4]! + bytes[i + 5]! * 256;
        const h = bytes[i + 6]! + bytes[i + 7]! * 256;
        const data = bytes.subarray(i + 8, i + 8 + w * h);
        if (data.length < w * h) {
          out.problems.push(`truncated GS v 0 at ${i}`);
          break;
        }
        const prev: DecodedRaster | null = lastRaster;
        if (prev !== null && prev.width === w * 8) {
          const joined = new Uint8Array(prev.bits.length + data.length);
          joined.set(prev.bits);
          joined.set(data, prev.bits.length);
          prev.bits = joined;
          prev.height += h;
        } else {
          if (pendingText) flush();
          const image = { width: w * 8, height: h, bits: Uint8Array.from(data) };
          out.rasterImages.push(image);
          event({ type: 'raster', image });
          lastRaster = image;
        }
        i += 8 + w * h;
      } else if (c === 0x21 || c === 0x42 || c === 0x48 || c === 0x66 || c === 0x68 || c === 0x77) {
        i += 3; // GS ! / GS B / GS H / GS f / GS h / GS w: one argument
      } else if (c === 0x4c || c === 0x57) {
        i += 4; // GS L / GS W: two arguments
      } else {
        out.problems.push(`unknown GS 0x${c.toString(16)} at ${i}`);
        i += 2;
      }
    } else if (b === 0x1c && (bytes[i + 1] === 0x2e || bytes[i + 1] === 0x26)) {
      i += 2; // FS . / FS &: Kanji mode off/on
    } else if (b < 0x20) {
      i++; // CR, HT and other controls print nothing here
    } else {
      text += page === null ? '\ufffd' : decodeByte(page, b);
      pendingText = true;
      lastRaster = null;
      i++;
    }
  }
  if (pendingText) out.problems.push(`text left unprinted at the end: ${JSON.stringify(text)}`);
  return out;
}
