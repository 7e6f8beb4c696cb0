/**
 * A shelf label laid out in printer dots (docs/prices.md, "Shelf labels"): the one layout every printer language
 * encodes (zpl.ts, tspl.ts) and a test draws to look at. The text is drawn as a 1-bit image in the bundled bitmap
 * font (Terminus, Serbian Cyrillic and Latin): the printer needs no font of its own (see zpl.ts for why). The
 * barcode is left to the printer (it draws bars at its own dot pitch); `drawLabel` draws it the same way for a
 * picture.
 */
import { FONTS, createBitmap, drawText, fillRect, type Bitmap, type BitmapFont } from '../printer/raster.ts';
import { barcodeModules, quietModules, type LabelBarcode } from '../../shared/labels/barcode.ts';
import type { LabelContent } from '../../shared/labels/label.ts';

/** One thing on a label, in dots from its top-left corner. */
export type LabelElement =
  | { kind: 'text'; x: number; y: number; text: string; font: 0 | 1; scale: number }
  | { kind: 'box'; x: number; y: number; width: number; height: number }
  | { kind: 'barcode'; x: number; y: number; height: number; module: number; barcode: LabelBarcode };

export interface LabelDrawing {
  widthDots: number;
  heightDots: number;
  elements: LabelElement[];
}

export interface LabelSize {
  widthMm: number;
  heightMm: number;
  dpi: number;
}

/** Why a label does not fit: the barcode is wider than the label, or nothing is left for it below the text. */
export class LabelFitError extends Error {
  readonly field: 'widthMm' | 'heightMm';
  constructor(field: 'widthMm' | 'heightMm') {
    super(`label does not fit its ${field}`);
    this.field = field;
  }
}

export const fontOf = (e: { font: 0 | 1 }): BitmapFont => FONTS[e.font] as BitmapFont;

/** The text's width in dots. */
export function textWidth(e: { font: 0 | 1; scale: number; text: string }): number {
  return [...e.text].length * fontOf(e).width * e.scale;
}

/** Breaks `text` into at most `lines` lines of `columns` characters, at spaces where it can; the rest is cut. */
function wrap(text: string, columns: number, lines: number): string[] {
  const out: string[] = [];
  let rest = text.trim();
  while (rest.length > 0 && out.length < lines) {
    if ([...rest].length <= columns) {
      out.push(rest);
      break;
    }
    const head = [...rest].slice(0, columns + 1).join('');
    const cut = head.lastIndexOf(' ');
    const take = cut > 0 ? cut : columns;
    out.push(
      out.length === lines - 1
        ? [...rest]
            .slice(0, columns - 1)
            .join('')
            .trimEnd() + '…'
        : rest.slice(0, take),
    );
    rest = rest.slice(take).trimStart();
  }
  return out;
}

/** The largest whole scale of `font` whose letters are at most `dots` high (at least 1). */
const scaleFor = (font: 0 | 1, dots: number): number =>
  Math.max(1, Math.floor(dots / (FONTS[font] as BitmapFont).height));

