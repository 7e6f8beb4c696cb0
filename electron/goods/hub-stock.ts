/**
 * The counter's stock figures for a till enrolled at a store hub (docs/goods.md "At the hub"): the shop's stock is
 * kept at the hub, where every till's sales arrive, so the till keeps a snapshot of it in `hub_stock_seen`,
 * refreshed after each sync round with the rows changed since the last answer (`refresh`), which the counter's
 * search reads locally (electron/catalog/service.ts): no hub call per keystroke. The product's card asks the hub for
 * its products now (`read`, `goods.hubStock`); while the hub is away both answer the last figures with their time. A
 * till without a hub answers its own book (`stock`).
 */
import type { Db } from '../db/open.ts';
import type { HubClient } from '../hub-client/client.ts';
import type { HubStockSeen } from '../../shared/contract/goods.ts';
import type { TillStockAnswer } from '../../shared/hub/goods-protocol.ts';

/**
 * Whether this till is enrolled at a store hub (it has its till id there): then the shop's book is the hub's, where
 * this till's fiscalized sales and refunds arrive by the push, and the till's own book does not move them again
 * (docs/goods.md "Which book").
 */
export function enrolledAtHub(db: Db): boolean {
  return db.prepare("SELECT 1 FROM hub_state WHERE key = 'till_id' AND value <> ''").get() !== undefined;
}

/** The snapshot is the last known figure (shown with its time) once no refresh worked for this long. */
export const HUB_STOCK_STALE_MS = 15_000;
/** The least time between two refreshes of the snapshot (the sync rounds run every second). */
const REFRESH_EVERY_MS = 2_000;

export function createHubStock(db: Db, hub: () => HubClient | null, now: () => Date) {
  /** The last refresh that worked: the hub's time of its answer and the till's clock then. */
  let fresh: { at: string; tillMs: number } | null = null;
  let cursor: string | null = null;
  let triedMs = 0;
  let kept: string | null | undefined;
  const keep = db.prepare(
    `INSERT INTO hub_stock_seen (product_code, qty_milli, at) VALUES (?, ?, ?)
     ON CONFLICT (product_code) DO UPDATE SET qty_milli = excluded.qty_milli, at = excluded.at`,
  );
  const seen = (codes: readonly string[]) =>
    db
      .prepare<string[], { code: string; qty: number; at: string }>(
        `SELECT product_code AS code, qty_milli AS qty, at FROM hub_stock_seen
          WHERE product_code IN (${codes.map(() => '?').join(',')}) ORDER BY product_code`,
      )
      .all(...codes);
  const own = (codes: readonly string[]) =>
    db
      .prepare<string[], { code: string; qty: number }>(
        `SELECT product_code AS code, qty_milli AS qty FROM stock
          WHERE product_code IN (${codes.map(() => '?').join(',')}) ORDER BY product_code`,
      )
      .all(...codes);

  const seenOne = db.prepare<[string], { qty_milli: number }>(
    'SELECT qty_milli FROM hub_stock_seen WHERE product_code = ?',
  );
  const lastSeen = db.prepare<[], { at: string | null }>('SELECT max(at) AS at FROM hub_stock_seen');
  const keepAll = db.transaction((answer: TillStockAnswer) => {
    for (const r of answer.stock) keep.run(r.code, r.qtyMilli, answer.at);
  });

  return {
    /**
     * The snapshot's figures are read instead of the till's own book (a hub is configured), with the time they are
     * as of when they are the last known (no refresh worked for {@link HUB_STOCK_STALE_MS}); null without a hub.
     */
    source(): { asOf: string | null } | null {
      if (!hub()) return null;
      // Refreshed lately: the figures are current.
      if (fresh && now().getTime() - fresh.tillMs < HUB_STOCK_STALE_MS) return { asOf: null };
      // The hub away: as of its last answer; never read since this till started, the newest figure kept (read
      // once: a scan of the snapshot, never per keystroke).
      if (fresh) return { asOf: fresh.at };
      kept ??= lastSeen.get()?.at ?? null;
      return { asOf: kept };
    },

    /** A product's quantity in the snapshot of the shop's stock at the hub (undefined: never read). */
    seenQty(code: string): number | undefined {
      return seenOne.get(code)?.qty_milli;
    },

    /** The hub did not answer: the snapshot is the last known from now on, until a refresh works again. */
    away(): void {
      if (fresh) fresh = { ...fresh, tillMs: -Infinity };
    },

    /**
     * Brings the snapshot up to date: the whole book page by page the first time, then only what changed since the
     * last answer's cursor. Called after each sync round; a failure leaves the last figures (they age into „as of“).
     */
    async refresh(client: HubClient): Promise<void> {
      const started = now().getTime();
      if (started - triedMs < REFRESH_EVERY_MS) return;
      triedMs = started;
      let after = '';
      let next: string | null = null;
      let at = '';
      for (let page = 0; page < 1000; page++) {
        const answer = await client.stockPage(cursor, after);
        keepAll(answer);
        next ??= answer.cursor ?? null;
        at ||= answer.at;
        const last = answer.stock[answer.stock.length - 1];
        if (!answer.more || !last) break;
        after = last.code;
      }
      cursor = next;
      fresh = { at, tillMs: now().getTime() };
    },

    async read(codes: readonly string[]): Promise<HubStockSeen> {
      const unique = [...new Set(codes)];
      if (!unique.length) return { fromHub: false, hub: hub() !== null, at: null, stock: [] };
      const client = hub();
      if (!client)
        return {
          fromHub: false,
          hub: false,
          at: now().toISOString(),
          stock: own(unique).map((r) => ({ code: r.code, qtyMilli: r.qty })),
        };
      try {
        const answer = await client.stock(unique);
        db.transaction(() => {
          for (const r of answer.stock) keep.run(r.code, r.qtyMilli, answer.at);
          // A product the hub holds no stock of has none: 0 at that time.
          const held = new Set(answer.stock.map((r) => r.code));
          for (const c of unique) if (!held.has(c)) keep.run(c, 0, answer.at);
        })();
        return { fromHub: true, hub: true, at: answer.at, stock: answer.stock };
      } catch {
        const rows = seen(unique);
        const at = rows.reduce<string | null>((min, r) => (min === null || r.at < min ? r.at : min), null);
        return { fromHub: false, hub: true, at, stock: rows.map((r) => ({ code: r.code, qtyMilli: r.qty })) };
      }
    },
  };
}

export type HubStock = ReturnType<typeof createHubStock>;
