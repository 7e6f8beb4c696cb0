/** Catalog CSV: parsing (RFC 4180, `;` or `,` delimited) and per-row validation. */
import {
  PRODUCT_UNITS,
  type ImportIssue,
  type ImportPreviewRow,
  type ProductUnit,
} from '../../shared/contract/catalog.ts';
import type { Language } from '../../shared/domain.ts';
import { formatMessage } from '../../shared/i18n/messages.ts';
import { parseRsdInput } from '../../shared/money.ts';
import { foldText } from '../../shared/catalog/fold.ts';
import { isValidGtin } from './barcode.ts';

/** One record and the file line it starts on (1-based). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** Splits CSV text into records. Quotes may hold delimiters and newlines; `""` is a quote. */
export function parseCsv(text: string): { records: CsvRecord[]; unclosedQuoteAt: number | null } {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstLine = src.slice(0, src.search(/\r?\n|$/));
  const delimiter = count(firstLine, ';') >= count(firstLine, ',') && count(firstLine, ';') > 0 ? ';' : ',';
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let quoteStart = 0;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"' && cell === '') {
      quoted = true;
      quoteStart = line;
    } else if (ch === delimiter) {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      cells.push(cell);
      if (cells.some((c) => c.trim() !== '')) records.push({ line: recordLine, cells });
      cells = [];
      cell = '';
      line++;
      recordLine = line;
    } else cell += ch;
  }
  if (quoted) return { records, unclosedQuoteAt: quoteStart };
  cells.push(cell);
  if (cells.some((c) => c.trim() !== '')) records.push({ line: recordLine, cells });
  return { records, unclosedQuoteAt: null };
}

function count(text: string, ch: string): number {
  return text.split(ch).length - 1;
}

type Column = 'code' | 'name' | 'barcode' | 'price' | 'label' | 'unit' | 'group' | 'favourite';

/** Header names accepted per column, folded (English, Serbian Latin and Cyrillic all fold to these). */
const HEADER_ALIASES: Record<Column, string[]> = {
  code: ['code', 'sku', 'plu', 'sifra', 'sifra artikla'],
  name: ['name', 'naziv', 'naziv artikla', 'artikal'],
  barcode: ['barcode', 'barcodes', 'gtin', 'ean', 'bar kod', 'barkod', 'bar kodovi'],
  price: ['price', 'cena', 'mp cena', 'cena rsd'],
  label: ['label', 'tax label', 'oznaka', 'poreska oznaka'],
  unit: ['unit', 'jedinica', 'jm', 'jedinica mere'],
  group: ['group', 'grupa', 'kategorija', 'category'],
  favourite: ['favourite', 'favorite', 'quick key', 'omiljeno', 'brzi taster'],
};
const REQUIRED: Column[] = ['code', 'name', 'price', 'label'];

const UNIT_ALIASES: Record<string, ProductUnit> = {
  piece: 'piece',
  pcs: 'piece',
  pc: 'piece',
  kom: 'piece',
  komad: 'piece',
  '': 'piece',
  kg: 'kg',
  kilogram: 'kg',
  l: 'l',
  lit: 'l',
  litar: 'l',
  liter: 'l',
  litre: 'l',
};
const YES = new Set(['1', 'da', 'yes', 'true', 'x', 'd', 'y']);
const NO = new Set(['0', 'ne', 'no', 'false', 'n', '']);

export interface ValidatedCsv {
  rows: number;
  products: ImportPreviewRow[];
  errors: ImportIssue[];
  warnings: ImportIssue[];
}

/**
 * Validates a catalog CSV: every problem is reported with its row (file line), field and a message in
 * `lang`. `currentLabels` flags (but does not reject) labels the gateway does not currently offer.
 */
