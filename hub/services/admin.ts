/**
 * The admin area: the chain's shops, the hub UI's login (which shop, its managers), a shop's shared settings, and
 * the day closer's work and alarm (closing days, pruning acknowledged history).
 */
import { closeDays } from '../report-days.ts';
import { pruneEvents } from '../events.ts';
import { maintenanceAlarm, type MaintenanceAlarm } from '../till-trust.ts';
import { HubError, type ShopSettings } from '../../shared/hub/protocol.ts';
import { lockMasterData, type HubDeps } from './shared.ts';

export function adminService(deps: HubDeps) {
  const { db, iso, zone } = deps;
  return {
    /**
     * The first shop of the first chain, created on a fresh hub so one command gives a working hub. Its name is the
     * shop's until a manager renames it, and it heads the shop's A4 documents: in Serbian, as the papers are.
     */
    async ensureDefaultShop(name = 'Продавница 1'): Promise<number> {
      return db.tx(async (q) => {
        await q.query('SELECT pg_advisory_xact_lock(715003)');
        const have = await q.query<{ id: number }>('SELECT id FROM shops ORDER BY id LIMIT 1');
        if (have[0]) return have[0].id;
        const chain = await q.query<{ id: number }>("INSERT INTO chains (name) VALUES ('Ланац') RETURNING id");
        const shop = await q.query<{ id: number }>(
          'INSERT INTO shops (chain_id, name, created_at) VALUES ($1, $2, $3) RETURNING id',
          [chain[0]?.id, name, iso()],
        );
        return shop[0]?.id ?? 0;
      });
    },

    /** Another shop in the hub's chain. */
    async createShop(name: string): Promise<number> {
      const chain = await db.query<{ id: number }>('SELECT id FROM chains ORDER BY id LIMIT 1');
      if (!chain[0]) throw new HubError(409, 'no_chain', 'the hub has no chain yet');
      const r = await db.query<{ id: number }>(
        'INSERT INTO shops (chain_id, name, created_at) VALUES ($1, $2, $3) RETURNING id',
        [chain[0].id, name, iso()],
      );
      return r[0]?.id ?? 0;
    },

    /** The active managers of every shop (id, name, shop, PIN hash), for the hub UI's login. */
    async managers(shopId: number): Promise<{ shopId: number; id: string; name: string; pinHash: string }[]> {
      const rows = await db.query<{ shop_id: number; id: string; name: string; pin_hash: string }>(
        "SELECT shop_id, id, name, pin_hash FROM staff WHERE shop_id = $1 AND role = 'manager' AND active ORDER BY name",
        [shopId],
      );
      return rows.map((r) => ({ shopId: r.shop_id, id: r.id, name: r.name, pinHash: r.pin_hash }));
    },

    /**
     * The shop a hub login is for: the one it names, or the hub's only shop when it names none. A hub of
     * several shops needs the shop named (the PIN is compared with that shop's managers only).
     */
    async loginShop(shopId: number | undefined): Promise<number> {
      const shops = await db.query<{ id: number }>('SELECT id FROM shops ORDER BY id LIMIT 2');
      if (shopId === undefined) {
        if (shops.length === 1 && shops[0]) return shops[0].id;
        throw new HubError(400, 'invalid_input', 'shopId: this hub has several shops; name the shop', 'shopId');
      }
      const have = await db.query('SELECT 1 FROM shops WHERE id = $1', [shopId]);
      if (!have.length) throw new HubError(404, 'shop_unknown', `no shop ${shopId}`, 'shopId');
      return shopId;
    },

    /** The shops' ids and names, for the hub UI's login (which shop a manager logs in to). */
    async shops(): Promise<{ id: number; name: string }[]> {
      return db.query<{ id: number; name: string }>('SELECT id, name FROM shops ORDER BY id');
    },

    /** Sets a shop's shared settings (each given key; an unchanged value keeps its version) in one transaction. */
    async setShopSettings(shopId: number, settings: ShopSettings): Promise<number> {
      const shop = await db.query('SELECT 1 FROM shops WHERE id = $1', [shopId]);
      if (!shop.length) throw new HubError(404, 'shop_unknown', `no shop ${shopId}`, 'shopId');
      return db.tx(async (q) => {
        await lockMasterData(q);
        let changed = 0;
        for (const [key, value] of Object.entries(settings)) {
          if (value === undefined) continue;
          const r = await q.query(
            `INSERT INTO shop_settings (shop_id, key, value, version) VALUES ($1, $2, $3, nextval('change_seq'))
             ON CONFLICT (shop_id, key) DO UPDATE SET value = excluded.value, version = excluded.version
             WHERE shop_settings.value IS DISTINCT FROM excluded.value RETURNING key`,
            [shopId, key, JSON.stringify(value)],
          );
          changed += r.length;
        }
        return changed;
      });
    },

    /** A shop's shared settings as the hub holds them. */
    async shopSettings(shopId: number): Promise<ShopSettings> {
      const rows = await db.query<{ key: string; value: unknown }>(
        'SELECT key, value FROM shop_settings WHERE shop_id = $1 ORDER BY key',
        [shopId],
      );
      return Object.fromEntries(rows.map((r) => [r.key, r.value])) as ShopSettings;
    },

    /** The day closer's failure while it lasts (hub/till-trust.ts): the managers' alarm; null while it works. */
    maintenance(): Promise<MaintenanceAlarm | null> {
      return maintenanceAlarm(db);
    },

    /** One round of closing days (hub/report-days.ts): what the day closer runs, for tests and benchmarks. */
    closeDays(at = Date.now()): Promise<{ closed: number; resummed: number }> {
      return closeDays(db, zone, at);
    },

    /** Prunes acknowledged history older than `keepMs` (hub/events.ts), as the day closer does. */
    pruneEvents(keepMs: number, at = Date.now()): Promise<number> {
      return pruneEvents(db, keepMs, at);
    },
  };
}
