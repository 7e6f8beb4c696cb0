/**
 * The one rule by which the hub lists what both a shop's manager and the admin token read: the rows of one shop,
 * or of every shop when `shopId` is null (the admin token), newest first, at most `limit`.
 */
import type { Queryable } from './db.ts';

/** `columns` of `table` (a table with `id` and `shop_id`), of the shop or of the whole chain, newest first. */
export function newestOfShop<R extends object>(
  q: Queryable,
  table: string,
  columns: string,
  shopId: number | null,
  limit: number,
): Promise<R[]> {
  return q.query<R>(
    `SELECT ${columns} FROM ${table}
      WHERE ($1::int4 IS NULL OR shop_id = $1) ORDER BY id DESC LIMIT $2`,
    [shopId, limit],
  );
}
