/**
 * Receipt layout → ESC/POS bytes. Pure: no I/O, no clock.
 *
 * Text mode prints with the printer's own font: the journal line for line, never re-wrapped, each run of
 * text in a code page that has its letters (`ESC t` before a run whose page differs; the page and font are
 * set again after every `ESC @`, including the one node-thermal-printer's cut sends). Serbian Latin
 * letters (Š Đ Č Ć Ž) are not in CP1251/CP855, so a line that has them switches to the profile's Latin-2
 * page (CP1250/CP852) for that run and back. A line no code page of the profile can print, or longer than
 * the profile's columns, is drawn as an image with the bundled font instead of being wrapped or mangled.
 * Raster mode draws the whole receipt as one 1-bit image sent in `GS v 0` bands.
 */
import ntp from 'node-thermal-printer';
import type { ReceiptView } from '../../shared/domain.ts';
import type { PrinterProfile } from './profiles.ts';
import { encodeRuns, SERBIAN_CYRILLIC, SERBIAN_LATIN_DIACRITICS, type CodePageName } from './codepages.ts';
import {
  createBitmap,
  drawQr,
  drawText,
  fontFor,
  qrCellSize,
  qrMatrix,
  rasterCommands,
  QR_QUIET,
  type Bitmap,
} from './raster.ts';

/** Width of the gateway's journal lines. */
export const JOURNAL_COLUMNS = 40;
/** The journal line the QR code goes before. */
export const END_MARKER = 'КРАЈ ФИСКАЛНОГ РАЧУНА';

/** One printable element of a document. */
export type Block =
  | { type: 'text'; text: string; align: 'left' | 'center'; bold?: boolean }
  | { type: 'qr'; data: string }
  | { type: 'feed'; lines: number };

/** A document to print: its blocks, then feed, cut and (optionally) a drawer kick. */
export interface PrintDocument {
  blocks: Block[];
  openDrawer: boolean;
}

/** Options of `buildReceiptBytes`. */
export interface ReceiptOptions {
  /** Shop text above the journal. */
  header?: string;
  /** Shop text below the journal. */
  footer?: string;
  /** Kick the cash drawer (cash payments), when the profile has one. */
  openDrawer?: boolean;
  /** Overrides the profile's mode. */
  mode?: 'text' | 'raster';
}

/** The journal's lines, verbatim (a final newline does not make an extra empty line). */
export function journalLines(journal: string): string[] {
  const lines = journal.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Shop text split into lines and hard-wrapped to `columns` (it is not part of the journal). */
function shopLines(text: string | undefined, columns: number): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const chars = [...line];
    if (chars.length === 0) out.push('');
    for (let i = 0; i < chars.length; i += columns) out.push(chars.slice(i, i + columns).join(''));
  }
  return out;
}

/** The receipt as blocks: header, the journal with the QR before its end marker, footer. */
export function receiptDocument(
  receipt: ReceiptView,
  profile: PrinterProfile,
  options: ReceiptOptions = {},
): PrintDocument {
  const blocks: Block[] = [];
  for (const line of shopLines(options.header, profile.columns))
    blocks.push({ type: 'text', text: line, align: 'center', bold: true });
  const lines = journalLines(receipt.journal);
  const end = lines.findIndex((l) => l.includes(END_MARKER));
  lines.forEach((line, i) => {
    if (i === end && receipt.verificationUrl) blocks.push({ type: 'qr', data: receipt.verificationUrl });
    blocks.push({ type: 'text', text: line, align: 'left' });
  });
  if (end < 0 && receipt.verificationUrl) blocks.push({ type: 'qr', data: receipt.verificationUrl });
  for (const line of shopLines(options.footer, profile.columns))
    blocks.push({ type: 'text', text: line, align: 'center' });
  return { blocks, openDrawer: options.openDrawer === true };
}

/** A test page: every Serbian letter in both scripts, the code pages in use, a QR code. */
export function testPageDocument(profile: PrinterProfile, when: string): PrintDocument {
  const t = (text: string, align: 'left' | 'center' = 'left'): Block => ({ type: 'text', text, align });
  const chunk = (s: string, n: number): string[] => {
    const chars = [...s];
    const out: string[] = [];
    for (let i = 0; i < chars.length; i += n) out.push(chars.slice(i, i + n).join(''));
    return out;
  };
  const half = SERBIAN_CYRILLIC.length / 2;
  return {
    openDrawer: false,
    blocks: [
      { type: 'text', text: 'KASA — ТЕСТ ШТАМПАЧА', align: 'center', bold: true },
      t(profile.name, 'center'),
      t(when, 'center'),
      t(`${profile.paperMm} mm, ${profile.dots} dots, font ${profile.font}, ${profile.mode}`),
      t(`code pages: ${profile.textPages.map((p) => `${p}=${profile.codePages[p] ?? '?'}`).join(' ') || '-'}`),
      t('1234567890'.repeat(4)),
      t('Ћирилица:'),
      ...chunk(SERBIAN_CYRILLIC.slice(0, half), 30).map((s) => t(s)),
      ...chunk(SERBIAN_CYRILLIC.slice(half), 30).map((s) => t(s)),
      t('Ђ Ј Љ Њ Ћ Џ ђ ј љ њ ћ џ'),
      t('Latinica: Š Đ Č Ć Ž š đ č ć ž'),
      t('Ćevapčići, Đurđevdan, Šljivovica, Žito'),
      t('Мешано: Čačak / Чачак, Niš / Ниш'),
      t(`Sva slova: ${SERBIAN_LATIN_DIACRITICS}`),
      { type: 'qr', data: 'https://tap.sandbox.suf.purs.gov.rs/v/?vl=KASA-TEST' },
      t('======== КРАЈ ТЕСТА ========', 'center'),
    ],
  };
}

