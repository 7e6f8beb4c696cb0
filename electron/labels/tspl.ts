/**
 * Shelf labels in TSPL/TSPL2, the language of TSC printers and of the cheap label printers that copy it (Xprinter,
 * HPRT, Gprinter …) (TSC, „TSPL/TSPL2 Programming Language“: SIZE and GAP / BLINE set the label in mm, CLS clears
 * the image buffer, BITMAP x,y,width in bytes,height,mode,data draws an image, BAR x,y,w,h a box, BARCODE
 * x,y,"type",height,readable,rotation,narrow,wide,"data" with types "EAN13", "EAN8" and "128" (automatic subsets),
 * PRINT sets,copies; https://github.com/michaelrsweet/lprint/issues/54 shows the BITMAP form a driver sends).
 *
 * Cyrillic: as an image (BITMAP), never TEXT. The TEXT fonts of a TSC are Latin, and a Cyrillic code page exists
 * only on some models and firmwares (CODEPAGE 1251), never on many clones; the Windows drivers of these printers
 * themselves send the page as a bitmap. In BITMAP data a 0 bit prints a dot and a 1 bit leaves it white (the
 * inverse of Kasa's bitmaps, so the bytes are inverted here).
 */
import { textBitmap, type LabelDrawing, type LabelSize } from './layout.ts';
import type { LabelMedia } from './zpl.ts';

/** A number of mm as TSPL reads it: a decimal point, no trailing zeros. */
const mm = (v: number): string => `${Number(v.toFixed(2))} mm`;

/** The data of a quoted TSPL string: a quote is written `\["]`. */
const quoted = (s: string): string => `"${s.replace(/"/g, '\\["]')}"`;

/** One label's TSPL (its SIZE, media and image), printed `copies` times. */
export function labelTspl(d: LabelDrawing, size: LabelSize, media: LabelMedia & { mm: number }, copies = 1): Buffer {
  const parts: Buffer[] = [];
  const line = (s: string): void => void parts.push(Buffer.from(`${s}\r\n`, 'latin1'));
  line(`SIZE ${mm(size.widthMm)},${mm(size.heightMm)}`);
  line(media.kind === 'mark' ? `BLINE ${mm(media.mm)},0 mm` : `GAP ${mm(media.mm)},0 mm`);
  line('CLS');
  for (const e of d.elements) {
    if (e.kind === 'text') {
      const b = textBitmap(e);
      const inverted = Buffer.from(b.bits.map((v) => ~v & 0xff));
      parts.push(Buffer.from(`BITMAP ${e.x},${e.y},${b.bytesPerRow},${b.height},0,`, 'latin1'), inverted);
      line('');
    } else if (e.kind === 'box') {
      line(`BAR ${e.x},${e.y},${e.width},${e.height}`);
    } else {
      const { symbology, data } = e.barcode;
      const [type, body] =
        symbology === 'ean13'
          ? ['EAN13', data.slice(0, 12)]
          : symbology === 'ean8'
            ? ['EAN8', data.slice(0, 7)]
            : ['128', data];
      line(`BARCODE ${e.x},${e.y},"${type}",${e.height},0,0,${e.module},${e.module},${quoted(body)}`);
    }
  }
  line(`PRINT 1,${copies}`);
  return Buffer.concat(parts);
}
