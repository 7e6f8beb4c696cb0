/**
 * The shop's account map at the hub (docs/exports.md, "At the hub"): the posting journal's accounts a hub manager
 * maps once per shop, by the till's rules (shared/exports/accounts.ts: the same keys, 3 to 10 digits, a key not set
 * keeps its default). The only writer of `hub_export_accounts` (hub migration 035); the export reads it.
 */
import type { AccountsView } from '../../shared/contract/exports.ts';
import {
  accountsChanged,
  accountsFrom,
  DEFAULT_ACCOUNTS,
  type AccountKey,
  type AccountMap,
} from '../../shared/exports/accounts.ts';
import type { Queryable } from '../db/db.ts';
import type { HubDeps } from './shared.ts';

async function stored(q: Queryable, shopId: number, lock = false): Promise<AccountMap> {
  const r = await q.query<{ accounts: Record<string, unknown> }>(
    `SELECT accounts FROM hub_export_accounts WHERE shop_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [shopId],
  );
  return accountsFrom(r[0]?.accounts ?? {});
}

const viewOf = (accounts: AccountMap): AccountsView => ({ accounts, defaults: { ...DEFAULT_ACCOUNTS } });

export function exportsService(deps: HubDeps) {
  const { db, iso } = deps;
  return {
    /** The shop's journal accounts as mapped at the hub, over the defaults. */
    async exportAccounts(shopId: number): Promise<AccountsView> {
      return viewOf(await stored(db, shopId));
    },

    /**
     * Maps some of the shop's journal accounts (the input is checked by the contract's schema: 3 to 10 digits at
     * each key's field); a key left out keeps its value. The map and the accounts it changed (for the audit).
     */
    async saveExportAccounts(
      shopId: number,
      accounts: Partial<Record<AccountKey, string>>,
      actor: string | null,
    ): Promise<{ view: AccountsView; changed: string[] }> {
      return db.tx(async (q) => {
        // The shop's row locked (or the shop's, before its first map), so two saves at once merge in turn.
        await q.query('SELECT id FROM shops WHERE id = $1 FOR UPDATE', [shopId]);
        const before = await stored(q, shopId, true);
        const next = accountsFrom({ ...before, ...accounts });
        await q.query(
          `INSERT INTO hub_export_accounts (shop_id, accounts, updated_at, updated_by) VALUES ($1, $2, $3, $4)
           ON CONFLICT (shop_id) DO UPDATE SET accounts = excluded.accounts, updated_at = excluded.updated_at,
             updated_by = excluded.updated_by`,
          [shopId, JSON.stringify(next), iso(), actor],
        );
        return { view: viewOf(next), changed: accountsChanged(before, next) };
      });
    },
  };
}
