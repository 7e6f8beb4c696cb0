/**
 * Never a receipt without its journal. An order can be fiscalized (it has an invoice number: it is never
 * sent again) while its receipt came without `journal` (the SDK's receipt object has none, and the
 * client's immediate archive fetch can fail). Such a receipt is not printable: the print service refuses
 * it ("journal unavailable — print from archive later") instead of printing a blank fiscal receipt. This
 * loop fetches the journal from the archive detail within a retry budget (retry/budget.ts); once it has
 * it, the stored receipt is completed and `onJournal` lets the core print it. A spent budget shows in
 * the manager's attention list and a person resumes it.
 */
import type Database from 'better-sqlite3';
import type { GatewayClient } from '../gateway/client.ts';
import type { RetryBudgets } from '../retry/budget.ts';
import { createSyncLoop } from '../retry/loop.ts';
import { receiptJournals } from '../orders/journals.ts';

export const JOURNAL_UNAVAILABLE = 'journal unavailable — print from archive later';
/** How many of the newest orders a pass looks at. */
export const RECENT_ORDERS = 5000;

export interface JournalFetcherDeps {
  db: Database.Database;
  client: () => GatewayClient | null;
  budgets: RetryBudgets;
  /** False while the sync engine knows the gateway is unreachable: no tries then, so no budget is spent. */
  online: () => boolean;
  onJournal?: (order: { orderId: number; orderNumber: string }) => void;
  log?: (line: string) => void;
}

export interface JournalFetcher {
  /** Fiscalized orders whose stored receipt has no journal. */
  missing(): { orderId: number; orderNumber: string; invoiceNumber: string }[];
  /** One pass over the missing journals that may be tried now. */
  run(): Promise<void>;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

export function createJournalFetcher(deps: JournalFetcherDeps): JournalFetcher {
  const { budgets } = deps;
  // Only the newest RECENT_ORDERS orders are scanned (orders/journals.ts).
  const journals = receiptJournals(deps.db);
  const pass = async (): Promise<void> => {
    const client = deps.client();
    if (!client || !deps.online()) return;
    for (const m of journals.missing(RECENT_ORDERS)) {
      const key = String(m.id);
      if (!budgets.mayTry('journal', key)) continue;
      let journal: string | undefined;
      let error = 'the archive record has no journal either';
      try {
        const archived = await client.archiveGet(m.invoice_number, { timeoutMs: 5000 });
        if (archived.receipt.invoiceNumber === m.invoice_number) journal = archived.receipt.journal;
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
      if (journal) {
        journals.complete(m.id, journal);
        budgets.succeeded('journal', key);
        deps.onJournal?.({ orderId: m.id, orderNumber: m.order_number });
      } else if (
        budgets.failed('journal', key, `${m.order_number} (${m.invoice_number})`, error) === 'needs_attention'
      ) {
        deps.log?.(`journal of ${m.order_number} still unavailable; needs attention: ${error}`);
      }
    }
  };

  // One pass at a time; a call during a pass makes it run once more (a receipt fiscalized meanwhile).
  const loop = createSyncLoop(pass);

  return {
    missing: () =>
      journals
        .missing(RECENT_ORDERS)
        .map((m) => ({ orderId: m.id, orderNumber: m.order_number, invoiceNumber: m.invoice_number })),
    run: () => loop.sync(),
    start(intervalMs = 30_000) {
      // The first pass after one interval: start-up does not wait on it.
      loop.start(intervalMs, intervalMs);
    },
    stop: () => loop.stop(),
  };
}
