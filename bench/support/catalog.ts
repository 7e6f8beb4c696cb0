/**
 * A data directory holding a generated catalog of `n` products (default 100,000), imported through the
 * catalog service's own CSV import, for benchmarks that start a host on it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../electron/db/open.ts';
import { createCatalogService } from '../../electron/catalog/service.ts';

const WORDS = ['Хлеб', 'Млеко', 'Јогурт', 'Сир', 'Кафа', 'Чај', 'Шећер', 'Брашно', 'Уље', 'Со', 'Сок', 'Вода', 'Пиво', 'Вино', 'Чоколада', 'Кекс', 'Паштета', 'Шунка', 'Јаја', 'Јабука'];
const ADJ = ['бели', 'ражени', 'свеж', 'лагани', 'домаћи', 'органски', 'класик', 'премијум', 'мини', 'породични'];

/** EAN-13 with a valid check digit from a 12-digit body. */
export function ean13(body: string): string {
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  return body + ((10 - (sum % 10)) % 10);
}

/** The barcode of generated product `i`. */
export function generatedBarcode(i: number): string {
  return ean13(`860${String(i).padStart(9, '0')}`);
}

export function generateCatalogCsv(n: number): string {
  const rows = ['шифра;назив;бар-код;цена;ознака;јединица;група;омиљено'];
  for (let i = 0; i < n; i++) {
    const name = `${WORDS[i % WORDS.length]} ${ADJ[Math.floor(i / WORDS.length) % ADJ.length]} ${i}`;
    const price = `${10 + (i % 990)},${String(i % 100).padStart(2, '0')}`;
    rows.push(`${100000 + i};${name};${generatedBarcode(i)};${price};${['A', 'E', 'F'][i % 3]};kom;Група ${i % 40};${i < 12 ? 1 : 0}`);
  }
  return rows.join('\n') + '\n';
}

/** Creates a data directory with the catalog imported; returns its path. */
export function catalogDataDir(n = 100_000): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-catalog-'));
  const db = openDatabase(path.join(dir, 'kasa.sqlite'));
  const result = createCatalogService(db).importCsv(generateCatalogCsv(n), { currentLabels: ['A', 'E', 'F'] });
  db.close();
  if (result.imported !== n) throw new Error(`imported ${result.imported} of ${n} products`);
  return dir;
}
