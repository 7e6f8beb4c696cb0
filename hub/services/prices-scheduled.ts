/**
 * Scheduled price changes at the hub (issue 42, docs/prices.md "At the hub"): one shop's, or the whole chain's (a
 * row of `hub_prices` with `shop_id` null). A chain's change sets the product's price in every shop of the chain
 * that has it, at its moment. **Which one wins:** at the same moment, a shop's own change of a product wins over the
 * chain's there, as a rule on the product wins over one on its group: the more particular one. The chain's change
 * is then skipped in that shop (its tills get it as `skipped`), and applied in the others. What reads them lives here;
 * what writes `hub_prices` (a change coming due, a chain's change touched) is in prices.ts, the table's one writer.
 */
import type { Queryable } from '../db/db.ts';

/** A shop's own scheduled change of the product at the moment, not cancelled: it overrides the chain's there. */
export const OWN_CHANGE = `EXISTS (SELECT 1 FROM hub_prices o WHERE o.kind = 'scheduled' AND o.shop_id = s.id
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
