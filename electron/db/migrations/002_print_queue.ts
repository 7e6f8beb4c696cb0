import type { Migration } from '../open.ts';

/** The persistent print queue (electron/printer). */
export const m002: Migration = {
  version: 2,
  name: 'print_queue',
  up() {},
};
