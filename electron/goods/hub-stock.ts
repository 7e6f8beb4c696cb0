/**
 * The counter's stock figures for a till enrolled at a store hub (docs/goods.md "At the hub"): the shop's stock is
 * kept at the hub, where every till's sales arrive, so the till asks it (`tillStock`) and keeps what it read in
 * `hub_stock_seen`; while the hub is away it answers the last figures with their time. A till without a hub answers
 * its own book (`stock`).
 */
import type { Db } from '../db/open.ts';
import type { HubClient } from '../hub-client/client.ts';
import type { HubStockSeen } from '../../shared/contract/goods.ts';

export function createHubStock(db: Db, hub: () => HubClient | null, now: () => Date) {
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

  return {
    async read(codes: readonly string[]): Promise<HubStockSeen> {
      const unique = [...new Set(codes)];
      if (!unique.length) return { fromHub: false, at: null, stock: [] };
      const client = hub();
      if (!client)
        return {
          fromHub: false,
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
        return { fromHub: true, at: answer.at, stock: answer.stock };
      } catch {
        const rows = seen(unique);
        const at = rows.reduce<string | null>((min, r) => (min === null || r.at < min ? r.at : min), null);
        return { fromHub: false, at, stock: rows.map((r) => ({ code: r.code, qtyMilli: r.qty })) };
      }
    },
  };
}

export type HubStock = ReturnType<typeof createHubStock>;