export function validateCatalogCsv(text: string, currentLabels: readonly string[], lang: Language): ValidatedCsv {
  const errors: ImportIssue[] = [];
  const warnings: ImportIssue[] = [];
  const issue = (row: number, field: string, code: string, params?: Record<string, string | number>): ImportIssue => ({
    row,
    field,
    code: `csv.${code}`,
    ...(params ? { params } : {}),
    message: formatMessage(lang, `csv.${code}`, params),
  });
  const { records, unclosedQuoteAt } = parseCsv(text);
  if (unclosedQuoteAt !== null) errors.push(issue(unclosedQuoteAt, '', 'quote'));
  const [header, ...data] = records;
  if (!header) {
    if (errors.length === 0) errors.push(issue(1, '', 'empty'));
    return { rows: 0, products: [], errors, warnings };
  }
  const index = new Map<Column, number>();
  header.cells.forEach((cell, i) => {
    const folded = foldText(cell);
    for (const [col, aliases] of Object.entries(HEADER_ALIASES) as [Column, string[]][]) {
      if (!index.has(col) && aliases.includes(folded)) index.set(col, i);
    }
  });
  const missing = REQUIRED.filter((c) => !index.has(c));
  for (const column of missing) errors.push(issue(header.line, column, 'missing_column', { column }));
  if (missing.length > 0) return { rows: data.length, products: [], errors, warnings };

  const labels = new Set(currentLabels);
  const seenCodes = new Map<string, number>();
  const seenBarcodes = new Map<string, number>();
  const products: ImportPreviewRow[] = [];
  for (const rec of data) {
    const row = rec.line;
    const get = (c: Column): string => {
      const i = index.get(c);
      return i === undefined ? '' : (rec.cells[i] ?? '').trim();
    };
    const before = errors.length;
    if (rec.cells.length > header.cells.length) {
      errors.push(issue(row, '', 'columns', { count: rec.cells.length, expected: header.cells.length }));
      continue;
    }
    const code = get('code');
    if (code === '') errors.push(issue(row, 'code', 'required'));
    else if (code.length > 32) errors.push(issue(row, 'code', 'too_long', { max: 32 }));
    else if (seenCodes.has(code))
      errors.push(issue(row, 'code', 'duplicate_code', { value: code, other: seenCodes.get(code) ?? 0 }));
    const name = get('name');
    if (name === '') errors.push(issue(row, 'name', 'required'));
    else if (name.length > 100) errors.push(issue(row, 'name', 'too_long', { max: 100 }));
    const priceText = get('price');
    const pricePara = parseRsdInput(priceText);
    if (priceText === '') errors.push(issue(row, 'price', 'required'));
    else if (pricePara === null || pricePara < 0) errors.push(issue(row, 'price', 'price', { value: priceText }));
    const label = get('label');
    if (label === '') errors.push(issue(row, 'label', 'required'));
    else if (label.length > 4 || /\s/.test(label)) errors.push(issue(row, 'label', 'label', { value: label }));
    const unitText = get('unit');
    const unit: ProductUnit | undefined = UNIT_ALIASES[foldText(unitText)] ?? PRODUCT_UNITS.find((u) => u === unitText);
    if (unit === undefined) errors.push(issue(row, 'unit', 'unit', { value: unitText }));
    const favText = foldText(get('favourite'));
    if (!YES.has(favText) && !NO.has(favText))
      errors.push(issue(row, 'favourite', 'favourite', { value: get('favourite') }));
    const barcodes = [
      ...new Set(
        get('barcode')
          .split(/[|,\s]+/)
          .filter(Boolean),
      ),
    ];
    for (const b of barcodes) {
      if (!isValidGtin(b)) errors.push(issue(row, 'barcode', 'barcode', { value: b }));
      else if (seenBarcodes.has(b))
        errors.push(issue(row, 'barcode', 'duplicate_barcode', { value: b, other: seenBarcodes.get(b) ?? 0 }));
    }
    const group = get('group');
    if (group.length > 60) errors.push(issue(row, 'group', 'too_long', { max: 60 }));
    if (code !== '' && !seenCodes.has(code)) seenCodes.set(code, row);
    for (const b of barcodes) if (!seenBarcodes.has(b)) seenBarcodes.set(b, row);
    if (errors.length > before || pricePara === null || unit === undefined) continue;
    const labelMissing = labels.size > 0 && !labels.has(label);
    if (labelMissing) warnings.push(issue(row, 'label', 'label_missing', { value: label }));
    products.push({
      row,
      code,
      name,
      barcodes,
      pricePara,
      label,
      unit,
      group: group === '' ? null : group,
      favourite: YES.has(favText),
      labelMissing,
    });
  }
  return { rows: data.length, products, errors, warnings };
}
