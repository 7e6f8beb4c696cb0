/**
 * A generated catalog for benchmarks and load tests: `n` products with Serbian Cyrillic names, unique
 * codes and valid EAN-13 barcodes, labels A/E/F (the demo account's fiscalizing labels).
 */
import path from 'node:path';
import { mulberry32 } from '../../electron/sandbox/faults.ts';
import { withCheckDigit } from '../../electron/catalog/barcode.ts';
import { createCatalogService } from '../../electron/catalog/service.ts';
import { openDatabase } from '../../electron/db/open.ts';

const NOUNS = [
  'Млеко',
  'Хлеб',
  'Сир',
  'Јогурт',
  'Чоколада',
  'Кафа',
  'Вода',
  'Сок',
  'Пиво',
  'Вино',
  'Шунка',
  'Кобасица',
  'Паштета',
  'Брашно',
  'Шећер',
  'Уље',
  'Пиринач',
  'Тестенина',
  'Кекс',
  'Чај',
  'Сапун',
  'Шампон',
  'Детерџент',
  'Папир',
  'Јабука',
  'Банана',
  'Кромпир',
  'Лук',
  'Паприка',
  'Ђевреци',
  'Ајвар',
  'Пасуљ',
  'Кајмак',
  'Маслац',
  'Павлака',
  'Кифла',
  'Бурек',
  'Слаткиш',
  'Ракија',
  'Минерална',
  'Жвакаће',
  'Чипс',
  'Смоки',
  'Еурокрем',
];
const ADJ = [
  'бели',
  'црни',
  'домаћи',
  'свежи',
  'љути',
  'слатки',
  'органски',
  'класик',
  'премијум',
  'лајт',
  'мали',
  'велики',
  'сремски',
  'златиборски',
  'шумадијски',
  'интегрални',
  'ражени',
  'ванила',
  'лешник',
  'јагода',
];
const SIZES = ['100 г', '200 г', '250 г', '500 г', '1 кг', '0,5 л', '1 л', '1,5 л', '2 л', '10 ком'];

/** Deterministic pseudo-random numbers (the sandbox's mulberry32). */
export const rng = mulberry32;

export interface GeneratedCatalog {
  csv: string;
  barcodes: string[];
  names: string[];
}

/** `n` products as a catalog CSV (`;`-separated, the import's format). */
export function generateCatalog(n: number, seed = 42): GeneratedCatalog {
  const random = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const lines = ['code;name;barcode;price;label;unit;group;favourite'];
  const barcodes: string[] = [];
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = `${pick(NOUNS)} ${pick(ADJ)} ${pick(SIZES)} ${pick(ADJ)} ${i}`;
    const barcode = withCheckDigit(`869${String(i).padStart(9, '0')}`);
    const price = `${10 + Math.floor(random() * 5000)},${String(Math.floor(random() * 100)).padStart(2, '0')}`;
    lines.push([100000 + i, name, barcode, price, pick(['A', 'E', 'F']), 'kom', '', i < 12 ? '1' : ''].join(';'));
    barcodes.push(barcode);
    names.push(name);
  }
  return { csv: lines.join('\n'), barcodes, names };
}

/** Writes a generated catalog into the data directory's database (kasa.sqlite) before a host starts. */
export function seedCatalog(dataDir: string, n: number, seed = 42): GeneratedCatalog {
  const generated = generateCatalog(n, seed);
  const db = openDatabase(path.join(dataDir, 'kasa.sqlite'));
  try {
    const result = createCatalogService(db).importCsv(generated.csv, { currentLabels: ['A', 'E', 'F'] });
    if (result.errors.length > 0 || result.imported !== n) {
      throw new Error(`seeding failed: ${result.imported}/${n}, first error ${JSON.stringify(result.errors[0])}`);
    }
  } finally {
    db.close();
  }
  return generated;
}
