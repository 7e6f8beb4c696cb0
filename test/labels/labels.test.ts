/**
 * Shelf labels (issue 42, docs/prices.md "Shelf labels") through the core with its real SQLite file:
 * - bad input at its field, nothing printed or saved: a product whose goods need a unit price without a net
 *   quantity, a label size the printer preset does not take;
 * - ZPL and TSPL as a printer receives them on a real TCP port (ephemeral): decoded back into the label's size,
 *   media, images (each read back as exactly its text: name, price, unit price, the promotion's previous price and
 *   days) and native barcodes (EAN-13, EAN-8, Code 128 with their data); drawn as the printer would and saved as
 *   PNG (labels-*.png) in KASA_SHOTS, when set, to look at;
 * - the A4 sheet PDF rendered with pdftoppm, its fonts embedded (pdffonts);
 * - "changed since the last print" is exact: nothing after a print, the one product whose price changed after it,
 *   and a failed print records nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { AppError } from '../../shared/contract/index.ts';
import type { LabelsOverview, LabelsPreview } from '../../shared/contract/labels.ts';
import type { PdfFile } from '../../shared/contract/goods.ts';
import { gs1CheckDigit } from '../../shared/labels/barcode.ts';
import { closeCores, fails, MANAGER_PIN, newProduct, ok, startCore, tempDir } from '../support/session.ts';
import {
  keepLabelPicture,
  labelPrinter,
  parseTspl,
  parseZpl,
  renderPrinted,
  textsOf,
  type PrintedLabel,
} from '../support/labels.ts';
import { keepPdfPages, keepPicture } from '../support/shots.ts';

const managerPin = MANAGER_PIN;
const fieldOf = (e: AppError): string | undefined => ('field' in e ? e.field : undefined);
// Saturday 2026-11-28 15:00 in Belgrade: the milk's promotion (27 Nov – 3 Dec) is on.
let clock = Date.parse('2026-11-28T14:00:00Z');
type Core = Awaited<ReturnType<typeof startCore>>;
let c: Core;
const dataDir = tempDir('kasa-labels-');

const ean13 = (body: string): string => body + String(gs1CheckDigit(body));
const MILK = ean13('860000000001');
const YOGURT = '9638507' + String(gs1CheckDigit('9638507'));
const BREAD = 'HL-42';
const APPLES = 'JAB';

async function product(code: string, name: string, price: number, unit: 'piece' | 'kg' | 'l', group: string) {
  await ok(c, 'catalog.put', newProduct(code, price, group, { name, label: 'A', unit }));
}

const count = (table: string): number =>
  c.db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;

/** The label printer's settings as the manager sends them: where it is, its preset, and the stock loaded (mm). */
const printerAt = (
  uri: string,
  presetId: string,
  widthMm: number,
  heightMm: number,
  media: 'gap' | 'mark',
  mediaMm: number,
) => ({ managerPin, uri, presetId, widthMm, heightMm, media, mediaMm });

const ALL = { kind: 'products', codes: [MILK, YOGURT, BREAD, APPLES] } as const;

beforeAll(async () => {
  c = await startCore({ now: () => clock, dataDir, env: { KASA_LANG: 'sr-Cyrl', KASA_PRINTER_ALLOW_LOOPBACK: '1' } });
  await product(MILK, 'Млеко Имлек 2,8% 1 л', 159.99, 'piece', 'Млечни');
  await product(YOGURT, 'Јогурт 500 г', 89.9, 'piece', 'Млечни');
  await product(BREAD, 'Хлеб Сава бели', 65, 'piece', 'Пекара');
  await product(APPLES, 'Јабуке Ајдаред', 129, 'kg', 'Воће');
  await ok(c, 'prices.promotionPut', {
    managerPin,
    name: 'Недеља млека',
    priority: 1,
    code: MILK,
    kind: 'price',
    price: 129.99,
    fromDay: '2026-11-27',
    toDay: '2026-12-03',
  });
}, 60_000);
afterAll(closeCores);

