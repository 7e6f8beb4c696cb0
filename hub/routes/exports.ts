/**
 * The handler of the bookkeeper's export at the hub (shared/hub/contract/exports.ts): the guard has identified the
 * manager and settled the shop; the export is read (hub/exports.ts) and, when a file is asked for, written by the
 * till's own code (shared/node/export-files.ts), on the accounts the shop mapped at the hub (hub/services/exports.ts);
 * a change of the map is audited.
 */
import type { EXPORT_API } from '../../shared/hub/contract.ts';
import { exportFile } from '../../shared/node/export-files.ts';
import { hubExport } from '../exports.ts';
import type { HubHandlers } from '../router.ts';
import type { RouteDeps } from './deps.ts';

const TYPES = { pdf: 'application/pdf', csv: 'text/csv; charset=utf-8' };

export function exportHandlers({ service, guard, now }: RouteDeps): HubHandlers<typeof EXPORT_API> {
  return {
    hubExport: async ({ input, shop }) => {
      const lang = input.lang ?? 'sr-Cyrl';
      const { accounts } = await service.exportAccounts(shop);
      const kep = await service.kep(shop, input.from, input.to, lang);
      const view = await hubExport(service.db, { shopId: shop, from: input.from, to: input.to, lang, accounts, kep });
      if (!input.file) return view;
      const identity = await service.shopIdentity(shop);
      const f = await exportFile(view, input.file, {
        language: () => lang,
        accounts: () => accounts,
        shop: () => identity,
        now: () => new Date(now()),
      });
      const bytes = Buffer.from(f.base64, 'base64');
      return {
        kind: 'file',
        filename: f.fileName,
        type: input.file === 'pdf' ? TYPES.pdf : TYPES.csv,
        // A CSV starts with a BOM, as the till's screen saves it, so that a spreadsheet reads the Cyrillic.
        text: input.file === 'pdf' ? new Uint8Array(bytes) : `\ufeff${bytes.toString('utf8')}`,
      };
    },
    hubExportAccounts: ({ shop }) => service.exportAccounts(shop),
    hubSaveExportAccounts: async ({ who, input, shop }) => {
      const { view, changed } = await service.saveExportAccounts(shop, input.accounts, who.self);
      await guard.audit(who, 'export_accounts', { accounts: changed.join(', ') }, shop);
      return view;
    },
  };
}
