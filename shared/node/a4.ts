/**
 * A4 documents, made in the core (no window needed: a scheduled export makes them too). Every A4 document of the
 * till goes through `a4Pdf`, so they all look alike:
 *
 * - the title block: the shop's name (bold), its PIB and address, then the document's title and its lines
 *   (number, period, supplier …);
 * - one table: columns by relative width, numbers right-aligned, long text wrapped within its column, the header
 *   repeated at the top of every page; then its totals in bold;
 * - paragraphs after the table (signature lines);
 * - on every page: the print date in the shop's zone (Europe/Belgrade) and „Страна N од M“.
 *
 * The caller formats every cell (money with `formatRsd`, quantities with `formatQuantity`, days with `kepDate`):
 * this module draws, it does not know what a para is. The text is in DejaVu Sans (resources/fonts, Cyrillic and
 * Latin with Č Ć Đ Š Ž), embedded as a subset.
 *
 *     const bytes = await a4Pdf({ language, shop, title: 'Попис бр. 1/2026', lines: ['Датум: 28.11.2026.'],
 *       columns: [{ header: 'Шифра', width: 1 }, { header: 'Износ', width: 1, align: 'right' }],
 *       rows: [['A1', '1.234,00']], totals: [['Укупно', '1.234,00']], printedAt: new Date() });
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type PDFDocumentClass from 'pdfkit';
import type { Language } from '../domain.ts';
import { A4_WORDS } from '../i18n/documents.ts';
import { formatMoment } from '../i18n/time.ts';
import { interpolate } from '../i18n/catalog.ts';

/** The shop a document is of, as its title block shows it ('' where not set). */
export interface ShopIdentity {
  name: string;
  pib: string;
  address: string;
}

export interface A4Column {
  header: string;
  /** Relative width: the columns share the page's width in proportion to it. */
  width: number;
  /** Numbers are right-aligned; text is left-aligned (the default). */
  align?: 'left' | 'right';
}

export interface A4Input {
  language: Language;
  shop: ShopIdentity;
  title: string;
  /** Lines under the title: the document's number, date, period, supplier … */
  lines?: readonly string[];
  columns: readonly A4Column[];
  /** One string per column, already formatted. */
  rows: readonly (readonly string[])[];
  /** Rows printed bold under the table (one string per column; '' leaves a cell empty). */
  totals?: readonly (readonly string[])[];
  /** Paragraphs after the table: notes, signature lines. */
  after?: readonly string[];
  /** A wide table (more than about eight columns) reads better across the page. */
  landscape?: boolean;
  printedAt: Date;
}

const MARGIN = 36;
const FOOTER = 24;
const CELL_PAD = 3;
const BODY = 8.5;
const HEADER = 8;

/** DejaVu Sans: beside the app in a package (extraResources), else the repository's resources/fonts. */
function fontPath(file: string): string {
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  if (packaged) {
    const p = join(packaged, 'fonts', file);
    if (existsSync(p)) return p;
  }
  return fileURLToPath(new URL(`../../resources/fonts/${file}`, import.meta.url));
}

/**
 * DejaVu Sans regular and bold, each parsed once by fontkit for every document the process makes: pdfkit takes a
 * parsed font in place of a path (its font factory uses an object that lays text out as it is) and embeds a new
 * subset of it in each document, so a document no longer reads and parses the two files again (the labels' PDF
 * spent most of its time there under load; docs/prices.md "Where the PDF's time goes"). fontkit's glyph and layout
 * caches live on the font, so what one document shaped the next reuses.
 */
interface ParsedFont {
  postscriptName: string;
  characterSet: number[];
  layout(text: string): unknown;
  glyphForCodePoint(codePoint: number): unknown;
}
/**
 * pdfkit and fontkit are loaded at the first document, not when the process starts: the till and the hub make no
 * PDF at most starts, and loading the two (fontkit unpacks its Unicode tables as it loads) cost about a quarter of
 * a CPU-second at each start. Both through `require`, so pdfkit's fontkit and ours are one copy (pdfkit's ES build
 * loaded a second one beside it).
 */
