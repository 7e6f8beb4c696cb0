/**
 * The one message format of the app: every text a person reads, on the till, the manager screens, the hub UI
 * and in the core's errors, is a template in a catalog of this shape, filled by `interpolate` below (in the
 * renderer through i18next, which hands its templates to the same function: renderer/src/i18n/format.ts).
 *
 * A catalog is one object per language (sr-Cyrl, sr-Latn, en) of the same tree: keys to templates or to
 * nested groups. Placeholders are `{name}`, filled from the params by name (a missing param gives ''). A count
 * is `{count|ставка|ставке|ставки}` (Serbian: one, few, other) or `{count|item|items}` (English): the number and
 * the word in the form the number takes (shared/i18n/plural.ts), „1 ставка“, „3 ставке“, „5 ставки“.
 * The Serbian Cyrillic tree is written first; the other two are typed `Shape<typeof srCyrl>`, so a missing
 * or extra key is a type error, and test/i18n/catalogs.test.ts fails on a key or placeholder that one
 * language has and another lacks.
 *
 * To add a message: pick the catalog of its domain (the core's errors shared/messages.ts, CSV import
 * shared/i18n/messages.ts, gateway explanations shared/gateway-errors.ts, counter UI renderer/src/i18n/ui.ts,
 * manager screens renderer/src/manager/i18n.ts, hub UI renderer/src/hub-ui/i18n.ts), add the key with its
 * text to all three language objects (same `{placeholders}` in each), and use the key: `message(lang, key)`
 * in the core, `t(key, params)` in the renderer. Nothing else registers it.
 */
import { LANGUAGES, type Language } from '../domain.ts';
import { pluralForm } from './plural.ts';

/** A catalog's tree for one language: keys to templates, or to nested groups (dotted keys reach them). */
export type Tree = { readonly [key: string]: string | Tree };

/** The same keys as `T`, every leaf a template: the type of the sr-Latn and en trees. */
export type Shape<T> = { readonly [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };

/** One tree per language, all of one shape. */
export type Catalog<T extends Tree = Tree> = Readonly<Record<Language, Shape<T>>>;

/** The dotted keys of the templates in `T` (`'app.title'`); an unknown key is a type error. */
export type KeyOf<T> = {
  [K in keyof T & string]: T[K] extends string ? K : `${K}.${KeyOf<T[K]>}`;
}[keyof T & string];

/** Values for a template's placeholders. */
export type Params = Readonly<Record<string, string | number>>;

const PLACEHOLDER = /\{(\w+)(?:\|([^{}]*))?\}/g;

/**
 * Fills `{name}` placeholders of `template` from `params`; a missing (or null) param leaves nothing. A count
 * `{name|one|few|other}` gives the number and its word in the form the number takes.
 */
export function interpolate(template: string, params: Readonly<Record<string, unknown>> = {}): string {
  return template.replace(PLACEHOLDER, (_, name: string, forms: string | undefined) => {
    const value = params[name];
    if (forms === undefined) return String(value ?? '');
    const n = typeof value === 'number' ? value : Number(value);
    return Number.isFinite(n) ? `${String(value)} ${pluralForm(n, forms.split('|'))}` : String(value ?? '');
  });
}

/** The placeholder names of `template`, sorted and without repeats (for the catalog tests). */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string))].sort();
}

/** The template at the dotted `key` of `lang`'s tree (sr-Cyrl for an unknown language), or undefined. */
export function lookup(catalog: Catalog, lang: Language, key: string): string | undefined {
  return at(catalog[lang] ?? catalog['sr-Cyrl'], key);
}

function at(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** The filled template for `key` in `lang`; an unknown key comes back as the key itself. */
export function translate<T extends Tree>(catalog: Catalog<T>, lang: Language, key: KeyOf<T>, params?: Params): string {
  return interpolate(lookup(catalog as Catalog, lang, key) ?? key, params);
}

/** Every dotted key to a template in `tree`, in order (for the catalog tests). */
export function keysOf(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : keysOf(v, `${prefix}${k}.`)));
}

/**
 * What is wrong with `catalog`, one line each: a key one language has and another lacks, a placeholder in one
 * language's text but not in another's, an empty text, or the other syntax (`{{name}}`). Empty when sound.
 */
export function catalogProblems(catalog: Catalog): string[] {
  const problems: string[] = [];
  const trees = LANGUAGES.map((lang) => [lang, catalog[lang] as Tree | undefined] as const);
  for (const [lang, tree] of trees) if (!tree) problems.push(`${lang}: no texts at all`);
  const all = [...new Set(trees.flatMap(([, tree]) => (tree ? keysOf(tree) : [])))];
  for (const key of all) {
    const texts = trees.map(([lang, tree]) => [lang, tree && at(tree, key)] as const);
    for (const [lang, text] of texts) {
      if (text === undefined) problems.push(`${key}: missing in ${lang}`);
      else if (text.trim() === '') problems.push(`${key}: empty in ${lang}`);
      else if (/\{\{|\}\}/.test(text)) problems.push(`${key}: {{…}} in ${lang} (placeholders are {name})`);
    }
    const present = texts.filter((t): t is readonly [Language, string] => t[1] !== undefined);
    const [first, ...rest] = present.map(([lang, text]) => [lang, placeholders(text).join(',')] as const);
    for (const [lang, names] of rest) {
      if (first && names !== first[1])
        problems.push(`${key}: placeholders {${names}} in ${lang}, {${first[1]}} in ${first[0]}`);
    }
  }
  return problems;
}
