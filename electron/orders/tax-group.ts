/**
 * Orders issued under another tax-rate group than the one in force when they were captured.
 *
 * A sale rung before a rate change and sent after it is signed by the gateway with the new group: the
 * receipt is valid and fiscalized (not parked), but its VAT is not what the cashier's screen showed, so
 * the manager must see it. The group at capture is `orders.data.taxGroup` (receipt-stamp.ts); the group
 * that signed is the receipt's `additional.taxGroupRevision` (spec: the tax-rate group revision).
 * Migration 012 indexes exactly these orders (a partial index on the expression below), so the list
 * and its count (orders/queries.ts) never read the history.
 */
import type { OrderRow, OrderStore } from './store.ts';
import type { OrderView } from '../../shared/domain.ts';

/** The SQL test of "issued under another group" (kept byte-equal to the partial index of migration 012). */
export const TAX_GROUP_CHANGED_WHERE = `state = 'fiscalized' AND json_extract(data, '$.taxGroup.groupId') IS NOT NULL
    AND CAST(json_extract(data, '$.taxGroup.groupId') AS TEXT) <> CAST(json_extract(receipt, '$.additional.taxGroupRevision') AS TEXT)`;

/** The order's captured group and the receipt's, when they differ (for OrderView). */
export function taxGroupChange(
  data: { taxGroup?: { groupId: number } | undefined },
  receiptJson: string | null,
): { taxGroupChanged?: { capturedGroupId: number; issuedGroupId: string } } {
  if (!data.taxGroup || !receiptJson) return {};
  const additional = (JSON.parse(receiptJson) as { additional?: { taxGroupRevision?: unknown } }).additional;
  const issued = additional?.taxGroupRevision;
  if (issued === undefined || issued === null || String(issued) === String(data.taxGroup.groupId)) return {};
  return { taxGroupChanged: { capturedGroupId: data.taxGroup.groupId, issuedGroupId: String(issued) } };
}

/** `orders.list {taxGroupChanged: true}`: those orders as the contract shows them. */
export function taxGroupChangedList(
  store: OrderStore,
  limit: number,
  offset: number,
): { orders: OrderView[]; total: number } {
  const { ids, total } = store.queries.taxGroupChangedIds(limit, offset);
  return {
    orders: ids
      .map((id) => store.get(id))
      .filter((r): r is OrderRow => r !== undefined)
      .map((r) => store.view(r)),
    total,
  };
}
