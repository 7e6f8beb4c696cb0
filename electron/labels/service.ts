/**
 * Shelf labels (issue 42, docs/prices.md "Shelf labels"): the one writer of label_products, label_prints and
 * label_printer. A label shows the price in force now (the prices engine, one unit alone), the unit price from the
 * product's net quantity, the barcode and a promotion's previous price and days (shared/labels/label.ts); it goes
 * to the label printer in its language (zpl.ts, tspl.ts) as one job over the receipt printers' transports, or onto
 * A4 sheets (shared/node/label-sheet.ts). What each label showed is recorded once the printer took the job (or the PDF
 * was made), in one transaction: "changed since the last print" compares it with what the label would show now.
 */
import type { Db } from '../db/open.ts';
import { personOf, type AuditDeps, type Caller } from '../auth/context.ts';
import { CommandError, invalidInput } from '../errors.ts';
import type { TransportFactory } from '../printer/transport.ts';
import { checkPrinterDestination } from '../printer/destination.ts';
import { parsePrinterUri } from '../../shared/contract/printer.ts';
import type { PdfFile } from '../../shared/contract/goods.ts';
import type {
  LabelPrinterInput,
  LabelPrinterView,
  LabelProductInput,
  LabelProductView,
  LabelSelection,
  LabelsOverview,
  LabelsPdfInput,
  LabelsPreview,
  LabelsPrintInput,
  LabelView,
} from '../../shared/contract/labels.ts';
import { toMilli, type Para } from '../../shared/money.ts';
import {
  labelContent,
  labelFigures,
  labelProblem,
  type LabelContent,
  type LabelPrice,
  type LabelProduct,
} from '../../shared/labels/label.ts';
import type { LabelScript } from '../../shared/i18n/labels.ts';
import { LABEL_PRESETS, findLabelPreset, type LabelPreset } from './presets.ts';
import { LabelFitError, layoutLabel, type LabelSize } from './layout.ts';
import { labelZpl } from './zpl.ts';
import { labelTspl } from './tspl.ts';
import { SHEET_STOCKS, findSheetStock, labelSheetPdf } from '../../shared/node/label-sheet.ts';

export interface LabelsDeps extends AuditDeps {
  /** The shelf price of each product now (PricesService.shelfPrices). */
  shelfPrices(
    products: readonly { code: string; group: string | null; pricePara: Para }[],
    at: number,
  ): Map<string, { pricePara: Para; regularPara: Para; promotion: { fromDay: string; toDay: string } | null }>;
  transports: TransportFactory;
  /** The shop's name (the PDF's author). */
  shopName(): string;
  env: NodeJS.ProcessEnv;
  now?: () => number;
}

interface ProductRow {
  code: string;
  name: string;
  unit: 'piece' | 'kg' | 'l';
  grp: string | null;
  price_para: number;
  barcode: string | null;
  net_milli: number | null;
  net_unit: 'kg' | 'l' | null;
  unit_price_required: number | null;
  shown: string | null;
  printed_at: string | null;
}

interface PrinterRow {
  uri: string;
  preset: string;
  width_mm: number;
  height_mm: number;
  media: 'gap' | 'mark';
  media_mm: number;
}

const PRODUCT_COLUMNS = `p.code, p.name, p.unit, p.grp, p.price_para,
  (SELECT b.barcode FROM product_barcodes b WHERE b.product_id = p.id ORDER BY b.barcode LIMIT 1) AS barcode,
  lp.net_milli, lp.net_unit, lp.unit_price_required, pr.shown, pr.printed_at
  FROM products p
  LEFT JOIN label_products lp ON lp.product_code = p.code
  LEFT JOIN label_prints pr ON pr.product_code = p.code`;

/** A label's figures as stored with its print: the same in either script. */
const shownOf = (p: LabelProduct, price: LabelPrice): string => JSON.stringify(labelFigures(p, price));

