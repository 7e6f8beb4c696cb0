/**
 * Parked carts taken on another till through the store hub (#15), used instead of gateway drafts once this
 * till is enrolled with a hub: it works with the internet down as long as the LAN is up. The local parked
 * cart stays this till's truth (parking never waits for the hub); it is pushed to the hub at once or at the
 * next sync. Taking a cart is one `DELETE … RETURNING` at the hub (hub/parked.ts): of two tills taking the
 * same cart exactly one gets it. Which carts are at the hub is kept in `hub_state` (`parked:<local id>` =
 * the hub's id; `parked_owed:<local id>`: a removal the hub has not heard of yet), so no till migration.
 * Without a hub the gateway drafts (electron/catalog/drafts.ts) do all of this as before.
 */
import type { Db } from '../db/open.ts';
import { CommandError } from '../errors.ts';
import { ParkedCart, type ParkedSaleView, type RemoteParkedSale } from '../../shared/contract/catalog.ts';
import type { ParkedMirror } from '../catalog/drafts.ts';
import { dropParked } from '../catalog/service.ts';
import type { HubClient } from './client.ts';
import { createSyncLoop } from '../retry/loop.ts';

export interface HubParkedDeps {
  db: Db;
  /** The hub client while this till is enrolled, else null. */
  hub: () => HubClient | null;
  tillId: () => number | null;
  log?: (line: string) => void;
}

interface ParkedRow {
  id: number;
  created_at: string;
  name: string | null;
  cart: string;
}

const PUSHED = 'parked:';
const OWED = 'parked_owed:';

export function createHubParked(deps: HubParkedDeps): ParkedMirror {
  const { db } = deps;
  const log = deps.log ?? (() => undefined);
  const state = (key: string): string | undefined =>
    db.prepare<[string], { value: string }>('SELECT value FROM hub_state WHERE key = ?').get(key)?.value;
  const setState = (key: string, value: string): void => {
    db.prepare(
      'INSERT INTO hub_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  };
  const dropState = (key: string): void => {
    db.prepare('DELETE FROM hub_state WHERE key = ?').run(key);
  };
  const unreachable = (err: unknown): CommandError =>
    new CommandError('unavailable', 'hub_unreachable', { reason: err instanceof Error ? err.message : String(err) });

  const runSync = async (hub: HubClient): Promise<void> => {
    // Removals the hub has not heard of (a cart resumed or discarded here while the LAN was down).
    const owed = db.prepare<[string], { key: string }>("SELECT key FROM hub_state WHERE key LIKE ? || '%'").all(OWED);
    for (const o of owed) {
      await hub.parkedTake({ localId: Number(o.key.slice(OWED.length)) });
      dropState(o.key);
    }
    const rows = db.prepare<[], ParkedRow>('SELECT id, created_at, name, cart FROM parked_sales ORDER BY id').all();
    for (const row of rows) {
      if (state(PUSHED + row.id) !== undefined) continue;
      const cart = ParkedCart.parse(JSON.parse(row.cart));
      const { id } = await hub.park({ localId: row.id, name: row.name, createdAt: row.created_at, cart });
      const still = db.prepare<[number], { id: number }>('SELECT id FROM parked_sales WHERE id = ?').get(row.id);
      if (still) setState(PUSHED + row.id, String(id));
      else {
        // Resumed or discarded here while the push was under way: the hub's copy must go too.
        setState(OWED + row.id, '1');
        await hub.parkedTake({ localId: row.id });
        dropState(OWED + row.id);
      }
    }
    // This till's carts another till took: gone here too.
    const mine = deps.tillId();
    const atHub = new Set((await hub.parkedList()).carts.filter((c) => c.tillId === mine).map((c) => String(c.id)));
    const pushed = db
      .prepare<[string], { key: string; value: string }>("SELECT key, value FROM hub_state WHERE key LIKE ? || '%'")
      .all(PUSHED);
    for (const p of pushed) {
      if (atHub.has(p.value)) continue;
      db.transaction(() => {
        // Only if still marked: a cart being resumed here has its mark dropped first (claimLocal).
        if (state(p.key) !== p.value) return;
        dropParked(db, Number(p.key.slice(PUSHED.length)));
        dropState(p.key);
      })();
    }
  };

  const loop = createSyncLoop(async () => {
    const hub = deps.hub();
    if (!hub) return;
    await runSync(hub).catch((err: unknown) =>
      log(`parked carts not synced with the hub: ${err instanceof Error ? err.message : String(err)}`),
    );
  });
  const sync = loop.sync;

  return {
    start(intervalMs = 5_000) {
      loop.start(intervalMs);
    },
    stop: loop.stop,
    // The "draft" of a cart here is the cart itself at the hub, named by its local id.
    draftOf(parkedId) {
      return state(PUSHED + parkedId) !== undefined ? parkedId : null;
    },
    async parked() {
      await sync();
    },
    async removed(localId) {
      if (localId === null) return;
      dropState(PUSHED + localId);
      setState(OWED + localId, '1');
      await sync();
    },
    sync,
    async claimLocal(parkedId) {
      if (state(PUSHED + parkedId) === undefined) return;
      dropState(PUSHED + parkedId);
      const hub = deps.hub();
      let taken;
      try {
        if (!hub) throw new Error('no hub');
        taken = await hub.parkedTake({ localId: parkedId });
      } catch {
        // LAN down: resume it here and tell the hub later (the one race a closed network leaves open).
        setState(OWED + parkedId, '1');
        return;
      }
      if (!taken) {
        dropParked(db, parkedId);
        throw new CommandError('not_found', 'parked_taken_elsewhere');
      }
    },
    async remote() {
      await sync();
      const hub = deps.hub();
      if (!hub) return { online: false, sales: [] };
      try {
        const mine = deps.tillId();
        const sales: RemoteParkedSale[] = (await hub.parkedList()).carts
          .filter((c) => c.tillId !== mine)
          .map((c) => ({
            draftId: c.id,
            name: c.name,
            createdAt: c.createdAt,
            lines: c.lines,
            totalPara: c.totalPara,
            terminal: c.tillName,
          }));
        return { online: true, sales };
      } catch {
        return { online: false, sales: [] };
      }
    },
    async takeRemote(id): Promise<ParkedSaleView> {
      const hub = deps.hub();
      if (!hub) throw unreachable('not enrolled');
      let taken;
      try {
        taken = await hub.parkedTake({ id });
      } catch (err) {
        throw unreachable(err);
      }
      if (!taken) throw new CommandError('not_found', 'parked_taken_elsewhere');
      return {
        id: taken.id,
        createdAt: taken.createdAt,
        name: taken.name,
        lines: taken.lines,
        totalPara: taken.totalPara,
        cart: taken.cart,
      };
    },
  };
}

/**
 * The parked-cart mirror the core uses: through the hub while this till is enrolled with one, else the
 * gateway drafts exactly as before (their background sync skips itself while the hub is in use).
 */
export function parkedCarts(viaHub: () => boolean, gateway: ParkedMirror, hub: ParkedMirror): ParkedMirror {
  const pick = (): ParkedMirror => (viaHub() ? hub : gateway);
  return {
    start(intervalMs) {
      gateway.start(intervalMs);
      hub.start();
    },
    async stop() {
      await Promise.all([gateway.stop(), hub.stop()]);
    },
    draftOf: (id) => pick().draftOf(id),
    parked: (id) => pick().parked(id),
    removed: (id) => pick().removed(id),
    claimLocal: (id) => pick().claimLocal(id),
    sync: () => pick().sync(),
    remote: () => pick().remote(),
    takeRemote: (id) => pick().takeRemote(id),
  };
}
