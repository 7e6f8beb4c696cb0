/**
 * The catalog area's handlers (shared/contract/catalog.ts): thin adapters from validated contract input to
 * the catalog service. A parked cart is kept in this till's database (the catalog service) and mirrored
 * where the shop's other tills see it (`ParkedMirror`: gateway drafts, or the store hub once enrolled); the
 * mirror is best effort and never makes the cashier wait for long.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EventPayload } from '../../shared/contract/index.ts';
import type { Language } from '../../shared/domain.ts';
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { CommandError } from '../errors.ts';
import type { ParkedMirror } from './drafts.ts';
import type { CatalogService } from './service.ts';

export interface CatalogDeps {
  /** Labels of the current tax rates (exact strings). */
  currentLabels(): string[];
  /** The UI language, for import messages (default Serbian Cyrillic). */
  language?(): Language;
  /** Publishes `catalog.changed` after an import. */
  emit?(name: 'catalog.changed', payload: EventPayload<'catalog.changed'>): void;
  /** Where the sample catalog is (default resources/catalog/sample.csv beside the app). */
  sampleCsvPath?: string;
  /** Where parked carts are mirrored for the other tills (default: nowhere, this till only). */
  mirror?: ParkedMirror;
}

/** How long `parked.list` waits for the mirror's catch-up before answering from this till's carts. */
const LIST_SYNC_WAIT_MS = 1500;

/** No mirror: this till's carts only, and no other till's cart to be seen or taken. */
const LOCAL_ONLY: ParkedMirror = {
  start: () => undefined,
  stop: async () => undefined,
  draftOf: () => null,
  parked: async () => undefined,
  removed: async () => undefined,
  claimLocal: async () => undefined,
  sync: async () => undefined,
  remote: async () => ({ online: false, sales: [] }),
  takeRemote: async () => notFound(),
};

/** The bundled sample's path: resources/catalog/sample.csv two levels above this module (or the bundle). */
export function defaultSampleCsvPath(): string {
  return fileURLToPath(new URL('../../resources/catalog/sample.csv', import.meta.url));
}

function notFound(): never {
  throw new CommandError('not_found', 'not_found');
}

/** Builds the handlers the core registers for every catalog and parked-cart command. */
export function catalogHandlers(service: CatalogService, deps: CatalogDeps): AreaHandlers<'catalog'> {
  const mirror = deps.mirror ?? LOCAL_ONLY;
  const lang = (): Language => deps.language?.() ?? 'sr-Cyrl';
  const runImport = (csv: string, dryRun: boolean, replace: boolean) => {
    const result = service.importCsv(csv, { dryRun, replace, currentLabels: deps.currentLabels(), lang: lang() });
    if (result.imported > 0) deps.emit?.('catalog.changed', { products: service.stats([]).products });
    return result;
  };
  return areaHandlers('catalog', {
    'catalog.import': async ({ csv, dryRun, replace }) => runImport(csv, dryRun === true, replace === true),
    'catalog.search': async ({ query, limit }) => service.search(query, limit ?? 20, deps.currentLabels()),
    'catalog.byBarcode': async ({ code }) => service.byBarcode(code, deps.currentLabels()) ?? notFound(),
    'catalog.favourites': async () => service.favourites(deps.currentLabels()),
    'catalog.stats': async () => service.stats(deps.currentLabels()),
    'catalog.loadSample': async () => {
      const csv = await fs.promises.readFile(deps.sampleCsvPath ?? defaultSampleCsvPath(), 'utf8');
      return runImport(csv, false, false);
    },
    'catalog.barcodeRules': async ({ rules }) => {
      if (rules) service.setBarcodeRules(rules);
      return service.barcodeRules();
    },
    'parked.save': async ({ name, cart }) => {
      const saved = service.park(cart, name);
      void mirror.parked(saved.id);
      return saved;
    },
    'parked.list': async () => {
      // Catch up with the mirror (carts another till took disappear) without ever making the cashier wait.
      await Promise.race([mirror.sync(), new Promise((r) => setTimeout(r, LIST_SYNC_WAIT_MS).unref())]);
      return service.parkedList();
    },
    'parked.take': async ({ id }) => {
      await mirror.claimLocal(id);
      return service.takeParked(id) ?? notFound();
    },
    'parked.delete': async ({ id }) => {
      const draftId = mirror.draftOf(id);
      if (!service.deleteParked(id)) notFound();
      void mirror.removed(draftId);
      return { deleted: true as const };
    },
    'parked.remote': () => mirror.remote(),
    'parked.takeRemote': ({ draftId }) => mirror.takeRemote(draftId),
  });
}
