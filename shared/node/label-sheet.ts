/**
 * Shelf labels on A4 sheets of self-adhesive labels (docs/prices.md, "Shelf labels"), for a shop with an office
 * printer and no label printer. The stocks are sold in Serbia under these names; their label size and the sheet's
 * margins are the makers' (Avery Zweckform 3474 and 3652, Avery L7160 and L7163; Herma sells the same formats). The
 * labels fill the sheet row by row; each draws what a label printer's does (shared/labels/label.ts), in DejaVu Sans
 * embedded, with its barcode drawn as bars from the same modules.
 */
import { barcodeModules, quietModules } from '../labels/barcode.ts';
import type { LabelContent } from '../labels/label.ts';
import { startPdf } from './a4.ts';

export interface SheetStock {
  id: string;
  /** The maker's name of the stock and its layout: what a shop asks for at the stationer's. */
  name: string;
  columns: number;
  rows: number;
  widthMm: number;
  heightMm: number;
  /** The sheet's margins and the gaps between labels. */
  topMm: number;
  leftMm: number;
  gapXMm: number;
  gapYMm: number;
}

export const SHEET_STOCKS: readonly SheetStock[] = [
  {
    id: 'avery-3474',
    name: 'Avery Zweckform 3474 (3 × 8, 70 × 37 mm)',
    columns: 3,
    rows: 8,
    widthMm: 70,
    heightMm: 37,
    topMm: 0.5,
    leftMm: 0,
    gapXMm: 0,
    gapYMm: 0,
  },
  {
    id: 'avery-3652',
    name: 'Avery Zweckform 3652 (3 × 7, 70 × 42,3 mm)',
    columns: 3,
    rows: 7,
    widthMm: 70,
    heightMm: 42.3,
    topMm: 0.45,
    leftMm: 0,
    gapXMm: 0,
    gapYMm: 0,
  },
  {
    id: 'avery-l7160',
    name: 'Avery L7160 (3 × 7, 63,5 × 38,1 mm)',
    columns: 3,
    rows: 7,
    widthMm: 63.5,
    heightMm: 38.1,
    topMm: 15.15,
    leftMm: 7.2,
    gapXMm: 2.5,
    gapYMm: 0,
  },
  {
    id: 'avery-l7163',
    name: 'Avery L7163 (2 × 7, 99,1 × 38,1 mm)',
    columns: 2,
    rows: 7,
    widthMm: 99.1,
    heightMm: 38.1,
    topMm: 15.15,
    leftMm: 4.65,
    gapXMm: 2.5,
    gapYMm: 0,
  },
];

export function findSheetStock(id: string): SheetStock | undefined {
  return SHEET_STOCKS.find((s) => s.id === id);
}

const PT = 72 / 25.4;

/** The PDF of `labels` on sheets of `stock`; resolves to its bytes. */
export function labelSheetPdf(input: {
  labels: readonly LabelContent[];
  stock: SheetStock;
  title: string;
  author: string;
  createdAt: Date;
}): Promise<Uint8Array> {
  const { stock } = input;
  const { doc, done } = startPdf({
    title: input.title,
    author: input.author,
    createdAt: input.createdAt,
    margins: { top: 0, bottom: 0, left: 0, right: 0 },
  });
  const perSheet = stock.columns * stock.rows;
  const w = stock.widthMm * PT;
  const h = stock.heightMm * PT;
  // Office printers leave about 4 mm at the sheet's edges unprinted: the text keeps 3.5 mm from a label's sides.
  const pad = 3.5 * PT;
  const inner = w - 2 * pad;
  input.labels.forEach((label, i) => {
    if (i > 0 && i % perSheet === 0) doc.addPage();
    const cell = i % perSheet;
    const x = (stock.leftMm + (cell % stock.columns) * (stock.widthMm + stock.gapXMm)) * PT;
    const top = (stock.topMm + Math.floor(cell / stock.columns) * (stock.heightMm + stock.gapYMm)) * PT;
    let y = top + 2.5 * PT;
    doc.fillColor('black');
    doc.font('bold').fontSize(8.5);
    // pdfkit's line wrapper measures every word again: a name that fits on one line (most do) goes without it,
    // and the single-line texts below never use it (bench/labels.bench.ts: the PDF was the slowest of the outputs).
    if (doc.widthOfString(label.name) <= inner) {
      doc.text(label.name, x + pad, y, { lineBreak: false });
      y += doc.currentLineHeight(true) - 1 + 1;
    } else {
      doc.text(label.name, x + pad, y, { width: inner, height: 21, ellipsis: true, lineGap: -1 });
      // Where the name ended (two lines, or one cut): pdfkit leaves its cursor under the text.
      y = Math.min(doc.y, y + 21) + 1;
    }
    doc
      .font('bold')
      .fontSize(18)
      .text(label.price, x + pad, y, { lineBreak: false, continued: false });
    const priceWidth = doc.widthOfString(label.price);
    doc
      .font('regular')
      .fontSize(9)
      .text(` ${label.currency}`, x + pad + priceWidth, y + 8, { lineBreak: false });
    y += 21;
    doc.font('regular').fontSize(6.5);
    for (const [text, strike] of [
      [label.oldPrice, true],
      [label.promotion, false],
      [label.unitPrice, false],
    ] as const) {
      if (text === null) continue;
      doc.text(text, x + pad, y, { lineBreak: false, strike });
      y += 8;
    }
    if (label.barcode) {
      const modules = barcodeModules(label.barcode);
      const bottom = top + h - 2 * PT;
      const digits = 7;
      const barTop = y + 1;
      const barHeight = bottom - digits - barTop;
      const module = Math.min(0.33 * PT, inner / (modules.length + 2 * quietModules(label.barcode.symbology)));
      if (barHeight > 8) {
        const bx = x + (w - modules.length * module) / 2;
        // One rectangle per bar (a run of dark modules), not one per module.
        for (const bar of modules.matchAll(/1+/g))
          doc.rect(bx + bar.index * module, barTop, bar[0].length * module, barHeight);
        doc.fill('black');
        doc.font('regular').fontSize(6);
        const digitsX = x + (w - doc.widthOfString(label.barcode.data)) / 2;
        doc.text(label.barcode.data, digitsX, bottom - digits + 1, { lineBreak: false });
      }
    }
  });
  if (input.labels.length === 0) doc.font('regular').fontSize(10).text(' ', 0, 0);
  doc.end();
  return done;
}
