/**
 * Scheduled price changes at the hub (issue 42, docs/prices.md "At the hub"): one shop's, or the whole chain's (a
 * row of `hub_prices` with `shop_id` null). A chain's change sets the product's price in every shop of the chain
 * that has it, at its moment. **Which one wins:** at the same moment, a shop's own change of a product wins over the
 * chain's there, as a rule on the product wins over one on its group: the more particular one. The chain's change
 * is then skipped in that shop (its tills get it as `skipped`), and applied in the others.
 */
import type { Queryable } from '../db/db.ts';
import type { HubScheduledRow } from '../../shared/hub/prices.ts';
import { setProductPrice } from './catalog.ts';

/** A shop's own scheduled change of the product at the moment, not cancelled: it overrides the chain's there. */
const OWN_CHANGE = `EXISTS (SELECT 1 FROM hub_prices o WHERE o.kind = 'scheduled' AND o.shop_id = s.id
  AND o.state <> 'cancelled' AND NOT o.deleted AND o.data->>'code' = $2 AND o.data->>'at' = $3)`;

/** The key of a product's change at a moment. */
export const changeKey = (code: string, at: string): string => `${code}\u0000${at}`;

/** The changes (product and moment) a shop has of its own, not cancelled: the chain's same ones are skipped there. */
export async function ownChanges(q: Queryable, shopId: number): Promise<Set<string>> {
  const rows = await q.query<{ code: string; at: string }>(
    `SELECT data->>'code' AS code, data->>'at' AS at FROM hub_prices
      WHERE kind = 'scheduled' AND shop_id = $1 AND state <> 'cancelled' AND NOT deleted`,
    [shopId],
  );
  return new Set(rows.map((r) => changeKey(r.code, r.at)));
}

/**
 * A shop's own change of `code` at `at` was made or cancelled: the chain's pending change of it at that moment
 * gets a new version, so the shop's tills pull it again with its state there (skipped, or pending again).
 */
export async function touchChainChange(
  q: Queryable,
  chainId: number,
  change: { code: string; at: string },
  now: string,
): Promise<void> {
  await q.query(
    `UPDATE hub_prices SET version = nextval('change_seq'), updated_at = $4
      WHERE kind = 'scheduled' AND shop_id IS NULL AND chain_id = $1 AND state = 'pending'
        AND data->>'code' = $2 AND data->>'at' = $3`,
    [chainId, change.code, change.at, now],
  );
}

/** Sets a chain's change in every shop of the chain that has the product and no own change then; how many. */
async function applyChainChange(q: Queryable, chainId: number, s: HubScheduledRow): Promise<number> {
  const shops = await q.query<{ id: number }>(
    `SELECT s.id FROM shops s WHERE s.chain_id = $1 AND NOT ${OWN_CHANGE} ORDER BY s.id`,
    [chainId, s.code, s.at],
  );
  let changed = 0;
  for (const shop of shops) if (await setProductPrice(q, Number(shop.id), s.code, s.price_para)) changed++;
  return changed;
}

/**
 * Applies every scheduled change due by now, each once (pending → applied, or skipped when no shop it is for has
 * the product any more): the products' new prices with a new version, in the caller's transaction.
 */
export async function applyDueChanges(q: Queryable, iso: () => string): Promise<number> {
  const due = await q.query<{ id: number; shop_id: number | null; chain_id: number; data: HubScheduledRow }>(
    `SELECT id, shop_id, chain_id, data FROM hub_prices
      WHERE kind = 'scheduled' AND state = 'pending' AND (data->>'at')::text <= $1 ORDER BY (data->>'at')::text, id`,
    [iso()],
  );
  for (const d of due) {
    const changed =
      d.shop_id === null
        ? (await applyChainChange(q, Number(d.chain_id), d.data)) > 0
        : await setProductPrice(q, d.shop_id, d.data.code, d.data.price_para);
    const state = changed ? 'applied' : 'skipped';
    await q.query(
      `UPDATE hub_prices SET state = $2, data = jsonb_set(data, '{state}', to_jsonb($2::text)),
         version = nextval('change_seq'), updated_at = $3 WHERE id = $1`,
      [d.id, state, iso()],
    );
  }
  return due.length;
}