describe('bad input at its field, nothing printed', () => {
  it('goods that need a unit price without a net quantity', async () => {
    const e = await fails(c, 'labels.preview', { managerPin, selection: ALL, script: 'sr-Cyrl' });
    expect(e.code).toBe('invalid_input');
    expect(fieldOf(e)).toBe('netQuantity');
    expect(e.message).toContain('Јогурт 500 г'); // the first by name that lacks it
    expect(e.message).toContain('Ништа није одштампано');
    expect(count('label_prints')).toBe(0);
  });

  it('a label size the preset does not take', async () => {
    const wide = await fails(
      c,
      'labels.printerSet',
      printerAt('tcp://127.0.0.1:9', 'xprinter-365b', 100, 50, 'gap', 2),
    );
    expect(fieldOf(wide)).toBe('widthMm');
    expect(wide.message).toContain('Xprinter XP-365B');
    expect(wide.message).toContain('од 30 до 80 mm');
    const low = await fails(c, 'labels.printerSet', printerAt('tcp://127.0.0.1:9', 'zebra-203', 58, 15, 'gap', 2));
    expect(fieldOf(low)).toBe('heightMm');
    expect(count('label_printer')).toBe(0);
  });

  it('a net quantity without its unit', async () => {
    const e = await fails(c, 'labels.productSet', {
      managerPin,
      code: MILK,
      netQuantity: 1,
      netUnit: null,
      unitPriceRequired: true,
    });
    expect(fieldOf(e)).toBe('netUnit');
    expect(count('label_products')).toBe(0);
  });
});

/** The milk's label, image by image, top to bottom. */
const MILK_TEXTS = [
  'Млеко Имлек 2,8% 1 л',
  '129,99',
  ' дин',
  'Стара цена: 159,99 дин',
  'Акција 27.11.2026.–03.12.2026.',
  'Јединична цена: 129,99 дин/л',
  MILK,
];
const EXPECTED_TEXTS = [
  ...MILK_TEXTS,
  'Јогурт 500 г',
  '89,90',
  'Јединична цена: 179,80 дин/кг',
  YOGURT,
  'Хлеб Сава бели',
  '65,00',
  BREAD,
  'Јабуке Ајдаред',
  '129,00',
  'Јединична цена: 129,00 дин/кг',
  APPLES,
];

function checkLabels(labels: PrintedLabel[], widthDots: number, heightDots: number): void {
  // Sorted by name: Јабуке, Јогурт, Млеко, Хлеб.
  expect(labels).toHaveLength(4);
  for (const l of labels) {
    expect(l.widthDots).toBe(widthDots);
    expect(l.heightDots).toBe(heightDots);
  }
  const [apples, yogurt, milk, bread] = labels as [PrintedLabel, PrintedLabel, PrintedLabel, PrintedLabel];
  expect(textsOf(milk, EXPECTED_TEXTS)).toEqual(MILK_TEXTS);
  expect(milk.elements.filter((e) => e.kind === 'box')).toHaveLength(1); // the previous price struck through
  expect(textsOf(yogurt, EXPECTED_TEXTS)).toContain('Јединична цена: 179,80 дин/кг');
  expect(textsOf(bread, EXPECTED_TEXTS)).toEqual(['Хлеб Сава бели', '65,00', ' дин', BREAD]);
  expect(textsOf(apples, EXPECTED_TEXTS)).toContain('Јединична цена: 129,00 дин/кг');
  const barcodes = labels.map((l) => l.elements.find((e) => e.kind === 'barcode'));
  expect(barcodes.map((b) => (b?.kind === 'barcode' ? b.barcode : null))).toEqual([
    { symbology: 'code128', data: APPLES },
    { symbology: 'ean8', data: YOGURT },
    { symbology: 'ean13', data: MILK },
    { symbology: 'code128', data: BREAD },
  ]);
  // Every image and barcode lies inside the label.
  for (const l of labels)
    for (const e of l.elements) {
      const w = e.kind === 'image' ? e.bitmap.width : e.kind === 'box' ? e.width : 0;
      const h = e.kind === 'image' ? e.bitmap.height : e.height;
      expect(e.x + w).toBeLessThanOrEqual(l.widthDots + 7);
      expect(e.y + h).toBeLessThanOrEqual(l.heightDots);
    }
}