const productOf = (r: ProductRow): LabelProduct => ({
  code: r.code,
  name: r.name,
  unit: r.unit,
  barcode: r.barcode ?? r.code,
  netMilli: r.net_milli,
  netUnit: r.net_unit,
  unitPriceRequired: r.unit_price_required !== 0,
});

export type LabelsService = ReturnType<typeof createLabelsService>;

export function createLabelsService(db: Db, deps: LabelsDeps) {
  const now = (): number => deps.now?.() ?? Date.now();
  const st = {
    all: db.prepare<[], ProductRow>(`SELECT ${PRODUCT_COLUMNS} ORDER BY p.name, p.code`),
    byCodes: db.prepare<[string], ProductRow>(
      `SELECT ${PRODUCT_COLUMNS} WHERE p.code IN (SELECT value FROM json_each(?)) ORDER BY p.name, p.code`,
    ),
    byGroup: db.prepare<[string], ProductRow>(`SELECT ${PRODUCT_COLUMNS} WHERE p.grp = ? ORDER BY p.name, p.code`),
    groups: db.prepare<[], { grp: string }>('SELECT DISTINCT grp FROM products WHERE grp IS NOT NULL ORDER BY grp'),
    printer: db.prepare<[], PrinterRow>('SELECT * FROM label_printer WHERE id = 1'),
    putPrinter: db.prepare(
      `INSERT INTO label_printer (id, uri, preset, width_mm, height_mm, media, media_mm, updated_at)
       VALUES (1, @uri, @preset, @width_mm, @height_mm, @media, @media_mm, @updated_at)
       ON CONFLICT (id) DO UPDATE SET uri = excluded.uri, preset = excluded.preset, width_mm = excluded.width_mm,
         height_mm = excluded.height_mm, media = excluded.media, media_mm = excluded.media_mm,
         updated_at = excluded.updated_at`,
    ),
    putProduct: db.prepare(
      `INSERT INTO label_products (product_code, net_milli, net_unit, unit_price_required, updated_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (product_code) DO UPDATE SET net_milli = excluded.net_milli, net_unit = excluded.net_unit,
         unit_price_required = excluded.unit_price_required, updated_at = excluded.updated_at`,
    ),
    printed: db.prepare(
      `INSERT INTO label_prints (product_code, shown, price_para, printed_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (product_code) DO UPDATE SET shown = excluded.shown, price_para = excluded.price_para,
         printed_at = excluded.printed_at`,
    ),
  };

  interface Made {
    row: ProductRow;
    content: LabelContent;
    pricePara: Para;
    shown: string;
  }

  /** The labels of `rows` now, in `script`; a product needing a unit price without a net quantity is refused. */
  function make(rows: readonly ProductRow[], script: LabelScript, at: number): Made[] {
    const prices = deps.shelfPrices(
      rows.map((r) => ({ code: r.code, group: r.grp, pricePara: r.price_para })),
      at,
    );
    return rows.map((row) => {
      const product = productOf(row);
      if (labelProblem(product) !== null)
        throw invalidInput('netQuantity', 'labels_net_quantity', { name: row.name, code: row.code });
      const price = prices.get(row.code) ?? { pricePara: row.price_para, regularPara: row.price_para, promotion: null };
      return {
        row,
        content: labelContent(product, price, script),
        pricePara: price.pricePara,
        shown: shownOf(product, price),
      };
    });
  }

  /** Every product whose label would show something else now than when it was last printed (or never printed). */
  function changedRows(at: number): ProductRow[] {
    const rows = st.all.all();
    const prices = deps.shelfPrices(
      rows.map((r) => ({ code: r.code, group: r.grp, pricePara: r.price_para })),
      at,
    );
    return rows.filter((r) => {
      if (r.shown === null) return true;
      const price = prices.get(r.code);
      if (!price) return true;
      // A product that cannot have its label yet is out of date too: choosing it names what is missing.
      const product = productOf(r);
      if (labelProblem(product) !== null) return true;
      return shownOf(product, price) !== r.shown;
    });
  }

  function select(selection: LabelSelection, at: number): ProductRow[] {
    let rows: ProductRow[];
    if (selection.kind === 'products') {
      const codes = [...new Set(selection.codes)];
      rows = st.byCodes.all(JSON.stringify(codes));
      const found = new Set(rows.map((r) => r.code));
      const missing = selection.codes.findIndex((c) => !found.has(c));
      if (missing >= 0)
        throw invalidInput(`selection.codes.${missing}`, 'goods_unknown_product', {
          value: selection.codes[missing] ?? '',
        });
    } else if (selection.kind === 'group') {
      rows = st.byGroup.all(selection.group);
      if (rows.length === 0) throw invalidInput('selection.group', 'labels_unknown_group', { value: selection.group });
    } else rows = changedRows(at);
    if (rows.length === 0) throw invalidInput('selection', 'labels_nothing');
    return rows;
  }

  const view = (m: Made): LabelView => ({
    ...m.content,
    printedAt: m.row.printed_at,
    netQuantityMilli: m.row.net_milli,
    netUnit: m.row.net_unit,
    unitPriceRequired: m.row.unit_price_required !== 0,
  });

  /** Records the labels as printed (what they showed, when) in one transaction, and audits it once. */
  function record(made: readonly Made[], where: string, caller: Caller | undefined, at: number): void {
    const printedAt = new Date(at).toISOString();
    db.transaction(() => {
      for (const m of made) st.printed.run(m.row.code, m.shown, m.pricePara, printedAt);
      deps.audit(null, 'labels.printed', { count: made.length, where }, personOf(caller));
    })();
  }

  function printerView(r: PrinterRow): LabelPrinterView {
    return {
      uri: r.uri,
      presetId: r.preset,
      widthMm: r.width_mm,
      heightMm: r.height_mm,
      media: r.media,
      mediaMm: r.media_mm,
    };
  }

  /** Refuses a label size the preset does not take, at its field. */
  function checkSize(preset: LabelPreset, widthMm: number, heightMm: number): void {
    const params = {
      preset: preset.name,
      minWidth: preset.minWidthMm,
      maxWidth: preset.maxWidthMm,
      minHeight: preset.minHeightMm,
      maxHeight: preset.maxHeightMm,
    };
    if (widthMm < preset.minWidthMm || widthMm > preset.maxWidthMm)
      throw invalidInput('widthMm', 'labels_size_unsupported', params);
    if (heightMm < preset.minHeightMm || heightMm > preset.maxHeightMm)
      throw invalidInput('heightMm', 'labels_size_unsupported', params);
  }

  /** The job's bytes: every label laid out for the printer and encoded in its language. */
  function job(made: readonly Made[], printer: PrinterRow, preset: LabelPreset, copies: number): Buffer {
    const size: LabelSize = { widthMm: printer.width_mm, heightMm: printer.height_mm, dpi: preset.dpi };
    return Buffer.concat(
      made.map((m) => {
        let drawing;
        try {
          drawing = layoutLabel(m.content, size);
        } catch (err) {
          if (err instanceof LabelFitError) throw invalidInput(err.field, 'labels_does_not_fit', { name: m.row.name });
          throw err;
        }
        return preset.language === 'zpl'
          ? Buffer.from(labelZpl(drawing, { kind: printer.media }, copies), 'latin1')
          : labelTspl(drawing, size, { kind: printer.media, mm: printer.media_mm }, copies);
      }),
    );
  }

  return {
    overview(): LabelsOverview {
      const printer = st.printer.get();
      return {
        presets: LABEL_PRESETS.map((p) => ({ ...p })),
        stocks: SHEET_STOCKS.map((s) => ({ id: s.id, name: s.name })),
        printer: printer ? printerView(printer) : null,
        groups: st.groups.all().map((g) => g.grp),
        changed: changedRows(now()).length,
      };
    },

    preview(input: { selection: LabelSelection; script: LabelScript }): LabelsPreview {
      const at = now();
      return { script: input.script, labels: make(select(input.selection, at), input.script, at).map(view) };
    },

    /** The labels as one job on the saved printer; recorded once the printer took every byte. */
    async print(input: LabelsPrintInput, caller?: Caller): Promise<{ printed: number }> {
      const printer = st.printer.get();
      const preset = printer ? findLabelPreset(printer.preset) : undefined;
      if (!printer || !preset) throw new CommandError('unavailable', 'labels_no_printer');
      const target = parsePrinterUri(printer.uri);
      if (!target) throw new CommandError('unavailable', 'labels_no_printer');
      const at = now();
      const made = make(select(input.selection, at), input.script, at);
      const bytes = job(made, printer, preset, input.copies ?? 1);
      try {
        await deps.transports(target).send(bytes);
      } catch (err) {
        throw new CommandError('unavailable', 'labels_print_failed', {
          reason: err instanceof Error ? err.message : String(err),
        });
      }
      record(made, preset.id, caller, at);
      return { printed: made.length };
    },

    /** The labels on A4 sheets; recorded as printed. */
    async pdf(input: LabelsPdfInput, caller?: Caller): Promise<PdfFile> {
      const stock = findSheetStock(input.stock);
      if (!stock) throw invalidInput('stock', 'labels_unknown_stock');
      const at = now();
      const made = make(select(input.selection, at), input.script, at);
      const bytes = await labelSheetPdf({
        labels: made.map((m) => m.content),
        stock,
        title: input.script === 'sr-Latn' ? 'Etikete' : 'Етикете',
        author: deps.shopName(),
        createdAt: new Date(at),
      });
      record(made, stock.id, caller, at);
      const day = new Date(at).toISOString().slice(0, 10);
      return { fileName: `etikete-${day}.pdf`, base64: Buffer.from(bytes).toString('base64') };
    },

    setPrinter(input: LabelPrinterInput, caller?: Caller): LabelPrinterView {
      const preset = findLabelPreset(input.presetId);
      if (!preset) throw invalidInput('presetId', 'labels_unknown_preset');
      checkSize(preset, input.widthMm, input.heightMm);
      checkPrinterDestination(input.uri, deps.env);
      const row: PrinterRow = {
        uri: input.uri,
        preset: preset.id,
        width_mm: input.widthMm,
        height_mm: input.heightMm,
        media: input.media,
        media_mm: input.mediaMm,
      };
      db.transaction(() => {
        st.putPrinter.run({ ...row, updated_at: new Date(now()).toISOString() });
        deps.audit(
          null,
          'labels.printerSet',
          { preset: preset.name, widthMm: input.widthMm, heightMm: input.heightMm },
          personOf(caller),
        );
      })();
      return printerView(row);
    },

    setProduct(input: LabelProductInput, caller?: Caller): LabelProductView {
      const [row] = st.byCodes.all(JSON.stringify([input.code]));
      if (!row) throw invalidInput('code', 'goods_unknown_product', { value: input.code });
      if ((input.netQuantity === null) !== (input.netUnit === null))
        throw invalidInput(input.netQuantity === null ? 'netQuantity' : 'netUnit', 'labels_net_pair');
      const netMilli = input.netQuantity === null ? null : toMilli(input.netQuantity);
      db.transaction(() => {
        st.putProduct.run(
          input.code,
          netMilli,
          input.netUnit,
          input.unitPriceRequired ? 1 : 0,
          new Date(now()).toISOString(),
        );
        deps.audit(
          null,
          'labels.productSet',
          { name: row.name, netMilli, netUnit: input.netUnit, unitPriceRequired: input.unitPriceRequired },
          personOf(caller),
        );
      })();
      return {
        code: input.code,
        netQuantityMilli: netMilli,
        netUnit: input.netUnit,
        unitPriceRequired: input.unitPriceRequired,
      };
    },
  };
}
