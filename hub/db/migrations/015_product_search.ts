import type { HubMigration } from './index.ts';

/**
 * The hub's catalog search (#26) folds Serbian Cyrillic and Latin, with or without diacritics, as the till's does
 * (shared/catalog/fold.ts): „mleko“, „Млеко“ and „MLEKO“ find the same product, „cokolada“ finds „Чоколада“.
 * `kasa_fold` is that rule in SQL (test/hub/product-search.test.ts holds it to `foldText`); `products.search` is
 * the folded name and code, kept by the database on every write; a trigram index (pg_trgm) answers a word
 * anywhere in it without reading the shop's whole catalog.
 *
 * Letters are mapped explicitly instead of by `lower()`: a database whose ctype is C lowercases ASCII only.
 * On a PostgreSQL server, pg_trgm is a trusted extension: the hub's database owner may create it (docs/hub.md).
 */
const CYRILLIC_FROM = 'абвгдежзијклмнопрстћуфхцчшАБВГДЕЖЗИЈКЛМНОПРСТЋУФХЦЧШ';
const CYRILLIC_TO = 'abvgdezzijklmnoprstcufhccsabvgdezzijklmnoprstcufhccs';
const LATIN_FROM = 'čćšžČĆŠŽáàâäãåéèêëíìîïóòôöõúùûüýÿñÁÀÂÄÃÅÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÝÑ';
const LATIN_TO = 'ccszccszaaaaaaeeeeiiiiooooouuuuyynaaaaaaeeeeiiiiooooouuuuyn';
/** The letters that become two (љ → lj …), before the one-for-one map. */
const PAIRS: readonly [string, string][] = [
  ['љ', 'lj'],
  ['Љ', 'lj'],
  ['њ', 'nj'],
  ['Њ', 'nj'],
  ['џ', 'dz'],
  ['Џ', 'dz'],
  ['ђ', 'dj'],
  ['Ђ', 'dj'],
  ['đ', 'dj'],
  ['Đ', 'dj'],
];
const paired = PAIRS.reduce((sql, [from, to]) => `replace(${sql}, '${from}', '${to}')`, 't');

export const h015: HubMigration = {
  name: 'product_search',
  statements: [
    `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
    `CREATE FUNCTION kasa_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
       SELECT btrim(regexp_replace(lower(translate(${paired}, '${CYRILLIC_FROM}${LATIN_FROM}',
         '${CYRILLIC_TO}${LATIN_TO}')), '[^a-z0-9]+', ' ', 'g'))
     $$`,
    `ALTER TABLE products ADD COLUMN search text GENERATED ALWAYS AS (kasa_fold(name || ' ' || code)) STORED`,
    `CREATE INDEX products_search ON products USING gin (search gin_trgm_ops)`,
  ],
};
