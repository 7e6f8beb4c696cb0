/**
 * A hub's order history for a benchmark, built quickly (bench/hub-history.bench.ts, bench/hub-exports.bench.ts):
 * `orders` orders over `days` days up to `now`, spread over the given tills, shaped as tills push them (lines with
 * one or two tax labels, cash and card, receipts with their taxItems, 2 % refunds, three cashiers a till; with
 * `advances`, 1 % advance receipts), written with the push's own columns and facts (hub/report-facts.ts) in bulk
 * inserts of 5,000 rows (unnest), two in flight while the next batch is made. The month partitions are made first
 * and the database analysed after.
 */
import { performance } from 'node:perf_hooks';
import type { HubDb } from '../hub/db/db.ts';
import { orderFacts } from '../hub/report-facts.ts';
import { ensureMonthPartitions } from '../hub/partitions.ts';
import type { OrderSnapshot } from '../shared/hub/protocol.ts';

export const DAY_MS = 86_400_000;

const LABELS: [string, number][] = [
  ['Ђ', 20],
  ['Е', 10],
];

/** Till `till`'s `n`th order, created at `at`, as the till's outbox snapshots it. */
export function benchOrder(till: string, n: number, at: number, cashier: string, advances = false): OrderSnapshot {
  const lineCount = 1 + (n % 4);
  const lines = Array.from({ length: lineCount }, (_, i) => {
    const unit = 5_000 + ((n * 7 + i * 13) % 200) * 100;
    const qty = 1 + ((n + i) % 3);
    const labels = (n + i) % 17 === 0 ? ['Ђ', 'Е'] : [LABELS[(n + i) % 2]?.[0] ?? 'Ђ'];
    return {
      name: `Артикал ${(n * 31 + i) % 5000}`,
      quantityMilli: qty * 1000,
      unitPricePara: unit,
      discountPara: 0,
      totalPara: unit * qty,
      labels,
    };
  });
  const total = lines.reduce((s, l) => s + l.totalPara, 0);
  const refund = n % 50 === 0;
  const advance = advances && n % 100 === 1;
  const invoice = `${till}-${n}`;
  const taxItems = LABELS.map(([label, rate]) => ({
    label,
    rate,
    amount:
      Math.round(
        (lines.filter((l) => l.labels.includes(label)).reduce((s, l) => s + l.totalPara, 0) * rate) / (100 + rate),
      ) / 100,
    categoryType: 0,
    categoryName: 'ПДВ',
  })).filter((t) => t.amount > 0);
  return {
    order_number: `${till}-${new Date(at).toISOString().slice(0, 10).replace(/-/g, '')}-${n}`,
    kind: refund ? 'refund' : 'sale',
    invoice_type: advance ? 'advance' : 'normal',
    transaction_type: refund ? 'refund' : 'sale',
    state: 'fiscalized',
    created_at: new Date(at).toISOString(),
    total_para: total,
    data: {
      lines,
      payments: [{ type: n % 3 === 0 ? 'card' : 'cash', amountPara: total }],
      cashier,
      ...(refund
        ? { refundOf: { invoiceNumber: `${till}-${n - 1}`, lines: [{ index: 0, quantityMilli: 1000 }], full: false } }
        : {}),
    },
    invoice_number: invoice,
    sdc_date_time: new Date(at + 800).toISOString(),
    receipt: { invoiceNumber: invoice, transactionType: refund ? 'refund' : 'sale', taxItems },
  };
}

/** A till of the bench: its numbering of orders (`n`) and of pushed events (`seq`) carry on after the build. */
export interface BenchTill {
  id: number;
  shopId: number;
  name: string;
  n: number;
  seq: number;
}

/**
 * Writes the history (`today`: Belgrade's midnight of `now`'s day; shops open 07:00 to 21:00) and returns the
 * number of orders written.
 */
export async function buildOrders(
  db: HubDb,
  tills: BenchTill[],
  o: { orders: number; days: number; today: number; now: number; advances?: boolean; log: (l: string) => void },
): Promise<number> {
  const t0 = performance.now();
  // The history's month tables, as a hub that ran through those months has them (hub/partitions.ts).
  await ensureMonthPartitions(db, o.today - o.days * DAY_MS, o.now);
  const perTillDay = o.orders / tills.length / o.days;
  const BATCH = 5000;
  let rows: unknown[][] = [];
  let built = 0;
  // Two inserts in flight (one per core of the database) while the next batch is made.
  const inFlight: Promise<unknown>[] = [];
  const flush = async (): Promise<void> => {
    if (!rows.length) return;
    const cols = Array.from({ length: 16 }, (_, c) => rows.map((r) => r[c]));
    if (inFlight.length >= 2) await inFlight.shift();
    // The orders and their keys (hub migration 16), as the push writes both.
    const insert = db.query(
      `WITH o AS (
         INSERT INTO orders (till_id, order_number, shop_id, seq, kind, invoice_type, transaction_type, state, created_at,
           total_para, cashier, invoice_number, sdc_date_time, data, receipt, facts)
         SELECT * FROM unnest($1::int4[], $2::text[], $3::int4[], $4::int8[], $5::text[], $6::text[], $7::text[],
                              $8::text[], $9::timestamptz[], $10::int8[], $11::text[], $12::text[], $13::text[],
                              $14::jsonb[], $15::jsonb[], $16::jsonb[])
         RETURNING till_id, order_number, created_at, shop_id, seq, invoice_number)
       INSERT INTO order_keys (till_id, order_number, created_at, shop_id, seq, invoice_number) SELECT * FROM o`,
      cols,
    );
    insert.catch(() => undefined);
    inFlight.push(insert);
    built += rows.length;
    rows = [];
  };
  for (let d = o.days - 1; d >= 0; d--) {
    const dayStart = o.today - d * DAY_MS + 7 * 3600_000; // shops open 07:00 to 21:00
    for (const till of tills) {
      // A share of the day's orders by a running total, so the whole is exactly `orders`.
      const count = Math.floor(perTillDay * (o.days - d)) - Math.floor(perTillDay * (o.days - d - 1));
      for (let k = 0; k < count; k++) {
        const at = dayStart + Math.floor(((k + 0.5) / count) * 14 * 3600_000) + (till.id % 1000);
        if (at >= o.now) continue;
        const n = ++till.n;
        const s = benchOrder(till.name, n, at, `Касир ${till.name}/${Math.floor((3 * k) / count) + 1}`, o.advances);
        rows.push([
          till.id,
          s.order_number,
          till.shopId,
          ++till.seq,
          s.kind,
          s.invoice_type,
          s.transaction_type,
          s.state,
          s.created_at,
          s.total_para,
          s.data.cashier ?? null,
          s.invoice_number,
          s.sdc_date_time,
          JSON.stringify(s.data),
          JSON.stringify(s.receipt),
          JSON.stringify(orderFacts({ ...s, receipt: s.receipt ?? null })),
        ]);
        if (rows.length >= BATCH) await flush();
      }
    }
    if (d % 30 === 0) o.log(`built ${built} orders (${Math.round((performance.now() - t0) / 1000)} s)`);
  }
  await flush();
  await Promise.all(inFlight);
  for (const till of tills) await db.query('UPDATE tills SET last_seq = $1 WHERE id = $2', [till.seq, till.id]);
  await db.query('ANALYZE');
  return built;
}
