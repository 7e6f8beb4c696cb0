/**
 * The words every A4 document shares (shared/node/a4.ts): the shop's block, the page numbers and the print
 * date. Each document's own words live beside its area (shared/i18n/goods.ts for the goods documents).
 */
import type { Language } from '../domain.ts';

export interface A4Words {
  /** `Страна {page} од {pages}`. */
  page: string;
  /** `Одштампано: {at}`. */
  printed: string;
  pib: string;
  /** What the title block says where the shop's PIB or address is not set yet. */
  notSet: string;
}

export const A4_WORDS: Record<Language, A4Words> = {
  'sr-Cyrl': { page: 'Страна {page} од {pages}', printed: 'Одштампано: {at}', pib: 'ПИБ', notSet: 'није унето' },
  'sr-Latn': { page: 'Strana {page} od {pages}', printed: 'Odštampano: {at}', pib: 'PIB', notSet: 'nije uneto' },
  en: { page: 'Page {page} of {pages}', printed: 'Printed: {at}', pib: 'Tax ID (PIB)', notSet: 'not set' },
};
