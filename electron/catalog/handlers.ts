/** The catalog commands' handlers: thin adapters from validated contract input to the catalog service. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CommandParsedInput, CommandResult, EventPayload } from '../../shared/contract/index.ts';
import type { catalogCommands } from '../../shared/contract/catalog.ts';
import type { Language } from '../../shared/domain.ts';
import { CommandError } from '../errors.ts';
import type { CatalogService } from './service.ts';

/** The parked carts of other tills need the gateway: the core serves those two (electron/catalog/drafts.ts). */
type CatalogCommandName = Exclude<keyof typeof catalogCommands, 'parked.remote' | 'parked.takeRemote'>;

/** One async handler per catalog command; input is already validated by the transport. */
export type CatalogHandlers = {
  [N in CatalogCommandName]: (input: CommandParsedInput<N>) => Promise<CommandResult<N>>;
};

export interface CatalogDeps {
  /** Labels of the current tax rates (exact strings). */
  currentLabels(): string[];
  /** The UI language, for import messages (default Serbian Cyrillic). */
  language?(): Language;
  /** Publishes `catalog.changed` after an import. */
  emit?(name: 'catalog.changed', payload: EventPayload<'catalog.changed'>): void;
  /** Where the sample catalog is (default resources/catalog/sample.csv beside the app). */
  sampleCsvPath?: string;
}

/** The bundled sample's path: resources/catalog/sample.csv two levels above this module (or the bundle). */
export function defaultSampleCsvPath(): string {
  return fileURLToPath(new URL('../../resources/catalog/sample.csv', import.meta.url));
}

function notFound(): never {
  throw new CommandError('not_found', 'not_found');
}

/** Builds the handlers the core registers for every catalog and parked-sale command. */
export function catalogHandlers(service: CatalogService, deps: CatalogDeps): CatalogHandlers {
  const lang = (): Language => deps.language?.() ?? 'sr-Cyrl';
  const runImport = (csv: string, dryRun: boolean, replace: boolean) => {
    const result = service.importCsv(csv, { dryRun, replace, currentLabels: deps.currentLabels(), lang: lang() });
    if (result.imported > 0) deps.emit?.('catalog.changed', { products: service.stats([]).products });
    return result;
  };
  return {
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
    'parked.save': async ({ name, cart }) => service.park(cart, name),
    'parked.list': async () => service.parkedList(),
    'parked.take': async ({ id }) => service.takeParked(id) ?? notFound(),
    'parked.delete': async ({ id }) => (service.deleteParked(id) ? { deleted: true as const } : notFound()),
  };
}
