/**
 * The reorder list's rule, one copy for the till (electron/goods/stocktake.ts) and the hub
 * (hub/services/goods-minimums.ts): the products below their minimum, grouped by the supplier they were last
 * received from, with the quantity to order (minimum − on hand); suppliers by name, the never-received last.
 */
import type { ReorderItem, ReorderView, SupplierView } from '../contract/goods.ts';

/** A product below its minimum as either book reads it. */
export interface ReorderRow {
  code: string;
  name: string;
  unit: string | null;
  qty: number;
  min: number;
  purchase: number | null;
}

/** The rows grouped by `keyOf` (null: never received); each group's supplier read once by `supplierOf`. */
export function reorderView<R extends ReorderRow>(
  rows: readonly R[],
  keyOf: (r: R) => string | number | null,
  supplierOf: (r: R) => SupplierView | null,
): ReorderView {
  const groups = new Map<string | number | null, { supplier: SupplierView | null; items: ReorderItem[] }>();
  for (const r of rows) {
    const key = keyOf(r);
    let group = groups.get(key);
    if (!group) {
      group = { supplier: key === null ? null : supplierOf(r), items: [] };
      groups.set(key, group);
    }
    const qty = Number(r.qty);
    const min = Number(r.min);
    group.items.push({
      code: r.code,
      name: r.name,
      unit: r.unit ?? 'piece',
      onHandMilli: qty,
      minimumMilli: min,
      orderMilli: min - qty,
      purchasePara: r.purchase === null ? null : Number(r.purchase),
    });
  }
  const suppliers = [...groups.values()].sort((a, b) =>
    a.supplier === null ? 1 : b.supplier === null ? -1 : a.supplier.name.localeCompare(b.supplier.name, 'sr'),
  );
  return { suppliers };
}
