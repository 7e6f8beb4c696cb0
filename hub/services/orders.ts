/** The orders area: a till's pushed order stored (its invoice number one order's in the shop), lookups across tills. */
import { dbError, type Queryable } from '../db/db.ts';
import { orderFacts } from '../report-facts.ts';
import { countedFacts, countedRefund } from '../till-trust.ts';
import type { HubOrder, LookupInput, OrderSnapshot, PushRefusal } from '../../shared/hub/protocol.ts';
import type { AuthedTill, HubDeps } from './shared.ts';

/** The order's upsert failed on the shop's invoice-number index: another order holds the number. */
const isInvoiceClaimed = (err: unknown): boolean => {
  const e = dbError(err);
  return e?.state === '23505' && e.constraint === 'order_keys_shop_invoice';
};

/** The answer for an order whose invoice number another order of the shop holds (`place`: its place in the batch). */
export const claimRefusal = (seq: number, place: number, invoiceNumber: string): PushRefusal => ({
  seq,
  code: 'invoice_claimed',
  field: `events.${place}.payload.invoice_number`,
  message: `invoice number ${invoiceNumber} belongs to another order of this shop: this order is not stored`,
});

/**
 * Stores one order of a till's push in its transaction (`place`: its event's place in the batch); never moved back
 * to an older event. Returns the refusal when another order of the shop holds its invoice number, else null.
 */
export async function storeOrder(
  q: Queryable,
  till: AuthedTill,
  e: { seq: number },
  o: OrderSnapshot,
  place: number,
  at: string,
): Promise<PushRefusal | null> {
  // An invoice number is one order's in a shop (unique index): a second claimant is kept out of
  // `orders` (lookups and reports never see it), recorded, and answered as refused.
  const claims = o.invoice_number != null;
  if (claims) await q.query('SAVEPOINT claim');
  try {
    // The order's key first (hub migration 16): its identity and its invoice number, each once; the
    // order's row is the one of the key's first `created_at` (its month's partition).
    await q.query(
      `WITH k AS (
         INSERT INTO order_keys (till_id, order_number, created_at, shop_id, seq, invoice_number)
         VALUES ($1, $2, $9, $3, $4, $12)
         ON CONFLICT (till_id, order_number) DO UPDATE SET seq = excluded.seq,
           invoice_number = excluded.invoice_number
         WHERE order_keys.seq < excluded.seq RETURNING created_at)
       INSERT INTO orders (till_id, order_number, shop_id, seq, kind, invoice_type, transaction_type, state,
         created_at, total_para, cashier, invoice_number, sdc_date_time, data, receipt, facts, extra_receipts)
       SELECT $1::int4, $2::text, $3::int4, $4::int8, $5::text, $6::text, $7::text, $8::text, k.created_at,
              $10::int8, $11::text, $12::text, $13::text, $14::jsonb, $15::jsonb, $16::jsonb, $17::jsonb FROM k
     ON CONFLICT (till_id, order_number, created_at) DO UPDATE SET seq = excluded.seq, state = excluded.state,
       invoice_number = excluded.invoice_number, sdc_date_time = excluded.sdc_date_time,
       data = excluded.data, receipt = excluded.receipt, cashier = excluded.cashier, facts = excluded.facts,
       extra_receipts = excluded.extra_receipts
     WHERE orders.seq < excluded.seq`,
      [
        till.id,
        o.order_number,
        till.shopId,
        e.seq,
        o.kind,
        o.invoice_type,
        o.transaction_type,
        o.state,
        o.created_at,
        o.total_para,
        o.data.cashier ?? null,
        o.invoice_number ?? null,
        o.sdc_date_time ?? null,
        JSON.stringify(o.data),
        o.receipt ? JSON.stringify(o.receipt) : null,
        JSON.stringify(countedFacts(o, orderFacts({ ...o, receipt: o.receipt ?? null }))),
        o.extra_receipts ? JSON.stringify(o.extra_receipts) : null,
      ],
    );
    if (claims) await q.query('RELEASE SAVEPOINT claim');
  } catch (err) {
    if (!claims || !isInvoiceClaimed(err)) throw err;
    await q.query('ROLLBACK TO SAVEPOINT claim');
    const holder = await q.query<{ till_id: number; order_number: string }>(
      'SELECT till_id, order_number FROM order_keys WHERE shop_id = $1 AND invoice_number = $2',
      [till.shopId, o.invoice_number],
    );
    await q.query(
      `INSERT INTO invoice_claims (shop_id, till_id, seq, order_number, invoice_number, holder_till_id,
       holder_order_number, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (till_id, seq) DO NOTHING`,
      [
        till.shopId,
        till.id,
        e.seq,
        o.order_number,
        o.invoice_number,
        holder[0]?.till_id ?? null,
        holder[0]?.order_number ?? null,
        at,
      ],
    );
    return claimRefusal(e.seq, place, o.invoice_number ?? '');
  }
  return null;
}

