/**
 * The bookkeeper's exports at the hub (docs/exports.md, "At the hub"): one shop's period over all its tills, as JSON
 * or as one of the till's files (the same layouts: shared/exports/, shared/node/export-files.ts). A hub manager's
 * session acts on its own shop, the admin token on the shop it names.
 */
import { z } from 'zod';
import { AccountFields, EXPORT_FILE_KINDS, type AccountsView, type ExportView } from '../../contract/exports.ts';
import { ShopQuery, shopId, shopIdInQuery } from '../protocol.ts';
import { shopEndpoint, type HubFile } from './define.ts';

const day = z.string({ error: 'date' }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'date' });

/** The files the hub makes: the till's, all of them. */
export const HUB_EXPORT_FILES = EXPORT_FILE_KINDS;

export const HubExportQuery = z
  .object({
    shopId: shopIdInQuery,
    from: day,
    to: day,
    lang: z.enum(['sr-Cyrl', 'sr-Latn', 'en']).optional(),
    /** One file of the period; else the view as JSON. */
    file: z.enum(HUB_EXPORT_FILES, { error: 'export_kind' }).optional(),
  })
  .refine((p) => p.from <= p.to, { error: 'date_order', path: ['to'] });

export const EXPORT_API = {
  /** The shop's export of a period of Belgrade days (`from` to `to`, both included). */
  hubExport: shopEndpoint<ExportView | HubFile>()('GET /api/admin/exports', HubExportQuery),
  /** The shop's journal accounts as mapped at the hub, over the defaults (the till's keys). */
  hubExportAccounts: shopEndpoint<AccountsView>()('GET /api/admin/exports/accounts', ShopQuery),
  /**
   * Maps the shop's journal accounts once, by the till's rules (3 to 10 digits, refused at `accounts.<key>`; a key
   * left out keeps its value); audited `export_accounts`.
   */
  hubSaveExportAccounts: shopEndpoint<AccountsView>()(
    'PUT /api/admin/exports/accounts',
    z.object({ shopId, accounts: AccountFields }),
  ),
};
