/**
 * Shelf labels (issue 42, owned by electron/labels, docs/prices.md "Shelf labels"): the label of each chosen product
 * with its price in force now, printed on a label printer (ZPL or TSPL) or as A4 sheets (PDF), and which labels are
 * out of date. A manager's work: every command carries a manager's PIN (or the manager logged in is taken).
 *
 * Net quantities are decimal on the wire (0,5 kg), thousandths inside; label sizes in mm.
 */
import { z } from 'zod';
import { command, managerOnly } from './define.ts';
import * as s from './schemas.ts';
import { PrinterUri } from './printer.ts';
import type { PdfFile } from './goods.ts';
import type { LabelContent } from '../labels/label.ts';
import type { LabelScript } from '../i18n/labels.ts';

const { managerPin } = s;

/** Which products: chosen ones by code, a group, or every product whose label is out of date. */
export const LabelSelection = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('products'),
      codes: z.array(s.text(32), { error: 'codes' }).min(1, { error: 'required' }).max(5000, { error: 'too_many' }),
    }),
    z.strictObject({ kind: z.literal('group'), group: s.text(60) }),
    z.strictObject({ kind: z.literal('changed') }),
  ],
  { error: 'labels_selection' },
);
export type LabelSelection = z.infer<typeof LabelSelection>;

const script = z.enum(['sr-Cyrl', 'sr-Latn'], { error: 'labels_script' });

const LabelsInput = { managerPin, selection: LabelSelection, script };

export const LabelsPrintInput = z.strictObject({
  ...LabelsInput,
  copies: s.wholeNumber(1, 50, { below: 'positive', above: 'too_many' }).optional(),
});
export type LabelsPrintInput = z.infer<typeof LabelsPrintInput>;

export const LabelsPdfInput = z.strictObject({
  ...LabelsInput,
  stock: z.string({ error: 'text' }).min(1, { error: 'required' }).max(40, { error: 'too_long' }),
});
export type LabelsPdfInput = z.infer<typeof LabelsPdfInput>;

const millimetres = z
  .number({ error: 'number' })
  .finite({ error: 'number' })
  .positive({ error: 'positive' })
  .max(1000, { error: 'too_long' });

export const LabelPrinterInput = z.strictObject({
  managerPin,
  uri: PrinterUri,
  presetId: z.string({ error: 'text' }).min(1, { error: 'required' }).max(40, { error: 'too_long' }),
  widthMm: millimetres,
  heightMm: millimetres,
  /** Die-cut labels with a gap between them, or a black mark on the back. */
  media: z.enum(['gap', 'mark'], { error: 'labels_media' }),
  mediaMm: z
    .number({ error: 'number' })
    .finite({ error: 'number' })
    .min(0, { error: 'non_negative' })
    .max(20, { error: 'too_long' }),
});
export type LabelPrinterInput = z.infer<typeof LabelPrinterInput>;

export const LabelProductInput = z.strictObject({
  managerPin,
  code: s.text(32),
  /** A piece's net quantity in `netUnit` (0,5 kg); null: none entered. */
  netQuantity: s.quantity.nullable(),
  netUnit: z.enum(['kg', 'l'], { error: 'labels_net_unit' }).nullable(),
  /** False for goods the Pravilnik does not name (and gift packs, fruit sold by the piece): no unit price. */
  unitPriceRequired: z.boolean({ error: 'boolean' }),
});
export type LabelProductInput = z.infer<typeof LabelProductInput>;

export interface LabelPresetView {
  id: string;
  name: string;
  language: 'zpl' | 'tspl';
  dpi: number;
  minWidthMm: number;
  maxWidthMm: number;
  minHeightMm: number;
  maxHeightMm: number;
}

export interface SheetStockView {
  id: string;
  name: string;
}

export interface LabelPrinterView {
  uri: string;
  presetId: string;
  widthMm: number;
  heightMm: number;
  media: 'gap' | 'mark';
  mediaMm: number;
}

export interface LabelsOverview {
  presets: LabelPresetView[];
  stocks: SheetStockView[];
  printer: LabelPrinterView | null;
  groups: string[];
  /** Products whose label is out of date (never printed, or its price, previous price or unit price changed). */
  changed: number;
}

/** One product's label as it would print now. */
export interface LabelView extends LabelContent {
  /** When its label was last printed (ISO), or null. */
  printedAt: string | null;
  netQuantityMilli: number | null;
  netUnit: 'kg' | 'l' | null;
  unitPriceRequired: boolean;
}

export interface LabelProductView {
  code: string;
  netQuantityMilli: number | null;
  netUnit: 'kg' | 'l' | null;
  unitPriceRequired: boolean;
}

export interface LabelsPreview {
  script: LabelScript;
  labels: LabelView[];
}

export const labelsCommands = {
  'labels.overview': managerOnly<LabelsOverview>(
    'The label printer presets, the A4 label stocks, the saved label printer, the groups and how many labels are out of date.',
  ),
  'labels.preview': command<LabelsPreview>('manager')(
    z.strictObject(LabelsInput),
    'The labels of the chosen products as they would print now (price in force, unit price, promotion); nothing recorded. A product that needs a unit price and has no net quantity is refused at `netQuantity`.',
  ),
  'labels.print': command<{ printed: number }>('manager')(
    LabelsPrintInput,
    'Prints the labels on the saved label printer in its language (ZPL or TSPL) as one job; once the printer took every byte, records each label as printed (what it showed, when) in one transaction and audits it. Nothing is recorded when the job fails.',
  ),
  'labels.pdf': command<PdfFile>('manager')(
    LabelsPdfInput,
    'The labels on A4 sheets of the chosen label stock (PDF, fonts embedded); records each label as printed and audits it.',
  ),
  'labels.printerSet': command<LabelPrinterView>('manager')(
    LabelPrinterInput,
    'Saves the label printer: its address (TCP, device path or OS queue), its preset and the label size and media. A size the preset does not take is refused at its field.',
  ),
  'labels.productSet': command<LabelProductView>('manager')(
    LabelProductInput,
    "Sets a product's net quantity (for its unit price) and whether its label shows a unit price.",
  ),
} as const;