/**
 * A non-fiscal slip (e.g. an order not yet fiscalized), printed as given; with `qr`, its code is printed before
 * line `qr.at` as the receipt's QR is (native or raster, the largest cell that fits): the IPS QR slip.
 */
export function slipDocument(lines: readonly string[], qr?: { data: string; at: number }): PrintDocument {
  const blocks: Block[] = lines.map((text) => ({ type: 'text', text, align: 'left' }));
  if (qr) blocks.splice(Math.max(0, Math.min(qr.at, blocks.length)), 0, { type: 'qr', data: qr.data });
  return { openDrawer: false, blocks };
}

/** Builds the bytes of a fiscal receipt for `profile`. Pure. */
export function buildReceiptBytes(receipt: ReceiptView, profile: PrinterProfile, options: ReceiptOptions = {}): Buffer {
  return buildDocumentBytes(receiptDocument(receipt, profile, options), profile, options.mode);
}

/** `ESC p m t1 t2`: a well-formed 5-byte drawer pulse (node-thermal-printer's is malformed). */
export function drawerPulse(pin: 0 | 1): Buffer {
  return Buffer.from([0x1b, 0x70, pin, 0x19, 0xfa]);
}

const ESC_INIT = Buffer.from([0x1b, 0x40]);
const LF = Buffer.from([0x0a]);
const feed = (n: number): Buffer => Buffer.from([0x1b, 0x64, n]);
const selectPage = (n: number): Buffer => Buffer.from([0x1b, 0x74, n]);

/** node-thermal-printer as a command factory: run `fn` on a buffer-only printer, take its bytes. */
function commands(fn: (p: ntp.ThermalPrinter) => void): Buffer {
  const p = new ntp.ThermalPrinter({ type: ntp.PrinterTypes.EPSON, interface: '' });
  fn(p);
  const out = p.getBuffer() ?? Buffer.alloc(0);
  p.clear();
  return Buffer.from(out);
}

// Fixed commands, built once.
const CMD = {
  left: commands((p) => p.alignLeft()),
  center: commands((p) => p.alignCenter()),
  boldOn: commands((p) => p.bold(true)),
  boldOff: commands((p) => p.bold(false)),
  fontA: commands((p) => p.setTypeFontA()),
  fontB: commands((p) => p.setTypeFontB()),
  fullCut: commands((p) => p.cut({ verticalTabAmount: 1 })),
  partialCut: commands((p) => p.partialCut({ verticalTabAmount: 1 })),
};

/** Builds the bytes of any document for `profile`, in the profile's mode unless `mode` overrides it. */
export function buildDocumentBytes(doc: PrintDocument, profile: PrinterProfile, mode?: 'text' | 'raster'): Buffer {
  const textMode = (mode ?? profile.mode) === 'text' && profile.textPages.length > 0;
  const parts: Buffer[] = [ESC_INIT];
  const primary = profile.textPages[0];
  let page: CodePageName | undefined;
  const resetState = () => {
    // After ESC @ the printer is back on its power-on page and font A: set both again.
    if (textMode && primary !== undefined) {
      parts.push(selectPage(profile.codePages[primary] ?? 0), profile.font === 'B' ? CMD.fontB : CMD.fontA);
      page = primary;
    }
  };
  resetState();

  if (textMode) {
    let align: 'left' | 'center' = 'left';
    const setAlign = (a: 'left' | 'center') => {
      if (a !== align) parts.push(a === 'center' ? CMD.center : CMD.left);
      align = a;
    };
    for (const block of doc.blocks) {
      if (block.type === 'feed') {
        parts.push(feed(block.lines));
      } else if (block.type === 'qr') {
        setAlign('center');
        parts.push(qrBytes(block.data, profile));
        setAlign('left');
      } else {
        const runs = [...block.text].length <= profile.columns ? encodeRuns(block.text, profile.textPages, page) : null;
        if (runs === null) {
          // Unprintable in the printer's pages, or too long: an image of the line, never wrapped.
          parts.push(rasterCommands(linesBitmap([block], profile)));
          continue;
        }
        setAlign(block.align);
        if (block.bold) parts.push(CMD.boldOn);
        for (const run of runs) {
          if (run.page !== page) parts.push(selectPage(profile.codePages[run.page] ?? 0));
          page = run.page;
          parts.push(run.bytes);
        }
        if (block.bold) parts.push(CMD.boldOff);
        parts.push(LF);
      }
    }
    setAlign('left');
  } else {
    parts.push(rasterCommands(linesBitmap(doc.blocks, profile)));
  }

  if (profile.cutter === 'none') {
    parts.push(feed(4));
  } else {
    parts.push(profile.cutter === 'full' ? CMD.fullCut : CMD.partialCut);
    resetState();
  }
  if (doc.openDrawer && profile.drawerPin !== null) parts.push(drawerPulse(profile.drawerPin));
  return Buffer.concat(parts);
}

