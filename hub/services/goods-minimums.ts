/**
 * Minimums per product per shop and the reorder list at the hub (docs/goods.md "At the hub"), by the till's rule:
 * the products whose stock is below their minimum, grouped by the supplier of the newest posted receipt (not
 * reversed) that brought them in, with the quantity to order (minimum − on hand). Table `hub_stock_minimums`.
 */
import type { ReorderView } from '../../shared/contract/goods.ts';
import { reorderView, type ReorderRow } from '../../shared/goods/reorder.ts';
import type { HubMinimum, HubMinimumInput } from '../../shared/hub/goods-protocol.ts';
import { productsOf } from './goods.ts';
import type { HubDeps } from './shared.ts';

export function goodsMinimumsService(deps: HubDeps) {
  const { db, iso } = deps;
  return {
    /** Sets a product's minimum in a shop (0 clears it); a product the shop does not carry is refused at `code`. */
    async setMinimum(shopId: number, input: HubMinimumInput): Promise<HubMinimum | null> {
      return db.tx(async (q) => {
        const p = (await productsOf(q, shopId, [input.code], () => 'code')).get(input.code);
        if (input.minMilli === 0) {
          await q.query('DELETE FROM hub_stock_minimums WHERE shop_id = $1 AND code = $2', [shopId, input.code]);
          return null;
        }
        await q.query(
          `INSERT INTO hub_stock_minimums (shop_id, code, min_milli, updated_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (shop_id, code) DO UPDATE SET min_milli = excluded.min_milli, updated_at = excluded.updated_at`,
          [shopId, input.code, input.minMilli, iso()],
        );
        return { code: input.code, name: p?.name ?? input.code, minMilli: input.minMilli };
      });
    },

    /** A shop's minimums, by code. */
    async minimums(shopId: number): Promise<HubMinimum[]> {
      const rows = await db.query<{ code: string; name: string | null; min_milli: number }>(
        `SELECT m.code, p.name, m.min_milli FROM hub_stock_minimums m
           LEFT JOIN products p ON p.shop_id = m.shop_id AND p.code = m.code
          WHERE m.shop_id = $1 ORDER BY m.code`,
        [shopId],
      );
      return rows.map((r) => ({ code: r.code, name: r.name ?? r.code, minMilli: Number(r.min_milli) }));
    },

    /** The products below their minimum, per last supplier (null: never received), suppliers by name. */
    async reorder(shopId: number): Promise<ReorderView> {
      const rows = await db.query<
        ReorderRow & {
          supplier: string | null;
          pib: string | null;
          supplier_id: number | null;
        }
      >(
        `SELECT m.code, coalesce(p.name, s.name, m.code) AS name, p.unit, coalesce(s.qty_milli, 0) AS qty,
                m.min_milli AS min, s.purchase_para AS purchase, last.supplier, last.pib, last.supplier_id
           FROM hub_stock_minimums m
           LEFT JOIN hub_stock s ON s.shop_id = m.shop_id AND s.code = m.code
           LEFT JOIN products p ON p.shop_id = m.shop_id AND p.code = m.code
           LEFT JOIN LATERAL (
             SELECT d.detail->>'supplier' AS supplier, d.detail->>'pib' AS pib,
                    (d.detail->>'supplierId')::int4 AS supplier_id
               FROM hub_goods_docs d JOIN hub_receipts r ON r.doc_id = d.id AND r.state = 'posted'
              WHERE d.shop_id = m.shop_id AND d.kind = 'receipt'
                AND d.detail->'lines' @> jsonb_build_array(jsonb_build_object('code', m.code))
              ORDER BY d.id DESC LIMIT 1) last ON true
          WHERE m.shop_id = $1 AND coalesce(s.qty_milli, 0) < m.min_milli
          ORDER BY name`,
        [shopId],
      );
      return reorderView(
        rows,
        (r) => r.pib,
        (r) => ({
          id: r.supplier_id ?? 0,
          name: r.supplier ?? '',
          pib: r.pib ?? '',
          address: null,
          account: null,
          contact: null,
        }),
      );
    },
  };
}