const nodeRequire = createRequire(import.meta.url);
let pdfkit: typeof PDFDocumentClass | undefined;
const loadPdfkit = (): typeof PDFDocumentClass => (pdfkit ??= nodeRequire('pdfkit') as typeof PDFDocumentClass);
// fontkit ships no types: what is used here (https://github.com/foliojs/fontkit: `create`, `characterSet`,
// `glyphForCodePoint`), typed as used.
let fontkit: { create(bytes: Uint8Array): ParsedFont } | undefined;
const parsedFonts = new Map<string, ParsedFont>();
function parsedFont(file: string): ParsedFont {
  let font = parsedFonts.get(file);
  if (!font) {
    fontkit ??= nodeRequire('fontkit') as { create(bytes: Uint8Array): ParsedFont };
    font = fontkit.create(readFileSync(fontPath(file)));
    // fontkit keeps a glyph with the characters it was first asked for. A document's subset asks for the parts of
    // composite glyphs (Cyrillic е is drawn from Latin e) without any: the next document would then write Latin e
    // with no character behind it (a PDF reader's copy or search loses it). Each glyph asked for by its character
    // first, once, keeps its character for every document.
    for (const codePoint of font.characterSet) font.glyphForCodePoint(codePoint);
    parsedFonts.set(file, font);
  }
  return font;
}

/**
 * A new A4 PDF with DejaVu Sans registered as `regular` and `bold` (embedded as subsets), and its bytes once it
 * ends: the one start of every A4 document (this table layout, the shelf label sheets of label-sheet.ts).
 */
export function startPdf(options: {
  title: string;
  author: string;
  createdAt: Date;
  landscape?: boolean | undefined;
  margins: { top: number; bottom: number; left: number; right: number };
}): { doc: PDFKit.PDFDocument; done: Promise<Uint8Array> } {
  const PDFDocument = loadPdfkit();
  const doc = new PDFDocument({
    size: 'A4',
    layout: options.landscape ? 'landscape' : 'portrait',
    margins: options.margins,
    bufferPages: true,
    info: { Title: options.title, Author: options.author, CreationDate: options.createdAt },
  });
  // A parsed font where the types name only a path or bytes: pdfkit's font factory takes either (see parsedFont).
  doc.registerFont('regular', parsedFont('DejaVuSans.ttf') as unknown as PDFKit.Mixins.PDFFontSource);
  doc.registerFont('bold', parsedFont('DejaVuSans-Bold.ttf') as unknown as PDFKit.Mixins.PDFFontSource);
  // Chosen by its registered name only: pdfkit keeps a font by the name it was first chosen by, and one first chosen
  // by its path (the `font` option) was parsed again from the file at every `font('regular')` (1,000 shelf labels
  // took 51 s; bench/labels.bench.ts).
  doc.font('regular');
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  return { doc, done };
}

