/** i18next set-up: Serbian Cyrillic by default, Serbian Latin and English selectable. */
import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '../../../shared/domain.ts';
import { sharedMessages } from '../../../shared/i18n/messages.ts';
import { uiMessages } from './ui.ts';

/** True for the three supported language codes. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Creates and initialises an i18next instance (one per app, or per test). */
export function createI18n(language: Language = 'sr-Cyrl'): i18n {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries(
    LANGUAGES.map((lng) => [lng, { translation: { ...uiMessages[lng], ...sharedMessages[lng] } }]),
  );
  void instance.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'sr-Cyrl',
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}
