import type { Migration } from '../open.ts';

/** The product catalog (electron/catalog). */
export const m003: Migration = {
  version: 3,
  name: 'catalog',
  up() {},
};
