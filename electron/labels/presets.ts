/**
 * Label printer presets (docs/prices.md, "Shelf labels"), like the receipt printers' (electron/printer/profiles.ts):
 * which language the printer speaks, its resolution and the widths of label it takes. A label size outside them is
 * refused at its field before anything is sent.
 *
 * Figures from the makers' data sheets: Zebra ZD220/ZD230 and GK420d print 104 mm wide at 203 dpi, the ZD421 at 300
 * dpi 104 mm too; TSC TE200 108 mm at 203 dpi, TE310 105.7 mm at 300 dpi; the Xprinter XP-365B (a cheap TSPL
 * clone common in Serbian shops) takes media 20–80 mm wide at 203 dpi.
 */
export type LabelLanguage = 'zpl' | 'tspl';

export interface LabelPreset {
  id: string;
  /** The models it stands for, as their makers name them. */
  name: string;
  language: LabelLanguage;
  dpi: 203 | 300;
  minWidthMm: number;
  maxWidthMm: number;
  /** The smallest label height the layout fits (name, price, unit price, barcode). */
  minHeightMm: number;
  maxHeightMm: number;
}

export const LABEL_PRESETS: readonly LabelPreset[] = [
  {
    id: 'zebra-203',
    name: 'Zebra ZD220 / ZD230 / GK420d (ZPL, 203 dpi)',
    language: 'zpl',
    dpi: 203,
    minWidthMm: 30,
    maxWidthMm: 104,
    minHeightMm: 25,
    maxHeightMm: 200,
  },
  {
    id: 'zebra-300',
    name: 'Zebra ZD421 300 dpi (ZPL)',
    language: 'zpl',
    dpi: 300,
    minWidthMm: 30,
    maxWidthMm: 104,
    minHeightMm: 25,
    maxHeightMm: 200,
  },
  {
    id: 'tsc-203',
    name: 'TSC TE200 / TE210 (TSPL, 203 dpi)',
    language: 'tspl',
    dpi: 203,
    minWidthMm: 30,
    maxWidthMm: 108,
    minHeightMm: 25,
    maxHeightMm: 200,
  },
  {
    id: 'tsc-300',
    name: 'TSC TE310 (TSPL, 300 dpi)',
    language: 'tspl',
    dpi: 300,
    minWidthMm: 30,
    maxWidthMm: 105,
    minHeightMm: 25,
    maxHeightMm: 200,
  },
  {
    id: 'xprinter-365b',
    name: 'Xprinter XP-365B / XP-360B (TSPL, 203 dpi)',
    language: 'tspl',
    dpi: 203,
    minWidthMm: 30,
    maxWidthMm: 80,
    minHeightMm: 25,
    maxHeightMm: 200,
  },
];

export function findLabelPreset(id: string): LabelPreset | undefined {
  return LABEL_PRESETS.find((p) => p.id === id);
}
