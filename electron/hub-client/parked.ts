/**
 * Parked carts taken on another till through the store hub, used instead of gateway drafts once this
 * till is enrolled with a hub: it works with the internet down as long as the LAN is up. The local parked
 * cart stays this till's truth (parking never waits for the hub); it is pushed to the hub at once or at the
 * next sync. Taking a cart is one `DELETE … RETURNING` at the hub (hub/parked.ts): of two tills taking the
 * same cart exactly one gets it. Which carts are at the hub is kept in `hub_parked` (migration 013: per
 * local cart the hub's id once pushed, and `owed`: a removal the hub has not heard of yet).
 * Without a hub the gateway drafts (electron/catalog/drafts.ts) do all of this as before.
 */
import type { Db } from '../db/open.ts';
import { CommandError } from '../errors.ts';
import { ParkedCart, type ParkedSaleView, type RemoteParkedSale } from '../../shared/contract/catalog.ts';
import { mirrorSync, type ParkedMirror } from '../catalog/drafts.ts';
import { dropParked, type ParkedRow } from '../catalog/service.ts';
import type { HubClient } from './client.ts';

export interface HubParkedDeps {
  db: Db;
  /** The hub client while this till is enrolled, else null. */
  hub: () => HubClient | null;
  tillId: () => number | null;
  log?: (line: string) => void;
}

export function createHubParked(deps: HubParkedDeps): ParkedMirror {
  const { db } = deps;
  const log = deps.log ?? (() => undefined);
  // A local cart's marks: its id at the hub once pushed, and a removal owed to the hub (a row has one or both).
  const pushedAs = (localId: number): number | undefined =>
    db
      .prepare<[number], { hub_id: number }>('SELECT hub_id FROM hub_parked WHERE local_id = ? AND hub_id IS NOT NULL')
      .get(localId)?.hub_id;
  const setPushed = (localId: number, hubId: number): void => {
    db.prepare(
      `INSERT INTO hub_parked (local_id, hub_id) VALUES (?, ?)
       ON CONFLICT (local_id) DO UPDATE SET hub_id = excluded.hub_id`,
    ).run(localId, hubId);
  };
  const setOwed = (localId: number): void => {
    db.prepare(
      'INSERT INTO hub_parked (local_id, owed) VALUES (?, 1) ON CONFLICT (local_id) DO UPDATE SET owed = 1',
    ).run(localId);
  };
  // The row goes when this was its only mark, else only the mark does.
  const dropPushed = (localId: number): void => {
    db.prepare('DELETE FROM hub_parked WHERE local_id = ? AND owed = 0').run(localId);
    db.prepare('UPDATE hub_parked SET hub_id = NULL WHERE local_id = ?').run(localId);
  };
  const dropOwed = (localId: number): void => {
    db.prepare('DELETE FROM hub_parked WHERE local_id = ? AND hub_id IS NULL').run(localId);
    db.prepare('UPDATE hub_parked SET owed = 0 WHERE local_id = ?').run(localId);
  };
  const unreachable = (err: unknown): CommandError =>
    new CommandError('unavailable', 'hub_unreachable', { reason: err instanceof Error ? err.message : String(err) });

  const runSync = async (hub: HubClient): Promise<void> => {
    // Removals the hub has not heard of (a cart resumed or discarded here while the LAN was down).
    const owed = db.prepare<[], { local_id: number }>('SELECT local_id FROM hub_parked WHERE owed = 1').all();
    for (const o of owed) {
      await hub.parkedTake({ localId: o.local_id });
      dropOwed(o.local_id);
    }
    const rows = db.prepare<[], ParkedRow>('SELECT id, created_at, name, cart FROM parked_sales ORDER BY id').all();
    for (const row of rows) {
      if (pushedAs(row.id) !== undefined) continue;
      const cart = ParkedCart.parse(JSON.parse(row.cart));
      const { id } = await hub.park({ localId: row.id, name: row.name, createdAt: row.created_at, cart });
      const still = db.prepare<[number], { id: number }>('SELECT id FROM parked_sales WHERE id = ?').get(row.id);
      if (still) setPushed(row.id, id);
      else {
        // Resumed or discarded here while the push was under way: the hub's copy must go too.
        setOwed(row.id);
        await hub.parkedTake({ localId: row.id });
        dropOwed(row.id);
      }
    }
    // This till's carts another till took: gone here too.
    const mine = deps.tillId();
    const atHub = new Set((await hub.parkedList()).carts.filter((c) => c.tillId === mine).map((c) => c.id));
    const pushed = db
      .prepare<[], { local_id: number; hub_id: number }>(
        'SELECT local_id, hub_id FROM hub_parked WHERE hub_id IS NOT NULL',
      )
      .all();
    for (const p of pushed) {
      if (atHub.has(p.hub_id)) continue;
      db.transaction(() => {
        // Only if still marked: a cart being resumed here has its mark dropped first (claimLocal).
        if (pushedAs(p.local_id) !== p.hub_id) return;
        dropParked(db, p.local_id);
        dropPushed(p.local_id);
      })();
    }
  };

  const mirror = mirrorSync(
    async () => {
      const hub = deps.hub();
      if (hub) await runSync(hub);
    },
    'parked carts not synced with the hub',
    log,
    5_000,
  );
  const sync = mirror.sync;

  return {
    ...mirror,
    // The "draft" of a cart here is the cart itself at the hub, named by its local id.
    draftOf(parkedId) {
      return pushedAs(parkedId) !== undefined ? parkedId : null;
    },
    async removed(localId) {
      if (localId === null) return;
      dropPushed(localId);
      setOwed(localId);
      await sync();
    },
    async claimLocal(parkedId) {
      if (pushedAs(parkedId) === undefined) return;
      dropPushed(parkedId);
      const hub = deps.hub();
      let taken;
      try {
        if (!hub) throw new Error('no hub');
        taken = await hub.parkedTake({ localId: parkedId });
      } catch {
        // LAN down: resume it here and tell the hub later (the one race a closed network leaves open).
        setOwed(parkedId);
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
