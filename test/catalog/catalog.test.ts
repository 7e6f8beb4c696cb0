import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../electron/db/open.ts';
import { m001 } from '../../electron/db/migrations/001_core.ts';
import { m002 } from '../../electron/db/migrations/002_print_queue.ts';
import { m003 } from '../../electron/db/migrations/003_catalog.ts';
import { createCatalogService, type CatalogService } from '../../electron/catalog/service.ts';
import { catalogHandlers, defaultSampleCsvPath } from '../../electron/catalog/handlers.ts';
import {
  isValidGtin,
  parseInStoreCode,
  withCheckDigit,
  DEFAULT_BARCODE_RULES,
} from '../../electron/catalog/barcode.ts';
import { foldText } from '../../shared/catalog/fold.ts';
import { validateCatalogCsv } from '../../electron/catalog/csv.ts';

const DEMO_LABELS = ['Ж', 'A', 'F', 'B', 'N', 'C', 'E', 'P', 'T'];
const HEADER = 'code;name;barcode;price;label;unit;group;favourite';

let dir: string;
let db: Db;
let catalog: CatalogService;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-catalog-'));
  db = openDatabase(path.join(dir, 'kasa.db'));
  catalog = createCatalogService(db, () => new Date('2025-03-01T10:00:00Z'));
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function load(rows: string[]) {
  return catalog.importCsv([HEADER, ...rows].join('\n'), { currentLabels: DEMO_LABELS });
}

describe('migration 003', () => {
  it('applies on top of 001 and 002 and sets user_version 3', () => {
    const only = openDatabase(path.join(dir, 'only-003.db'), [m001, m002, m003]);
    expect(only.pragma('user_version', { simple: true })).toBe(3);
    expect(() =>
      createCatalogService(only).park({
        lines: [{ name: 'X', unitPricePara: 1, quantityMilli: 1000, discountPara: 0, label: 'A', unit: 'piece' }],
      }),
    ).not.toThrow();
    only.close();
  });

  it('creates the catalog tables (user_version at least 3)', () => {
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(3);
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table')").all() as { name: string }[];
    expect(names.map((n) => n.name)).toEqual(
      expect.arrayContaining(['products', 'product_barcodes', 'products_fts', 'parked_sales']),
    );
  });
});

describe('text folding', () => {
  it('meets Cyrillic, Latin and diacritics in one form', () => {
    expect(foldText('Шљивовица Ђуја Чачак')).toBe('sljivovica djuja cacak');
    expect(foldText('Šljivovica Đuja Čačak')).toBe('sljivovica djuja cacak');
    expect(foldText('Млеко 2,8%')).toBe('mleko 2 8');
  });
});

describe('barcodes', () => {
  it('checks GS1 check digits', () => {
    expect(isValidGtin('8600000100018')).toBe(true);
    expect(isValidGtin('8600000100019')).toBe(false);
    expect(isValidGtin('96385074')).toBe(true);
    expect(isValidGtin('123')).toBe(false);
  });

  it('reads weight and price EAN-13 codes with prefixes 20–29', () => {
    const weight = withCheckDigit('200101100614');
    expect(parseInStoreCode(weight, DEFAULT_BARCODE_RULES)).toEqual({ kind: 'weight', itemCode: '01011', value: 614 });
    const price = withCheckDigit('270101124560');
    expect(parseInStoreCode(price, DEFAULT_BARCODE_RULES)).toEqual({ kind: 'price', itemCode: '01011', value: 24560 });
    expect(parseInStoreCode('8600000100018', DEFAULT_BARCODE_RULES)).toBeNull();
    expect(parseInStoreCode(weight.slice(0, 12) + ((Number(weight[12]) + 1) % 10), DEFAULT_BARCODE_RULES)).toBeNull();
    expect(
      parseInStoreCode(withCheckDigit('2212341234567'.slice(0, 12)), [{ prefix: '22', kind: 'weight', codeLength: 4 }]),
    ).toEqual({ kind: 'weight', itemCode: '1234', value: 123456 });
  });
});

