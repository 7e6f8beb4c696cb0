/** i18next set-up: Serbian Cyrillic by default, Serbian Latin and English selectable. */
import type { i18n } from 'i18next';
import { LANGUAGES, type Language } from '../../../shared/domain.ts';
import { sharedMessages } from '../../../shared/i18n/messages.ts';
import { managerMessages } from '../manager/i18n.ts';
import { createCatalogI18n } from './format.ts';
import { setupMessages } from './setup.ts';
import { uiMessages } from './ui.ts';

/** True for the three supported language codes. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Creates and initialises an i18next instance (one per app, or per test): the counter's texts and the shared
 * CSV messages in the default namespace, the manager screens' texts in `manager`.
 */
export function createI18n(language: Language = 'sr-Cyrl'): i18n {
  const translation = Object.fromEntries(
    LANGUAGES.map((lng) => [lng, { ...uiMessages[lng], ...sharedMessages[lng], ...setupMessages[lng] }]),
  ) as Record<
    Language,
    (typeof uiMessages)[Language] & (typeof sharedMessages)[Language] & (typeof setupMessages)[Language]
  >;
  return createCatalogI18n(language, { translation, manager: managerMessages });
}
