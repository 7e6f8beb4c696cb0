/**
 * The receipts list for the accountant at the hub (shared/reports/receipts.ts): one row per order of the period a
 * report counts, with its gross, VAT and payment types read from its facts in SQL (hub/report-facts.ts), never
 * from its JSON, so the rows add up to the hub's report exactly (a refund negative).
 */
import type { ReceiptRow } from '../shared/reports/receipts.ts';
import type { ReportInput } from '../shared/hub/protocol.ts';
import type { Queryable } from './db/db.ts';
import { fillFacts } from './report-facts.ts';
import { DEFAULT_HUB_TIME_ZONE } from './report-days.ts';
import { dayIn, dayStart } from '../shared/i18n/time.ts';

interface Row {
  at: string;
  invoice_number: string | null;
  invoice_type: string;
  kind: string;
  cashier: string;
  till: string;
  gross: number;
  tax: number;
  payments: string;
}

/** The receipts of [from, to) of one shop (or the chain), in time order, then till and sequence. */
/** The receipts list's period: `from`/`to` as asked, else today from midnight in the shop's zone until now. */
export function receiptsPeriod(
  input: Pick<ReportInput, 'from' | 'to'>,
  now = Date.now(),
): { from: string; to: string } {
  // Today from midnight in the shop's zone, not the hub machine's.
  const start = new Date(dayStart(dayIn(new Date(now), DEFAULT_HUB_TIME_ZONE), DEFAULT_HUB_TIME_ZONE));
  const from = input.from ? new Date(input.from).toISOString() : start.toISOString();
  const to = input.to ? new Date(input.to).toISOString() : new Date(now + 1).toISOString();
  return { from, to };
}

export async function hubReceipts(
  db: Queryable,
  input: Pick<ReportInput, 'from' | 'to' | 'shopId'>,
  now = Date.now(),
): Promise<ReceiptRow[]> {
  const { from, to } = receiptsPeriod(input, now);
  await fillFacts(db, from, to);
  const rows = await db.query<Row>(
    `SELECT o.created_at AS at, o.invoice_number, o.invoice_type, o.kind, coalesce(o.cashier, '') AS cashier,
            t.name AS till, x.gross, x.tax, x.payments
       FROM orders o JOIN tills t ON t.id = o.till_id
      CROSS JOIN LATERAL (
        SELECT coalesce(sum(CASE WHEN f->>0 = 'refunds' THEN -(f->>4)::int8
                                 WHEN f->>0 IN ('sales', 'advances') THEN (f->>4)::int8 END), 0)::int8 AS gross,
               coalesce(sum(CASE WHEN f->>0 = 't' THEN (f->>3)::int8 END), 0)::int8 AS tax,
               coalesce(string_agg(f->>1, ',' ORDER BY n) FILTER (WHERE f->>0 = 'p'), '') AS payments,
               count(*) FILTER (WHERE f->>0 IN ('sales', 'refunds', 'advances')) AS counted
          FROM jsonb_array_elements(o.facts) WITH ORDINALITY AS e(f, n)) x
      WHERE o.created_at >= $1 AND o.created_at < $2 AND ($3::int4 IS NULL OR o.shop_id = $3) AND x.counted > 0
      ORDER BY o.created_at, o.till_id, o.seq`,
    [from, to, input.shopId ?? null],
  );
  return rows.map((r) => ({
    at: r.at,
    invoiceNumber: r.invoice_number,
    invoiceType: r.invoice_type,
    transactionType:
      r.kind === 'refund' || r.kind === 'refund_full' ? 'refund' : r.kind === 'finalize' ? 'finalize' : 'sale',
    payments: r.payments ? r.payments.split(',') : [],
    cashier: r.cashier,
    till: r.till,
    grossPara: Number(r.gross),
    taxPara: Number(r.tax),
  }));
}