describe('CSV import', () => {
  it('reports every bad row with its line, field and a Serbian message, and imports nothing on a dry run', () => {
    const csv = [
      HEADER,
      '1;Хлеб;8600000100018;65,00;E;kom;;1',
      '2;;;10;E;kom;;',
      '3;Сир;;abc;E;kg;;',
      '4;Млеко;8600000100019;139,99;E;литра;;',
      '1;Дупликат;;1;E;kom;;',
      '6;Вино;;699,99;Ђ;kom;;',
      '7;Со;;49,99;;kom;;maybe',
    ].join('\n');
    const result = catalog.importCsv(csv, { dryRun: true, currentLabels: DEMO_LABELS });
    expect(result).toMatchObject({ dryRun: true, rows: 7, valid: 2, imported: 0 });
    expect(result.errors.map((e) => [e.row, e.field, e.code])).toEqual([
      [3, 'name', 'csv.required'],
      [4, 'price', 'csv.price'],
      [5, 'unit', 'csv.unit'],
      [5, 'barcode', 'csv.barcode'],
      [6, 'code', 'csv.duplicate_code'],
      [8, 'label', 'csv.required'],
      [8, 'favourite', 'csv.favourite'],
    ]);
    expect(result.errors[1]?.message).toBe('Цена „abc“ није исправан износ (нпр. 149,99).');
    expect(result.warnings).toMatchObject([{ row: 7, field: 'label', code: 'csv.label_missing' }]);
    expect(catalog.stats(DEMO_LABELS).products).toBe(0);
  });

  it('gives messages in the requested language', () => {
    const r = validateCatalogCsv(`${HEADER}\n1;X;;-5;E;kom;;`, DEMO_LABELS, 'en');
    expect(r.errors[0]?.message).toBe('Price “-5” is not a valid amount (e.g. 149,99).');
    const missing = validateCatalogCsv('name;price\nX;1', DEMO_LABELS, 'sr-Latn');
    expect(missing.errors.map((e) => e.message)).toEqual(['Nedostaje kolona „code“.', 'Nedostaje kolona „label“.']);
  });

  it('upserts by code, keeps several barcodes, flags labels missing from the tax rates', () => {
    expect(load(['1;Хлеб;8600000100018|96385074;65;E;kom;Пекара;да', '2;Вино;;699,99;Ђ;kom;;']).imported).toBe(2);
    const again = load(['1;Хлеб бели;8600000100018;70,00;E;kom;Пекара;1']);
    expect(again.imported).toBe(1);
    const [bread] = catalog.search('hleb', 5, DEMO_LABELS);
    expect(bread).toMatchObject({ code: '1', name: 'Хлеб бели', pricePara: 7000, barcodes: ['8600000100018'] });
    expect(catalog.stats(DEMO_LABELS)).toEqual({ products: 2, favourites: 1, labelMissing: 1, missingLabels: ['Ђ'] });
    expect(catalog.search('вино', 5, DEMO_LABELS)[0]?.labelMissing).toBe(true);
  });

  it('refuses a barcode that belongs to another product', () => {
    load(['1;Хлеб;8600000100018;65;E;kom;;']);
    const r = load(['2;Кифла;8600000100018;35;E;kom;;']);
    expect(r.errors).toMatchObject([{ row: 2, field: 'barcode', code: 'csv.barcode_taken' }]);
    expect(r.imported).toBe(0);
  });

  it('handles quoted cells with delimiters and newlines, comma-delimited files and a BOM', () => {
    const r = catalog.importCsv('\ufeffcode,name,price,label\n1,"Сир, бели ""домаћи""",899.00,E\n', {
      currentLabels: DEMO_LABELS,
    });
    expect(r.errors).toEqual([]);
    expect(catalog.search('sir', 5, DEMO_LABELS)[0]?.name).toBe('Сир, бели "домаћи"');
    const bad = catalog.importCsv('code,name,price,label\n1,"open,1,E', { currentLabels: DEMO_LABELS, dryRun: true });
    expect(bad.errors[0]).toMatchObject({ row: 2, code: 'csv.quote' });
  });
});