/** Lays one label out. Throws LabelFitError when the barcode cannot fit. */
export function layoutLabel(label: LabelContent, size: LabelSize): LabelDrawing {
  const perMm = size.dpi / 25.4;
  const widthDots = Math.round(size.widthMm * perMm);
  const heightDots = Math.round(size.heightMm * perMm);
  const margin = Math.round(1.5 * perMm);
  const usable = widthDots - 2 * margin;
  const gap = Math.round(0.6 * perMm);
  const elements: LabelElement[] = [];
  let y = margin;

  // The name: 12×24 letters about 3 mm high, two lines.
  const nameScale = scaleFor(1, 3 * perMm);
  const nameColumns = Math.floor(usable / ((FONTS[1] as BitmapFont).width * nameScale));
  for (const line of wrap(label.name, nameColumns, 2)) {
    elements.push({ kind: 'text', x: margin, y, text: line, font: 1, scale: nameScale });
    y += (FONTS[1] as BitmapFont).height * nameScale;
  }
  y += gap;

  // The price: as large as a quarter of the label's height allows and its width takes, the currency beside it.
  const small = scaleFor(0, 2 * perMm);
  const currency = { kind: 'text' as const, font: 1 as const, scale: nameScale, text: ` ${label.currency}` };
  let priceScale = scaleFor(1, heightDots / 4);
  while (priceScale > 1 && textWidth({ font: 1, scale: priceScale, text: label.price }) + textWidth(currency) > usable)
    priceScale--;
  const priceHeight = (FONTS[1] as BitmapFont).height * priceScale;
  elements.push({ kind: 'text', x: margin, y, text: label.price, font: 1, scale: priceScale });
  const afterPrice = margin + textWidth({ font: 1, scale: priceScale, text: label.price });
  elements.push({ ...currency, x: afterPrice, y: y + priceHeight - (FONTS[1] as BitmapFont).height * nameScale });
  y += priceHeight + gap;

  const smallLine = (text: string | null): void => {
    if (text === null) return;
    elements.push({ kind: 'text', x: margin, y, text, font: 0, scale: small });
    y += (FONTS[0] as BitmapFont).height * small;
  };
  if (label.oldPrice !== null) {
    smallLine(label.oldPrice);
    // The previous price struck through, as shops show it: a line across its figures.
    const last = elements[elements.length - 1] as Extract<LabelElement, { kind: 'text' }>;
    const strikeY = last.y + Math.round(((FONTS[0] as BitmapFont).height * small) / 2);
    elements.push({ kind: 'box', x: last.x, y: strikeY, width: textWidth(last), height: Math.max(1, small) });
  }
  smallLine(label.promotion);
  smallLine(label.unitPrice);

  if (label.barcode) {
    const modules = barcodeModules(label.barcode).length + 2 * quietModules(label.barcode.symbology);
    const module = Math.min(3, Math.floor(usable / modules));
    if (module < 1) throw new LabelFitError('widthMm');
    const digitsHeight = (FONTS[0] as BitmapFont).height * small;
    const barHeight = heightDots - margin - y - gap - digitsHeight;
    if (barHeight < Math.round(4 * perMm)) throw new LabelFitError('heightMm');
    const barWidth = barcodeModules(label.barcode).length * module;
    const x = margin + Math.floor((usable - barWidth) / 2);
    elements.push({ kind: 'barcode', x, y: y + gap, height: barHeight, module, barcode: label.barcode });
    const digits = { kind: 'text' as const, font: 0 as const, scale: small, text: label.barcode.data };
    elements.push({ ...digits, x: margin + Math.floor((usable - textWidth(digits)) / 2), y: y + gap + barHeight });
  } else if (y > heightDots - margin) throw new LabelFitError('heightMm');
  return { widthDots, heightDots, elements };
}

/** A text element alone as a 1-bit image (what a printer is sent instead of text). */
export function textBitmap(e: Extract<LabelElement, { kind: 'text' }>): Bitmap {
  const font = fontOf(e);
  const b = createBitmap(textWidth(e), font.height * e.scale);
  drawText(b, font, 0, 0, e.text, e.scale);
  return b;
}

/** Draws a laid-out label into a 1-bit image, bars included: a picture of what the printer prints. */
export function drawLabel(d: LabelDrawing): Bitmap {
  const b = createBitmap(d.widthDots, d.heightDots);
  for (const e of d.elements) {
    if (e.kind === 'text') drawText(b, fontOf(e), e.x, e.y, e.text, e.scale);
    else if (e.kind === 'box') fillRect(b, e.x, e.y, e.width, e.height);
    else {
      const m = barcodeModules(e.barcode);
      for (let i = 0; i < m.length; i++) if (m[i] === '1') fillRect(b, e.x + i * e.module, e.y, e.module, e.height);
    }
  }
  return b;
}
