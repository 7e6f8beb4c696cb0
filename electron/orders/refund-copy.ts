/**
 * A fiscal copy of a refund the L-PFR signed (docs/printing.md, "Signed refund slip"): when money is paid back, the
 * seller keeps the refund's copy signed by the buyer („Потпис купца“). The gateway issues no copy of a refund (the
 * copy is an invoice type of a sale only), so a refund it signed gets Kasa's non-fiscal slip; the L-PFR does sign
 * Copy / Refund, so a refund it signed gets a real fiscal copy (КОПИЈА РЕФУНДАЦИЈА, its journal ending with the
 * signature line), signed on that L-PFR and printed like any receipt, instead of the slip.
 *
 * Exactly once: the copy is captured in one transaction that first looks for a copy of this refund (a copy
 * depends on the refund it copies: `depends_on`, indexed), so a second call — the engine's notice and the start-up
 * sweep racing, or a restart between the refund and its copy — makes none.
 */
import type { OrderData, OrderRow, OrderStore } from './store.ts';
import type { Db } from '../db/open.ts';

/**
 * True for a fiscalized refund the L-PFR signed whose buyer-signed paper is due. `slipDue` (refundSlipOf's verdict,
 * which parses the order) is asked only of such a refund: every fiscalized order passes here.
 */
export function wantsFiscalRefundCopy(row: OrderRow, slipDue: () => boolean): boolean {
  return (
    row.state === 'fiscalized' &&
    row.processor === 'lpfr' &&
    row.transaction_type === 'refund' &&
    (row.kind === 'refund' || row.kind === 'refund_full') &&
    row.invoice_number !== null &&
    row.sdc_date_time !== null &&
    slipDue()
  );
}

class AlreadyCopied extends Error {}

/**
 * Captures the fiscal copy of refund `refund` (pinned to the L-PFR, as a copy of an L-PFR receipt is); returns
 * its order id, or null when this refund already has one.
 */
export function captureRefundCopy(
  store: OrderStore,
  db: Db,
  refund: OrderRow,
  o: { terminalId: string; now: number },
): number | null {
  const exists = db.prepare<[number], { id: number }>(
    "SELECT id FROM orders WHERE depends_on = ? AND kind = 'copy' LIMIT 1",
  );
  try {
    const { orderId } = store.capture(() => {
      if (exists.get(refund.id)) throw new AlreadyCopied();
      const orderNumber = store.nextOrderNumber(o.terminalId, o.now);
      const sent = JSON.parse(refund.request ?? '{}') as Record<string, unknown>;
      const meta = (sent['metaFields'] ?? {}) as Record<string, unknown>;
      const request = {
        ...sent,
        orderNumber,
        referentDocumentNumber: refund.invoice_number,
        referentDocumentDt: refund.sdc_date_time,
        metaFields: { ...meta, copyOf: refund.order_number },
      };
      const data = JSON.parse(refund.data) as OrderData & Record<string, unknown>;
      const copyData: Record<string, unknown> = {
        lines: data.lines,
        payments: data.payments,
        ...(data.buyerId ? { buyerId: data.buyerId } : {}),
        ...(data.cashier ? { cashier: data.cashier } : {}),
        copyOf: { orderId: refund.id },
      };
      return {
        orderNumber,
        kind: 'copy',
        invoiceType: 'copy',
        transactionType: 'refund',
        createdAt: new Date(o.now).toISOString(),
        totalPara: refund.total_para,
        changePara: 0,
        data: copyData as unknown as OrderData,
        request: JSON.stringify(request),
        dependsOn: refund.id,
      };
    }, o.now);
    return orderId;
  } catch (err) {
    if (err instanceof AlreadyCopied) return null;
    throw err;
  }
}
