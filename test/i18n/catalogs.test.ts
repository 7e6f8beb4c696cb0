/**
 * Every catalog has every key in all three languages with the same placeholders, and the renderer's i18next
 * shows each template exactly as the catalog function fills it (one format, one fill function).
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../shared/domain.ts';
import { gatewayMessages } from '../../shared/gateway-errors.ts';
import {
  catalogProblems,
  keysOf,
  lookup,
  placeholders,
  translate,
  type Catalog,
  type Tree,
} from '../../shared/i18n/catalog.ts';
import { sharedMessages } from '../../shared/i18n/messages.ts';
import { enumMessages } from '../../shared/i18n/enums.ts';
import { REPORT_WORDS } from '../../renderer/src/reports/words.ts';
import { coreMessages, message } from '../../shared/messages.ts';
import { hubMessages } from '../../renderer/src/hub-ui/i18n.ts';
import { hubCatalogMessages } from '../../renderer/src/hub-ui/catalog-i18n.ts';
import { createI18n } from '../../renderer/src/i18n/index.ts';
import { createCatalogI18n } from '../../renderer/src/i18n/format.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { setupMessages } from '../../renderer/src/i18n/setup.ts';
import { managerMessages } from '../../renderer/src/manager/i18n.ts';

const CATALOGS: Record<string, Catalog> = {
  core: coreMessages,
  csv: sharedMessages,
  gateway: gatewayMessages,
  counter: uiMessages,
  setup: setupMessages,
  manager: managerMessages,
  hub: hubMessages,
  hubCatalog: hubCatalogMessages,
  enums: enumMessages,
  reports: REPORT_WORDS,
};

/** Params for every placeholder of `key` in any language: `<name>=1` so a swapped one shows. */
function paramsFor(catalog: Catalog, key: string): Record<string, string> {
  const names = LANGUAGES.flatMap((lang) => placeholders(lookup(catalog, lang, key) ?? ''));
  return Object.fromEntries(names.map((n) => [n, `<${n}=1>`]));
}

describe('message catalogs', () => {
  it.each(Object.entries(CATALOGS))('%s: every key in every language, with the same placeholders', (_, catalog) => {
    expect(Object.keys(catalog).sort()).toEqual([...LANGUAGES].sort());
    expect(keysOf(catalog['sr-Cyrl']).length).toBeGreaterThan(0);
    expect(catalogProblems(catalog)).toEqual([]);
  });

  it('the check fails on a missing key, a lost placeholder, an empty text and the {{name}} syntax', () => {
    const sound = { a: 'A {x}', g: { b: 'B' } };
    const broken: Catalog<typeof sound> = {
      'sr-Cyrl': sound,
      'sr-Latn': { a: 'A', g: { b: 'B' } },
      en: { a: 'A {{x}}', g: {} as { b: string } },
    };
    expect(catalogProblems(broken)).toEqual([
      'a: {{…}} in en (placeholders are {name})',
      'a: placeholders {} in sr-Latn, {x} in sr-Cyrl',
      'g.b: missing in en',
    ]);
    expect(catalogProblems({ 'sr-Cyrl': { a: '' }, 'sr-Latn': { a: 'A' }, en: { a: 'A' } })).toEqual([
      'a: empty in sr-Cyrl',
    ]);
    const noEnglish = { 'sr-Cyrl': { a: 'A' }, 'sr-Latn': { a: 'A' } } as unknown as Catalog;
    expect(catalogProblems(noEnglish)).toEqual(['en: no texts at all', 'a: missing in en']);
  });

  it('fills placeholders by name, a missing one with nothing, and falls back as before', () => {
    expect(translate(sharedMessages, 'en', 'csv.too_long', { max: 64 })).toBe('Too long (at most 64 characters).');
    expect(translate(sharedMessages, 'en', 'csv.columns', { count: 3 })).toBe('The row has 3 columns, the header .');
    expect(message('en', 'no_such_key', { field: 'x' })).toBe(message('en', 'invalid', { field: 'x' }));
  });

  it("the renderer's i18next shows every counter, CSV and manager text as the catalog fills it", () => {
    const i18n = createI18n('sr-Cyrl');
    const namespaces: [string, Catalog][] = [
      ['translation', uiMessages],
      ['translation', sharedMessages],
      ['manager', managerMessages],
    ];
    for (const lang of LANGUAGES) {
      for (const [ns, catalog] of namespaces) {
        const t = i18n.getFixedT(lang, ns);
        for (const key of keysOf(catalog[lang] as Tree)) {
          const params = paramsFor(catalog, key);
          expect(t(key, params), `${lang} ${ns}:${key}`).toBe(translate(catalog, lang, key as never, params));
        }
      }
    }
  });

  it("the hub page's i18next shows every hub text as the catalog fills it", () => {
    const i18n = createCatalogI18n('en', { hub: hubMessages });
    for (const lang of LANGUAGES) {
      const t = i18n.getFixedT(lang, 'hub');
      for (const key of keysOf(hubMessages[lang])) {
        const params = paramsFor(hubMessages, key);
        expect(t(key, params)).toBe(translate(hubMessages, lang, key as never, params));
      }
    }
  });
});
