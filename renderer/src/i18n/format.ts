/**
 * i18next set-up shared by the till's renderer and the hub UI: resources are catalogs in the app's one
 * message format (shared/i18n/catalog.ts), and i18next fills their `{name}` placeholders with the same
 * `interpolate` the core uses, so a template reads the same wherever it is shown.
 */
import i18next, { type I18nFormatModule, type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '../../../shared/domain.ts';
import { interpolate, type Catalog, type Params } from '../../../shared/i18n/catalog.ts';

/** Translation function narrowed to one catalog's keys (what the manager screens pass down as `t`). */
export type Translate<K extends string> = (key: K, params?: Params) => string;

// An i18next "i18nFormat" module replaces i18next's own interpolation and plural lookups: the catalogs
// have no plural keys, and one placeholder syntax and one fill function are the point.
interface CatalogFormat extends I18nFormatModule {
  /** Called by i18next with the template it found and the `t` options (the params among them). */
  parse(res: unknown, options: Readonly<Record<string, unknown>>): unknown;
  /** Leaves the keys to look up as they are: no `_one`/`_other` or context variants. */
  addLookupKeys(): void;
}
const catalogFormat: CatalogFormat = {
  type: 'i18nFormat',
  parse: (res, options) => (typeof res === 'string' ? interpolate(res, options) : res),
  addLookupKeys: () => undefined,
};

/** Creates and initialises an i18next instance with one namespace per catalog (`translation` is the default). */
export function createCatalogI18n(language: Language, namespaces: Readonly<Record<string, Catalog>>): i18n {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries(
    LANGUAGES.map((lng) => [lng, Object.fromEntries(Object.entries(namespaces).map(([ns, c]) => [ns, c[lng]]))]),
  );
  void instance
    .use(catalogFormat)
    .use(initReactI18next)
    .init({
      resources,
      ns: Object.keys(namespaces),
      lng: language,
      fallbackLng: 'sr-Cyrl',
      supportedLngs: [...LANGUAGES],
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
  return instance;
}