describe('search and scan', () => {
  beforeEach(() => {
    const csv = fs.readFileSync(defaultSampleCsvPath(), 'utf8');
    const r = catalog.importCsv(csv, { currentLabels: DEMO_LABELS });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.imported).toBeGreaterThanOrEqual(55);
  });

  it('finds by folded name prefixes in either script, by code prefix and by barcode', () => {
    expect(catalog.search('mle', 10, DEMO_LABELS).map((p) => p.name)).toContain('Млеко 2,8% м.м. 1 л');
    expect(catalog.search('МЛЕ 0,9', 10, DEMO_LABELS).map((p) => p.name)).toEqual(['Млеко 0,9% м.м. 1 л']);
    expect(catalog.search('sljiv', 10, DEMO_LABELS)[0]?.name).toBe('Ракија шљивовица 0,7 л');
    expect(catalog.search('šljiv', 10, DEMO_LABELS)[0]?.name).toBe('Ракија шљивовица 0,7 л');
    expect(catalog.search('1001', 10, DEMO_LABELS)[0]?.code).toBe('1001');
    expect(catalog.search('8600000100018', 10, DEMO_LABELS)[0]?.code).toBe('1001');
    expect(catalog.search('   ', 10, DEMO_LABELS)).toEqual([]);
    expect(catalog.search('"*', 10, DEMO_LABELS)).toEqual([]);
  });

  it('scans exact barcodes and in-store weight and price codes', () => {
    expect(catalog.byBarcode('8600000100018', DEMO_LABELS)).toMatchObject({
      kind: 'exact',
      quantityMilli: 1000,
      unitPricePara: 6500,
      product: { code: '1001' },
    });
    // 0,614 kg of white cheese (code 1011, 899,00/kg)
    expect(catalog.byBarcode(withCheckDigit('200101100614'), DEMO_LABELS)).toMatchObject({
      kind: 'weight',
      quantityMilli: 614,
      unitPricePara: 89900,
      product: { code: '1011', unit: 'kg' },
    });
    // A price sticker of 449,50 on the same cheese = exactly 0,5 kg
    expect(catalog.byBarcode(withCheckDigit('270101144950'), DEMO_LABELS)).toMatchObject({
      kind: 'price',
      quantityMilli: 500,
      unitPricePara: 89900,
    });
    // A price that is no exact quantity: one unit at the sticker's price
    expect(catalog.byBarcode(withCheckDigit('270101100101'), DEMO_LABELS)).toMatchObject({
      kind: 'price',
      quantityMilli: 1000,
      unitPricePara: 101,
    });
    expect(catalog.byBarcode('1011', DEMO_LABELS)).toMatchObject({
      kind: 'code',
      quantityMilli: 1000,
      product: { code: '1011' },
    });
    expect(catalog.byBarcode('8600000000000', DEMO_LABELS)).toBeNull();
    expect(catalog.byBarcode(withCheckDigit('209999900614'), DEMO_LABELS)).toBeNull();
  });

  it('lists favourites', () => {
    const favs = catalog.favourites(DEMO_LABELS);
    expect(favs.length).toBeGreaterThan(8);
    expect(favs.every((p) => p.favourite)).toBe(true);
  });
});

describe('parked sales', () => {
  const cart = {
    lines: [
      { name: 'Хлеб', unitPricePara: 6500, quantityMilli: 2000, discountPara: 0, label: 'E', unit: 'piece' as const },
      { name: 'Сир', unitPricePara: 89900, quantityMilli: 614, discountPara: 100, label: 'E', unit: 'kg' as const },
    ],
  };

  it('survive a reopen and are taken exactly once', async () => {
    const saved = catalog.park(cart, ' Петар ');
    expect(saved).toMatchObject({ name: 'Петар', lines: 2, totalPara: 13000 + 55199 - 100 });
    db.close();
    db = openDatabase(path.join(dir, 'kasa.db'));
    const handlers = catalogHandlers(createCatalogService(db), { currentLabels: () => DEMO_LABELS });
    expect(await handlers['parked.list']({})).toEqual([saved]);
    expect((await handlers['parked.take']({ id: saved.id })).cart).toEqual(cart);
    await expect(handlers['parked.take']({ id: saved.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(handlers['parked.delete']({ id: saved.id })).rejects.toMatchObject({ code: 'not_found' });
    expect(await handlers['parked.list']({})).toEqual([]);
  });
});

describe('handlers', () => {
  it('loads the sample, emits catalog.changed and maps unknown barcodes to not_found', async () => {
    const emitted: unknown[] = [];
    const handlers = catalogHandlers(catalog, { currentLabels: () => DEMO_LABELS, emit: (_n, p) => emitted.push(p) });
    const r = await handlers['catalog.loadSample']({});
    expect(r.errors).toEqual([]);
    expect(emitted).toEqual([{ products: r.imported }]);
    await expect(handlers['catalog.byBarcode']({ code: '123' })).rejects.toMatchObject({ code: 'not_found' });
    const rules = await handlers['catalog.barcodeRules']({ rules: [{ prefix: '21', kind: 'weight', codeLength: 5 }] });
    expect(rules).toEqual([{ prefix: '21', kind: 'weight', codeLength: 5 }]);
    expect(await handlers['catalog.byBarcode']({ code: withCheckDigit('200101100614') }).catch((e) => e.code)).toBe(
      'not_found',
    );
  });
});