/** The QR code: native `GS ( k` (model 2, error correction M) or a raster image, sized to the paper. */
function qrBytes(data: string, profile: PrinterProfile): Buffer {
  const m = qrMatrix(data);
  const cell = qrCellSize(m.size, profile.dots);
  if (profile.qr === 'native') return Buffer.concat([nativeQr(data, cell), feed(1)]);
  return rasterCommands(qrBitmap(data, profile.dots));
}

/**
 * `GS ( k`, function 165/167/169/180/181: model 2 (explicitly: Star's printQR defaults to model 1; Kasa builds ESC/POS,
 * Star in emulation mode), the cell size, error correction M, the data stored, printed. Built here rather than with
 * node-thermal-printer's printQR, whose store command counts the data's UTF-16 code units for pL pH but sends its UTF-8
 * bytes: a code with a Cyrillic or Latin diacritic letter (the IPS QR's payee name) was cut short by the printer and
 * the rest of its bytes printed as text. pL pH here are the UTF-8 byte count + 3.
 */
export function nativeQr(data: string, cellSize: number): Buffer {
  const bytes = Buffer.from(data, 'utf8');
  const n = bytes.length + 3;
  return Buffer.concat([
    Buffer.from([0x1d, 0x28, 0x6b, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00]),
    Buffer.from([0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x43, cellSize]),
    Buffer.from([0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x45, 0x31]),
    Buffer.from([0x1d, 0x28, 0x6b, n % 256, Math.floor(n / 256), 0x31, 0x50, 0x30]),
    bytes,
    Buffer.from([0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x51, 0x30]),
  ]);
}

/** A bitmap of the paper's width with the QR of `data` centred, with its quiet zone. */
export function qrBitmap(data: string, dots: number): Bitmap {
  const m = qrMatrix(data);
  const cell = qrCellSize(m.size, dots);
  const side = (m.size + 2 * QR_QUIET) * cell;
  const b = createBitmap(dots, side);
  drawQr(b, m, Math.floor((dots - m.size * cell) / 2), QR_QUIET * cell, cell);
  return b;
}

/** Draws blocks into one bitmap of the paper's width: the journal block centred on the paper. */
export function linesBitmap(blocks: readonly Block[], profile: PrinterProfile): Bitmap {
  const longest = Math.max(JOURNAL_COLUMNS, ...blocks.map((b) => (b.type === 'text' ? [...b.text].length : 0)));
  const font = fontFor(profile.dots, longest);
  const lineHeight = font.height + 2;
  const qrs = new Map<Block, Bitmap>();
  let height = 0;
  for (const b of blocks) {
    if (b.type === 'text') height += lineHeight;
    else if (b.type === 'feed') height += b.lines * lineHeight;
    else {
      const q = qrBitmap(b.data, profile.dots);
      qrs.set(b, q);
      height += q.height;
    }
  }
  const bmp = createBitmap(profile.dots, height);
  const columns = Math.floor(profile.dots / font.width);
  const left = Math.max(0, Math.floor((profile.dots - Math.min(columns, JOURNAL_COLUMNS) * font.width) / 2));
  let y = 0;
  for (const b of blocks) {
    if (b.type === 'text') {
      const len = [...b.text].length;
      const x = b.align === 'center' ? Math.max(0, Math.floor((profile.dots - len * font.width) / 2)) : left;
      drawText(bmp, font, x, y + 1, b.text);
      if (b.bold) drawText(bmp, font, x + 1, y + 1, b.text);
      y += lineHeight;
    } else if (b.type === 'feed') {
      y += b.lines * lineHeight;
    } else {
      const q = qrs.get(b)!;
      bmp.bits.set(q.bits, y * bmp.bytesPerRow);
      y += q.height;
    }
  }
  return bmp;
}
