/**
 * The paper that follows a fiscal result (docs/printing.md): the receipt printing itself once issued, the late
 * receipt of a sale nobody could sign when it was made, the non-fiscal slip of a sale still unsigned at the
 * checkout, and the fiscal copy of a refund the L-PFR signed. The core starts it with one call; it listens to the
 * `order.updated` events and owns what they lead to on paper.
 */
import type { EventMessage } from '../../shared/contract/index.ts';
import type { Db } from '../db/open.ts';
import type { OrderStore } from '../orders/store.ts';
import { captureRefundCopy, wantsFiscalRefundCopy } from '../orders/refund-copy.ts';
import type { Settings } from '../settings/settings.ts';
import { outageSlipLines } from './outage-slip.ts';
import { refundSlipOf } from './refund-slip.ts';
import type { PrintService, PrintServiceDeps } from './service.ts';

/** How far back the start-up looks for a refund the L-PFR signed that still lacks its copy. */
const REFUND_COPY_SWEEP_MS = 3 * 86_400_000;

/** The printer's source of a fiscalized order's receipt, with the refund slip that follows it. */
export function printedReceiptOf(store: OrderStore): PrintServiceDeps['getReceipt'] {
  return (orderId) => {
    const row = store.get(orderId);
    if (!row || row.state !== 'fiscalized') return null;
    const view = store.view(row);
    if (!view.receipt) return null;
    // A refund that paid money back is followed by the buyer-signed slip.
    return {
      receipt: view.receipt,
      cash: view.payments.some((p) => p.type === 'cash'),
      // Signed on the L-PFR, the refund gets a fiscal copy with the signature line instead (refund-copy.ts).
      slip: row.processor === 'lpfr' ? undefined : refundSlipOf(row, view.payments),
      order: { orderNumber: row.order_number, soldAt: row.created_at },
    };
  };
}

export interface FiscalPaperDeps {
  db: Db;
  store: OrderStore;
  printer: PrintService;
  settings: Settings;
  /** Wakes the sync engine (a refund's fiscal copy was captured). */
  kick: () => void;
  now: () => number;
  warn: (line: string) => void;
}

export interface FiscalPaper {
  /**
   * A sale that takes money left the checkout unsigned: the customer gets the non-fiscal slip now where a printer
   * is set, and the sale is kept until its fiscal receipt reaches them.
   */
  unsigned(orderId: number): 'printing' | 'no_printer';
  /**
   * Follows `order.updated` (a fiscal receipt issued, or its journal completed) and sweeps the last days for a
   * refund copy a stop left owed, once, in the background. Returns the unsubscribe function.
   */
  start(subscribe: (listener: (m: EventMessage) => void) => () => unknown): () => void;
}

export function createFiscalPaper(deps: FiscalPaperDeps): FiscalPaper {
  const { db, store, printer, settings, now } = deps;

  /** A refund the L-PFR signed that paid money back gets its fiscal copy for the buyer's signature, once. */
  const fiscalRefundCopy = (orderId: number): void => {
    const row = store.get(orderId);
    if (!row || !wantsFiscalRefundCopy(row, () => refundSlipOf(row, store.view(row).payments) !== undefined)) return;
    try {
      if (captureRefundCopy(store, db, row, { terminalId: settings.terminalId(), now: now() }) !== null) deps.kick();
    } catch (err) {
      deps.warn(`copy of refund ${row.order_number} not captured: ${String(err)}`);
    }
  };

  /**
   * A fiscal receipt was issued (with its journal). A sale nobody could sign when it was made (late.ts) gets it
   * now at this till: e-mailed by the gateway where the buyer gave an address (the request's `sendToEmail`),
   * else printed as a late receipt whatever auto-print says (the customer holds only the slip); with no printer
   * it waits on the manager's list. Any other receipt prints through auto-print.
   */
  const issued = (orderId: number): void => {
    fiscalRefundCopy(orderId);
    if (!printer.late.waiting(orderId)) {
      printer.autoPrintReceipt(orderId);
      return;
    }
    const row = store.get(orderId);
    if (!row || row.state !== 'fiscalized') return;
    const email = store.view(row).email;
    if (email && row.processor === 'gateway') {
      printer.late.handedOver(orderId, 'emailed', new Date(now()).toISOString());
      return;
    }
    if (!printer.status().configured) return;
    try {
      printer.enqueueLate(orderId);
    } catch (err) {
      // Without its journal yet: the journal fetcher announces the order again once it has it.
      deps.warn(`late receipt of order ${row.order_number} not queued yet: ${String(err)}`);
    }
  };

  return {
    unsigned(orderId) {
      const row = store.get(orderId);
      if (!row) return 'no_printer';
      const view = store.view(row);
      let outcome: 'printing' | 'no_printer' = 'no_printer';
      if (printer.status().configured) {
        printer.enqueueSlip(
          outageSlipLines({
            orderNumber: row.order_number,
            soldAt: row.created_at,
            lines: view.lines,
            payments: view.payments,
            totalPara: row.total_para,
            changePara: row.change_para,
            shopName: settings.get('shopName'),
            tillName: settings.get('tillName'),
            terminalId: settings.terminalId(),
            cashier: view.cashier,
          }),
          orderId,
        );
        outcome = 'printing';
      }
      printer.late.record(orderId, row.created_at, outcome === 'printing' ? 'printing' : 'none');
      return outcome;
    },
    start(subscribe) {
      // The fiscal receipt prints itself once issued (also for orders taken offline, and once its journal came).
      const off = subscribe((m) => {
        if (m.name !== 'order.updated' || m.payload.state !== 'fiscalized') return;
        try {
          issued(m.payload.orderId);
        } catch (err) {
          deps.warn(`auto-print of order ${m.payload.orderNumber} not queued: ${String(err)}`);
        }
      });
      // A refund the L-PFR signed just before the till stopped may still lack its copy (refund-copy.ts).
      setTimeout(() => {
        for (const id of store.queries.lpfrRefundIdsSince(new Date(now() - REFUND_COPY_SWEEP_MS).toISOString()))
          fiscalRefundCopy(id);
      }, 0).unref?.();
      return () => void off();
    },
  };
}
