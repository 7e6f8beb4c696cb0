/**
 * Text folding for search, one rule for the till and the hub: Serbian Cyrillic and Latin, with or without
 * diacritics, meet in one form. The till indexes it in SQLite FTS5 (electron/catalog); the hub's database
 * computes the same form in SQL (`kasa_fold`, hub migration 15), and a test holds the two to the same answers.
 */

const CYR_TO_LAT: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  ђ: 'dj',
  е: 'e',
  ж: 'z',
  з: 'z',
  и: 'i',
  ј: 'j',
  к: 'k',
  л: 'l',
  љ: 'lj',
  м: 'm',
  н: 'n',
  њ: 'nj',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  ћ: 'c',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'c',
  ч: 'c',
  џ: 'dz',
  ш: 's',
};

/**
 * Lowercases, transliterates Serbian Cyrillic to Latin and strips diacritics (đ -> dj, š -> s …), and
 * turns every other non-alphanumeric character into a space: "Млеко 2,8%" -> "mleko 2 8".
 */
export function foldText(text: string): string {
  let out = '';
  for (const ch of text.toLowerCase()) {
    const mapped = CYR_TO_LAT[ch];
    if (mapped !== undefined) out += mapped;
    else if (ch === 'đ') out += 'dj';
    else out += ch;
  }
  return out
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}