describe('label printers: the bytes on a TCP port', () => {
  it('ZPL at 203 dpi, 58 × 40 mm: fields, text and barcodes decoded, drawn and saved', async () => {
    await ok(c, 'labels.productSet', { managerPin, code: MILK, netQuantity: 1, netUnit: 'l', unitPriceRequired: true });
    await ok(c, 'labels.productSet', {
      managerPin,
      code: YOGURT,
      netQuantity: 0.5,
      netUnit: 'kg',
      unitPriceRequired: true,
    });
    await ok(c, 'labels.productSet', {
      managerPin,
      code: BREAD,
      netQuantity: null,
      netUnit: null,
      unitPriceRequired: false,
    });
    const printer = await labelPrinter();
    try {
      await ok(c, 'labels.printerSet', printerAt(`tcp://127.0.0.1:${printer.port}`, 'zebra-203', 58, 40, 'gap', 2));
      expect(await ok(c, 'labels.print', { managerPin, selection: ALL, script: 'sr-Cyrl' })).toEqual({ printed: 4 });
      expect(printer.jobs).toHaveLength(1);
      const zpl = (printer.jobs[0] as Buffer).toString('latin1');
      expect(zpl).toContain('^CI28');
      // The text went as images: nothing but printable ASCII and line ends on the wire.
      expect([...zpl].every((ch) => ch === '\n' || (ch >= ' ' && ch <= '~'))).toBe(true);
      const labels = parseZpl(zpl);
      checkLabels(labels, 464, 320);
      expect(labels.every((l) => l.media === 'gap' && l.copies === 1)).toBe(true);
      labels.forEach((l, i) => keepLabelPicture(renderPrinted(l), `labels-zpl-203-${i + 1}`));
    } finally {
      await printer.close();
    }
    expect(count('label_prints')).toBe(4);
  });

  it('TSPL at 203 dpi with a black mark, and ZPL at 300 dpi in Latin', async () => {
    const printer = await labelPrinter();
    try {
      await ok(c, 'labels.printerSet', printerAt(`127.0.0.1:${printer.port}`, 'tsc-203', 58, 40, 'mark', 3));
      await ok(c, 'labels.print', { managerPin, selection: ALL, script: 'sr-Cyrl', copies: 2 });
      const tspl = printer.jobs[0] as Buffer;
      expect(tspl.toString('latin1')).toMatch(/^SIZE 58 mm,40 mm\r\nBLINE 3 mm,0 mm\r\nCLS\r\n/);
      const labels = parseTspl(tspl, 203);
      checkLabels(labels, 464, 320);
      expect(labels.every((l) => l.media === 'mark' && l.copies === 2)).toBe(true);
      labels.forEach((l, i) => keepLabelPicture(renderPrinted(l), `labels-tspl-203-${i + 1}`));

      await ok(c, 'labels.printerSet', printerAt(`tcp://127.0.0.1:${printer.port}`, 'zebra-300', 50, 30, 'gap', 2));
      await ok(c, 'labels.print', { managerPin, selection: { kind: 'group', group: 'Млечни' }, script: 'sr-Latn' });
      const latin = parseZpl((printer.jobs[1] as Buffer).toString('latin1'));
      expect(latin).toHaveLength(2);
      const [yogurt, milk] = latin as [PrintedLabel, PrintedLabel];
      expect(
        textsOf(milk, ['Mleko Imlek 2,8% 1 l', 'Stara cena: 159,99 din', 'Akcija 27.11.2026.–03.12.2026.']),
      ).toEqual(['Mleko Imlek 2,8% 1 l', 'Stara cena: 159,99 din', 'Akcija 27.11.2026.–03.12.2026.']);
      expect(textsOf(yogurt, ['Jogurt 500 g', 'Jedinična cena: 179,80 din/kg'])).toEqual([
        'Jogurt 500 g',
        'Jedinična cena: 179,80 din/kg',
      ]);
      keepLabelPicture(renderPrinted(milk), 'labels-zpl-300-latin-milk', 1);
    } finally {
      await printer.close();
    }
  });
});