export function ordersService(deps: HubDeps) {
  const { db } = deps;
  return {
    /** A sale of any till of the asking till's shop, by order or invoice number (for refunds and copies). */
    async lookup(till: AuthedTill, input: LookupInput): Promise<HubOrder | null> {
      const rows = await db.query<{
        till_id: number;
        name: string;
        order_number: string;
        kind: OrderSnapshot['kind'];
        invoice_type: OrderSnapshot['invoice_type'];
        transaction_type: OrderSnapshot['transaction_type'];
        state: OrderSnapshot['state'];
        created_at: string;
        total_para: number;
        data: OrderSnapshot['data'];
        invoice_number: string | null;
        sdc_date_time: string | null;
        receipt: OrderSnapshot['receipt'];
      }>(
        // Through the order's key (hub migration 16): one probe of order_keys by one key at a time, then the order
        // in the one month table its time names, instead of a probe of every month's index.
        `SELECT o.*, t.name FROM order_keys k
           JOIN orders o ON o.till_id = k.till_id AND o.order_number = k.order_number AND o.created_at = k.created_at
           JOIN tills t ON t.id = k.till_id
          WHERE k.shop_id = $1 AND ${
            input.invoiceNumber !== undefined
              ? `k.invoice_number = $2 ${input.orderNumber !== undefined ? 'AND k.order_number = $3' : ''}`
              : 'k.order_number = $2'
          }
          ORDER BY k.created_at LIMIT 1`,
        input.invoiceNumber !== undefined
          ? [till.shopId, input.invoiceNumber, ...(input.orderNumber !== undefined ? [input.orderNumber] : [])]
          : [till.shopId, input.orderNumber ?? ''],
      );
      const r = rows[0];
      if (!r) return null;
      // Every refund of it (one probe of orders_refund_of): whether any till refunded it, and what OTHER tills
      // refunded, so a partial refund here never takes back more than is left.
      const allRefunds = r.invoice_number
        ? await db.query<{ till_id: number; order_number: string; refund_of: unknown }>(
            `SELECT o.till_id, o.order_number, o.data->'refundOf' AS refund_of FROM orders o
             WHERE o.shop_id = $1 AND o.kind IN ('refund', 'refund_full') AND o.data->'refundOf'->>'invoiceNumber' = $2
               AND ${countedRefund('o')}
             ORDER BY o.till_id, o.order_number`,
            [till.shopId, r.invoice_number],
          )
        : [];
      const refunds = allRefunds.filter((x) => x.till_id !== till.id);
      return {
        tillId: r.till_id,
        tillName: r.name,
        refunded: allRefunds.length > 0,
        refunds: refunds.map((x) => ({ tillId: x.till_id, orderNumber: x.order_number, refundOf: x.refund_of })),
        order: {
          order_number: r.order_number,
          kind: r.kind,
          invoice_type: r.invoice_type,
          transaction_type: r.transaction_type,
          state: r.state,
          created_at: r.created_at,
          total_para: r.total_para,
          data: r.data,
          invoice_number: r.invoice_number,
          sdc_date_time: r.sdc_date_time,
          receipt: r.receipt,
        },
      };
    },

    /** Orders of a shop stored at the hub (count, and the sum of totals), for tests and reports. */
    async orderCount(shopId: number): Promise<{ orders: number; totalPara: number }> {
      const r = await db.query<{ n: number; total: number }>(
        'SELECT count(*)::int8 AS n, coalesce(sum(total_para), 0)::int8 AS total FROM orders WHERE shop_id = $1',
        [shopId],
      );
      return { orders: r[0]?.n ?? 0, totalPara: r[0]?.total ?? 0 };
    },
  };
}
