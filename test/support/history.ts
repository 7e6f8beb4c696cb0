/**
 * Builds a till's history through the app's own code paths: every order is a real
 * `SalesService.checkout` (pricing, order number, frozen request, outbox row in one transaction) at its
 * own time, then settled with `OrderStore.startAttempts` + `markFiscalized` as the engine does with a
 * receipt shaped like the gateway's (journal, QR and verification links included). Used by the history
 * benchmark and the history tests.
 */
import type { Db } from '../../electron/db/open.ts';
import { SyncEngine } from '../../electron/outbox/engine.ts';
import { OrderStore } from '../../electron/orders/store.ts';
import { recordFiscalized } from '../../electron/goods/ledger.ts';
import { SalesService } from '../../electron/sales/service.ts';
import { TaxRatesCache } from '../../electron/sales/tax-rates.ts';

const PAYMENT_MIX = ['cash', 'cash', 'cash', 'card', 'cash', 'card', 'cash', 'cash', 'card', 'voucher'] as const;

/** Tax rates a fresh till needs before it can price anything (as the sandbox's demo group). */
export function seedTaxRates(db: Db): void {
  db.prepare(
    `INSERT OR REPLACE INTO tax_rates (id, group_id, valid_from, body, fetched_at) VALUES (1, 1, '2023-01-01', ?, '2023-01-01')`,
  ).run(
    JSON.stringify([
      { label: 'Ђ', rate: 20, categoryName: 'ПДВ', categoryType: 0 },
      { label: 'Е', rate: 10, categoryName: 'ПДВ', categoryType: 0 },
    ]),
  );
}

export interface HistoryOptions {
  orders: number;
  /** Time of the first order (epoch ms); orders are spread evenly up to `end`. */
  start: number;
  end: number;
  terminalId?: string;
  /** Every n-th order stays queued (not fiscalized), every m-th is parked in needs_attention. */
  queuedEvery?: number;
  onProgress?: (done: number) => void;
}

/** Appends `orders` sales to the till's database; returns the ids of the orders in order. */
export async function buildHistory(db: Db, o: HistoryOptions): Promise<number[]> {
  seedTaxRates(db);
  const store = new OrderStore(db, { onFiscalized: recordFiscalized });
  let clock = o.start;
  const engine = new SyncEngine({ store, client: () => null, now: () => clock });
  const sales = new SalesService({
    store,
    engine,
    taxRates: new TaxRatesCache(db, () => clock),
    terminalId: () => o.terminalId ?? 'T1',
    trainingMode: () => false,
    onlineBudgetMs: () => 0,
    now: () => clock,
  });
  const step = o.orders > 1 ? (o.end - o.start) / (o.orders - 1) : 0;
  const ids: number[] = [];
  for (let i = 0; i < o.orders; i++) {
    clock = Math.round(o.start + i * step);
    const type = PAYMENT_MIX[i % PAYMENT_MIX.length] as (typeof PAYMENT_MIX)[number];
    const lines = Array.from({ length: 2 + (i % 5) }, (_, k) => ({
      name: `Артикал ${(i * 7 + k) % 500}`,
      quantity: 1 + (k % 3),
      unitPrice: 49.9 + ((i + k) % 40) * 10,
      labels: [k % 3 === 0 ? 'Е' : 'Ђ'],
    }));
    const total = lines.reduce((s, l) => s + Math.round(l.unitPrice * 100) * l.quantity, 0) / 100;
    const res = await sales.checkout(
      { lines, payments: [{ type, amount: total }] },
      { cashier: i % 2 ? 'Ана' : 'Марко' },
    );
    ids.push(res.orderId);
    if (o.queuedEvery && i % o.queuedEvery === o.queuedEvery - 1) continue;
    const [attempt] = store.startAttempts([res.orderId], 'single', clock + 200);
    const invoiceNumber = `ABCD1234-ABCD1234-${i + 1}`;
    const sdc = new Date(clock + 300).toISOString();
    store.markFiscalized(
      res.orderId,
      {
        invoiceNumber,
        invoiceCounter: `${i + 1}/${i + 1}ПП`,
        invoiceCounterExtension: 'ПП',
        sdcDateTime: sdc,
        totalAmount: total,
        invoiceType: 'Normal',
        transactionType: 'Sale',
        orderNumber: res.orderNumber,
        verificationUrl: `https://suf.purs.gov.rs/v/?vl=${Buffer.from(invoiceNumber).toString('base64')}`,
        invoicePdfUrl: `https://gateway.example/pdf/${invoiceNumber}`,
        journal: `============ ФИСКАЛНИ РАЧУН ============\nПИБ: 100000001\n${lines.map((l) => `${l.name} ${l.quantity} x ${l.unitPrice}`).join('\n')}\nУкупан износ: ${total}\n======== КРАЈ ФИСКАЛНОГ РАЧУНА =========`,
      },
      clock + 400,
      { id: attempt as number, correlationId: `corr-${i}`, status: 201 },
    );
    if ((i & 1023) === 0) o.onProgress?.(i);
  }
  await engine.stop();
  return ids;
}

/**
 * Sales go on on till T2 while `work` (a backup in the worker) runs: `orders` sales a second apart from `start`, every
 * `pauseMs`, until `work` ends. Answers its result and how many sales were made during it, so that a test can be sure
 * the copy really overlapped with trading.
 */
export async function sellWhile<T>(
  db: Db,
  work: Promise<T>,
  o: { orders: number; start: number; pauseMs: number },
): Promise<{ result: T; sold: number }> {
  let done = false;
  const ended = work.finally(() => {
    done = true;
  });
  let sold = 0;
  while (!done) {
    const from = o.start + sold * 1000;
    const ids = await buildHistory(db, {
      orders: o.orders,
      start: from,
      end: from + (o.orders - 1) * 1000,
      terminalId: 'T2',
    });
    sold += ids.length;
    await new Promise((r) => setTimeout(r, o.pauseMs));
  }
  return { result: await ended, sold };
}
