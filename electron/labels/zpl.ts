/**
 * Shelf labels in ZPL II, the language of Zebra printers and their emulations (Zebra, „ZPL II Programming Guide“:
 * ^XA/^XZ a label, ^PW print width and ^LL label length in dots, ^MN media tracking (Y gap or notch, M black mark),
 * ^FO field origin, ^GFA graphic field in ASCII hex, ^GB box, ^BY module width, ^BE EAN-13, ^B8 EAN-8, ^BC Code 128
 * (mode A: the printer chooses the subsets), ^FH hex escapes in field data, ^PQ copies, ^CI28 UTF-8;
 * https://docs.zebra.com/content/tcm/us/en/printers/software/zebra-zpl-ii,-zbi-2,-set-get-do,-mirror,-wml-programming-guide/c-zpl-zpl-commands/r-zpl-ci.html).
 *
 * Cyrillic: the text goes as an image (^GFA) in Kasa's bundled font, not as ^FD text. ZPL prints Cyrillic text only
 * with ^CI28 and a font that has the letters, which on a Zebra is a TrueType font downloaded to it or one of its
 * optional ones (E:TT0003M_.FNT; ARI000.FNT where that lacks a letter), and the ZPL emulations of cheaper makers
 * ship with Latin fonts only: text as text would print boxes on many shops' printers. An image prints the same on
 * every one. The barcode stays native: the printer draws its bars at its own dot pitch, which a scanner reads best.
 */
import { textBitmap, type LabelDrawing } from './layout.ts';

export interface LabelMedia {
  /** Labels separated by a gap (die-cut) or by a black mark on the back. */
  kind: 'gap' | 'mark';
}

/** Field data with ^FH: `^`, `~` and `_` as hex escapes, so data never ends a field early. */
const fieldData = (data: string): string =>
  data.replace(/[\^~_]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** One label's ZPL, printed `copies` times. */
export function labelZpl(d: LabelDrawing, media: LabelMedia, copies = 1): string {
  const out: string[] = [
    '^XA',
    '^CI28',
    `^PW${d.widthDots}`,
    `^LL${d.heightDots}`,
    media.kind === 'mark' ? '^MNM' : '^MNY',
    '^LH0,0',
  ];
  for (const e of d.elements) {
    if (e.kind === 'text') {
      const b = textBitmap(e);
      const total = b.bits.length;
      out.push(
        `^FO${e.x},${e.y}^GFA,${total},${total},${b.bytesPerRow},${Buffer.from(b.bits).toString('hex').toUpperCase()}^FS`,
      );
    } else if (e.kind === 'box') {
      out.push(`^FO${e.x},${e.y}^GB${e.width},${e.height},${Math.min(e.width, e.height)}^FS`);
    } else {
      const { symbology, data } = e.barcode;
      // EAN: the printer computes the check digit from the digits before it.
      const command =
        symbology === 'ean13'
          ? `^BEN,${e.height},N,N^FD${data.slice(0, 12)}`
          : symbology === 'ean8'
            ? `^B8N,${e.height},N,N^FD${data.slice(0, 7)}`
            : `^BCN,${e.height},N,N,N,A^FH^FD${fieldData(data)}`;
      out.push(`^FO${e.x},${e.y}^BY${e.module}${command}^FS`);
    }
  }
  out.push(`^PQ${copies}`, '^XZ');
  return out.join('\n') + '\n';
}