/** Makes the PDF of one A4 document; resolves to its bytes. */
export function a4Pdf(input: A4Input): Promise<Uint8Array> {
  const words = A4_WORDS[input.language];
  const { doc, done } = startPdf({
    title: input.title,
    author: input.shop.name,
    createdAt: input.printedAt,
    landscape: input.landscape,
    margins: { top: MARGIN, bottom: MARGIN + FOOTER, left: MARGIN, right: MARGIN },
  });

  const left = MARGIN;
  const usable = doc.page.width - 2 * MARGIN;
  const bottom = (): number => doc.page.height - MARGIN - FOOTER;
  const weight = input.columns.reduce((s, c) => s + c.width, 0) || 1;
  const widths = input.columns.map((c) => (usable * c.width) / weight);
  const xs = widths.map((_w, i) => left + widths.slice(0, i).reduce((s, w) => s + w, 0));

  // The title block.
  const shop = input.shop;
  doc
    .font('bold')
    .fontSize(11)
    .text(shop.name || words.notSet, left, MARGIN, { width: usable });
  doc
    .font('regular')
    .fontSize(9)
    .text(`${words.pib}: ${shop.pib || words.notSet}`, { width: usable });
  if (shop.address) doc.text(shop.address, { width: usable });
  doc.moveDown(0.8);
  doc.font('bold').fontSize(14).text(input.title, { width: usable });
  doc.font('regular').fontSize(9);
  for (const line of input.lines ?? []) doc.text(line, { width: usable });
  doc.moveDown(0.8);

  const rowHeight = (cells: readonly string[], font: 'regular' | 'bold', size: number): number => {
    doc.font(font).fontSize(size);
    return (
      Math.max(
        ...cells.map((c, i) => doc.heightOfString(c || ' ', { width: (widths[i] ?? 0) - 2 * CELL_PAD })),
        doc.currentLineHeight(),
      ) +
      2 * CELL_PAD
    );
  };

  const drawRow = (cells: readonly string[], y: number, font: 'regular' | 'bold', size: number, h: number): void => {
    doc.font(font).fontSize(size);
    cells.forEach((c, i) => {
      const col = input.columns[i];
      if (!col || !c) return;
      doc.text(c, (xs[i] ?? left) + CELL_PAD, y + CELL_PAD, {
        width: (widths[i] ?? 0) - 2 * CELL_PAD,
        align: col.align ?? 'left',
        lineBreak: true,
        height: h,
      });
    });
  };

  const header = input.columns.map((c) => c.header);
  const drawHeader = (): number => {
    const y = doc.y;
    const h = rowHeight(header, 'bold', HEADER);
    doc.save().rect(left, y, usable, h).fill('#e8e8e8').restore();
    doc.fillColor('black');
    drawRow(header, y, 'bold', HEADER, h);
    doc
      .moveTo(left, y + h)
      .lineTo(left + usable, y + h)
      .lineWidth(0.8)
      .stroke();
    return y + h;
  };

  let y = drawHeader();
  const place = (cells: readonly string[], font: 'regular' | 'bold', size: number): void => {
    const h = rowHeight(cells, font, size);
    if (y + h > bottom()) {
      doc.addPage();
      doc.y = MARGIN;
      y = drawHeader();
    }
    drawRow(cells, y, font, size, h);
    y += h;
    doc
      .moveTo(left, y)
      .lineTo(left + usable, y)
      .lineWidth(0.3)
      .strokeColor('#999999')
      .stroke()
      .strokeColor('black');
  };
  for (const row of input.rows) place(row, 'regular', BODY);
  if (input.totals?.length) {
    doc
      .moveTo(left, y)
      .lineTo(left + usable, y)
      .lineWidth(0.8)
      .stroke();
    for (const row of input.totals) place(row, 'bold', BODY);
  }
  doc.y = y + 14;
  doc.x = left;
  doc.font('regular').fontSize(9);
  for (const p of input.after ?? []) {
    if (doc.y + 2 * doc.currentLineHeight() > bottom()) {
      doc.addPage();
      doc.y = MARGIN;
    }
    doc.text(p, left, doc.y, { width: usable });
    doc.moveDown(0.6);
  }

  // On every page: the print date and „Страна N од M“, below the bottom margin (written without a page break).
  const printed = interpolate(words.printed, { at: formatMoment(input.printedAt, input.language) });
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const keep = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const fy = doc.page.height - MARGIN - 10;
    doc.font('regular').fontSize(8).fillColor('#333333');
    doc.text(printed, left, fy, { width: usable / 2, lineBreak: false });
    doc.text(interpolate(words.page, { page: i + 1, pages: range.count }), left + usable / 2, fy, {
      width: usable / 2,
      align: 'right',
      lineBreak: false,
    });
    doc.fillColor('black');
    doc.page.margins.bottom = keep;
  }
  doc.end();
  return done;
}
