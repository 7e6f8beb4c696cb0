/**
 * The reader of a section's own catalog: the hub's Артикли and Цене sections (and any screen that keeps its words
 * beside it, as the manager's do) declare their three language tables and read them through this one function, so
 * how a section's text is looked up and filled is written once.
 */
import type { Language } from '../../../shared/domain.ts';
import { translate, type Catalog, type KeyOf, type Params, type Tree } from '../../../shared/i18n/catalog.ts';

/** One text of `catalog` in `lang`, its placeholders filled from `params`. */
export function sectionText<T extends Tree>(
  catalog: Catalog<T>,
): (lang: Language, key: KeyOf<T>, params?: Params) => string {
  return (lang, key, params) => translate(catalog, lang, key, params);
}