describe('changed since the last print', () => {
  it('is exact: nothing after a print, then the one product whose price changed; a failed print records nothing', async () => {
    const none = await fails(c, 'labels.preview', { managerPin, selection: { kind: 'changed' }, script: 'sr-Cyrl' });
    expect(fieldOf(none)).toBe('selection');
    expect((await ok<LabelsOverview>(c, 'labels.overview', { managerPin })).changed).toBe(0);
    await ok(c, 'catalog.put', {
      code: BREAD,
      name: 'Хлеб Сава бели',
      price: 69,
      label: 'A',
      unit: 'piece',
      group: 'Пекара',
      favourite: false,
      barcodes: [],
      approval: { managerPin },
    });
    // The promotion ends on 3 December: on the 4th the milk's label is out of date too.
    const changed = await ok<LabelsPreview>(c, 'labels.preview', {
      managerPin,
      selection: { kind: 'changed' },
      script: 'sr-Cyrl',
    });
    expect(changed.labels.map((l) => [l.code, l.price])).toEqual([[BREAD, '69,00']]);
    clock = Date.parse('2026-12-04T10:00:00Z');
    const later = await ok<LabelsPreview>(c, 'labels.preview', {
      managerPin,
      selection: { kind: 'changed' },
      script: 'sr-Cyrl',
    });
    expect(later.labels.map((l) => [l.code, l.price, l.oldPrice])).toEqual([
      [MILK, '159,99', null],
      [BREAD, '69,00', null],
    ]);

    // The printer is gone: refused, and nothing recorded as printed.
    const gone = await labelPrinter();
    const port = gone.port;
    await gone.close();
    await ok(c, 'labels.printerSet', printerAt(`tcp://127.0.0.1:${port}`, 'zebra-203', 58, 40, 'gap', 2));
    const before = c.db.prepare('SELECT * FROM label_prints ORDER BY product_code').all();
    const e = await fails(c, 'labels.print', { managerPin, selection: { kind: 'changed' }, script: 'sr-Cyrl' });
    expect(e.code).toBe('unavailable');
    expect(e.message).toContain('Ништа није забележено као одштампано');
    expect(c.db.prepare('SELECT * FROM label_prints ORDER BY product_code').all()).toEqual(before);
  });
});

describe('A4 sheets', () => {
  it('a PDF on Avery 3474 (3 × 8, 70 × 37 mm), fonts embedded, rendered with pdftoppm', async () => {
    clock = Date.parse('2026-11-28T14:00:00Z');
    const file = await ok<PdfFile>(c, 'labels.pdf', {
      managerPin,
      selection: ALL,
      script: 'sr-Cyrl',
      stock: 'avery-3474',
    });
    const pdf = path.join(dataDir, file.fileName);
    fs.writeFileSync(pdf, Buffer.from(file.base64, 'base64'));
    const fonts = execFileSync('pdffonts', [pdf], { encoding: 'utf8' });
    expect(fonts).toMatch(/DejaVuSans-Bold\s.*\syes\s+yes/);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toContain('Стара цена: 159,99 дин');
    expect(text).toContain('Јединична цена: 179,80 дин/кг');
    execFileSync('pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', pdf, path.join(dataDir, 'a4-avery-3474')]);
    const page1 = path.join(dataDir, 'a4-avery-3474-1.png');
    expect(fs.existsSync(page1)).toBe(true);
    keepPicture('labels-a4-avery-3474-1', fs.readFileSync(page1));
    const latin = await ok<PdfFile>(c, 'labels.pdf', {
      managerPin,
      selection: { kind: 'group', group: 'Млечни' },
      script: 'sr-Latn',
      stock: 'avery-l7163',
    });
    const latinPdf = path.join(dataDir, 'latin.pdf');
    fs.writeFileSync(latinPdf, Buffer.from(latin.base64, 'base64'));
    keepPdfPages(latinPdf, 'labels-a4-avery-l7163-latin', 110, 1);
    expect(execFileSync('pdftotext', [latinPdf, '-'], { encoding: 'utf8' })).toContain('Jedinična cena: 179,80 din/kg');
  });
});
