/**
 * The orders a till pushes to the hub in the hub's suites: a one-line cash sale as the till's order shape
 * (shared/hub/protocol.ts), and the events that carry it.
 */
import type { HubEvent, OrderSnapshot } from '../../shared/hub/protocol.ts';

export interface SaleShape {
  /** When it was made: an ISO time or ms since the epoch (default 2026-11-23 08:00 UTC). */
  at?: string | number;
  /** When it was signed (default `at`; null when there is no invoice). */
  signedAt?: string;
  state?: OrderSnapshot['state'];
  totalPara?: number;
  quantityMilli?: number;
  name?: string;
  label?: string;
  /** The receipt's tax amount for the label (dinars, as the gateway answers). */
  taxAmount?: number;
}

/** A one-line cash sale `n`, fiscalized with `invoice` or queued without one. */
export function saleSnapshot(n: string, invoice: string | null, shape: SaleShape = {}): OrderSnapshot {
  const at = new Date(shape.at ?? '2026-11-23T08:00:00.000Z').toISOString();
  const totalPara = shape.totalPara ?? 24_000;
  const quantityMilli = shape.quantityMilli ?? 1000;
  const label = shape.label ?? 'Ђ';
  return {
    order_number: n,
    kind: 'sale',
    invoice_type: 'normal',
    transaction_type: 'sale',
    state: shape.state ?? (invoice ? 'fiscalized' : 'queued'),
    created_at: at,
    total_para: totalPara,
    data: {
      lines: [
        {
          name: shape.name ?? 'Хлеб',
          quantityMilli,
          unitPricePara: Math.round((totalPara * 1000) / quantityMilli),
          discountPara: 0,
          totalPara,
          labels: [label],
        },
      ],
      payments: [{ type: 'cash', amountPara: totalPara }],
      cashier: 'Ана',
    },
    invoice_number: invoice,
    sdc_date_time: invoice ? (shape.signedAt ?? at) : null,
    receipt: invoice
      ? {
          invoiceNumber: invoice,
          transactionType: 'sale',
          taxItems: [{ label, rate: 20, amount: shape.taxAmount ?? 40 }],
        }
      : null,
  };
}

/** An order's event, its ref the order's number. */
export const orderEvent = (seq: number, o: OrderSnapshot): HubEvent => ({
  seq,
  kind: 'order',
  ref: o.order_number,
  payload: o,
});

/** Any event (a malformed payload too), its ref the sequence number. */
export const hubEvent = (seq: number, payload: unknown, kind: HubEvent['kind'] = 'order'): HubEvent => ({
  seq,
  kind,
  ref: String(seq),
  payload: payload as Record<string, unknown>,
});
