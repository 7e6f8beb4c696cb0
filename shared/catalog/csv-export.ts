/**
 * The catalog as CSV, written the way the till's import reads it (electron/catalog/csv.ts): `;`-separated,
 * a header the import knows in the UI's language, prices with a decimal comma and no thousands dots,
 * barcodes separated by spaces, units and yes/no in words the import accepts. Exporting and importing the
 * result again changes nothing. Used by the till (`catalog.export`) and the hub (`/api/admin/products.csv`).
 */
import type { Language } from '../domain.ts';

/** One product as exported. */
export interface CsvProduct {
  code: string;
  name: string;
  barcodes: readonly string[];
  pricePara: number;
  label: string;
  unit: 'piece' | 'kg' | 'l';
  group: string | null;
  favourite: boolean;
}

/** Column headers per language; each folds to a header alias of the import. */
const HEADERS: Record<Language, readonly string[]> = {
  'sr-Cyrl': ['Шифра', 'Назив', 'Бар-код', 'Цена', 'Пореска ознака', 'Јединица мере', 'Група', 'Омиљено'],
  'sr-Latn': ['Šifra', 'Naziv', 'Bar-kod', 'Cena', 'Poreska oznaka', 'Jedinica mere', 'Grupa', 'Omiljeno'],
  en: ['code', 'name', 'barcode', 'price', 'label', 'unit', 'group', 'favourite'],
};

const UNITS: Record<Language, Record<CsvProduct['unit'], string>> = {
  'sr-Cyrl': { piece: 'kom', kg: 'kg', l: 'l' },
  'sr-Latn': { piece: 'kom', kg: 'kg', l: 'l' },
  en: { piece: 'piece', kg: 'kg', l: 'l' },
};

const YES_NO: Record<Language, readonly [string, string]> = {
  'sr-Cyrl': ['da', 'ne'],
  'sr-Latn': ['da', 'ne'],
  en: ['yes', 'no'],
};

/** A price in para as the import reads it: 1234,50 (no thousands separator, so no cell needs quotes). */
export function csvPrice(para: number): string {
  const whole = Math.floor(para / 100);
  return `${whole},${String(para % 100).padStart(2, '0')}`;
}

/** A cell quoted when it holds the delimiter, a quote or a line break (a quote doubled inside). */
function cell(text: string): string {
  return /[;"\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV text (with a byte order mark, so spreadsheets read it as UTF-8), CRLF line ends. */
export function catalogCsv(products: readonly CsvProduct[], lang: Language = 'sr-Cyrl'): string {
  const [yes, no] = YES_NO[lang];
  const lines = [HEADERS[lang].join(';')];
  for (const p of products)
    lines.push(
      [
        p.code,
        p.name,
        p.barcodes.join(' '),
        csvPrice(p.pricePara),
        p.label,
        UNITS[lang][p.unit],
        p.group ?? '',
        p.favourite ? yes : no,
      ]
        .map(cell)
        .join(';'),
    );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
