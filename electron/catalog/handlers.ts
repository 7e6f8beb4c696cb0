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
import { toPara } from '../../shared/money.ts';
import type { Caller } from '../auth/context.ts';
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { CommandError, invalidInput } from '../errors.ts';
import { isValidGtin } from './barcode.ts';
import type { ParkedMirror } from './drafts.ts';
import type { CatalogService } from './service.ts';

export interface CatalogDeps {
  /** Labels of the current tax rates (exact strings), less those the Tax Administration refused for the account. */
  currentLabels(): string[];
  /** Labels of the current tax rates the Tax Administration refused for this account (2310). */
  refusedLabels?(): string[];
  /** The UI language, for import messages (default Serbian Cyrillic). */
  language?(): Language;
  /** Publishes `catalog.changed` after an import. */
  emit?(name: 'catalog.changed', payload: EventPayload<'catalog.changed'>): void;
  /** Where the sample catalog is (default resources/catalog/sample.csv beside the app). */
  sampleCsvPath?: string;
  /** Where parked carts are mirrored for the other tills (default: nowhere, this till only). */
  mirror?: ParkedMirror;
  /**
   * True when a store hub owns the catalog (this till is enrolled or configured for one): its products come
   * down from the hub and would overwrite a change made here, so the till refuses to change them.
   */
  hubOwnsCatalog?(): boolean;
  /** The audit log (electron/auth/staff.ts): a product added, changed or deleted on the till. */
  audit?(actor: string | null, action: string, detail: Record<string, unknown>, approver: string | null): void;
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
  const refuseWhenHubOwned = (field = 'code'): void => {
    if (deps.hubOwnsCatalog?.()) throw new CommandError('forbidden', 'catalog_hub_owned', { field }, field);
  };
  const audit = (caller: Caller | undefined, action: string, detail: Record<string, unknown>): void =>
    deps.audit?.(caller?.actor?.name ?? null, action, detail, caller?.approver?.name ?? null);
  const changed = (): void => deps.emit?.('catalog.changed', { products: service.count() });
  return areaHandlers('catalog', {
    'catalog.list': async ({ query, after, limit }) => {
      const n = limit ?? 50;
      const labels = deps.currentLabels();
      const base = { total: service.count(), hubOwned: deps.hubOwnsCatalog?.() ?? false };
      // A search is the FTS index's best matches (one page); the plain list pages on the code's unique index.
      if (query !== undefined && query.trim() !== '')
        return { ...base, products: service.search(query, n, labels), next: null };
      const page = service.page(after ?? '', n, labels);
      return { ...base, products: page.products, next: page.more ? (page.products.at(-1)?.code ?? null) : null };
    },
    'catalog.put': async (p, caller) => {
      refuseWhenHubOwned();
      const labels = deps.currentLabels();
      // A product is sold under its label: one the gateway does not offer would be refused at every sale.
      if (labels.length === 0) throw invalidInput('label', 'tax_rates_missing');
      if (deps.refusedLabels?.().includes(p.label))
        throw invalidInput('label', 'label_refused', { value: p.label, labels: labels.join(', ') });
      if (!labels.includes(p.label))
        throw invalidInput('label', 'label_not_current', { value: p.label, labels: labels.join(', ') });
      p.barcodes.forEach((b, i) => {
        if (!isValidGtin(b)) throw invalidInput(`barcodes.${i}`, 'gtin_check', { value: b });
        const owner = service.barcodeOwner(b);
        if (owner && owner.code !== p.code)
          throw invalidInput(`barcodes.${i}`, 'barcode_taken', { value: b, other: owner.name });
      });
      const before = service.product(p.code, labels);
      if (p.create && before) throw invalidInput('code', 'product_code_taken', { value: p.code, other: before.name });
      const pricePara = toPara(p.price) ?? 0;
      // Checked above and written below with no await between: no other command can take a barcode meanwhile.
      service.put({
        code: p.code,
        name: p.name,
        pricePara,
        label: p.label,
        unit: p.unit,
        group: p.group ? p.group : null,
        favourite: p.favourite,
        barcodes: [...new Set(p.barcodes)],
      });
      audit(caller, before ? 'catalog.productChanged' : 'catalog.productAdded', {
        code: p.code,
        name: p.name,
        pricePara,
        ...(before ? { priceBeforePara: before.pricePara, nameBefore: before.name, labelBefore: before.label } : {}),
        label: p.label,
      });
      changed();
      const saved = service.product(p.code, labels);
      if (!saved) throw new Error(`product ${p.code} not found after it was saved`);
      return saved;
    },
    'catalog.remove': async ({ code }, caller) => {
      refuseWhenHubOwned();
      const before = service.product(code, []);
      if (!before || !service.remove(code)) throw new CommandError('not_found', 'not_found', { field: 'code' }, 'code');
      audit(caller, 'catalog.productRemoved', { code, name: before.name, pricePara: before.pricePara });
      changed();
      return { removed: true as const };
    },
    'catalog.groups': async () => service.groups(),
    'catalog.bulkPrice': async ({ group, percentBp, dryRun }, caller) => {
      refuseWhenHubOwned('group');
      const count = service.bulkPrice(group, percentBp, { dryRun: dryRun === true });
      if (count === 0) throw invalidInput('group', 'group_unknown', { value: group });
      if (dryRun !== true) {
        audit(caller, 'catalog.bulkPrice', { group, percentBp, count });
        changed();
      }
      return { group, percentBp, count, dryRun: dryRun === true };
    },
    'catalog.export': async () => service.exportCsv(lang()),
    'catalog.import': async ({ csv, dryRun, replace }) => runImport(csv, dryRun === true, replace === true),
    'catalog.search': async ({ query, limit }) => service.search(query, limit ?? 20, deps.currentLabels()),
    'catalog.byBarcode': async ({ code }) => service.byBarcode(code, deps.currentLabels()) ?? notFound(),
    'catalog.byIds': async ({ ids }) => {
      const labels = deps.currentLabels();
      return [...new Set(ids)].flatMap((id) => service.productById(id, labels) ?? []);
    },
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
