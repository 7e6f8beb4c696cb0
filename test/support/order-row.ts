/**
 * An order's row as the till's database holds it (electron/orders/store.ts), for the tests of what reads one: a
 * sale queued and not yet sent anywhere, with `over` on top (its number, request, totals, state).
 */
import type { OrderRow } from '../../electron/orders/store.ts';

export function queuedOrderRow(over: Partial<OrderRow> = {}): OrderRow {
  return {
    id: 1,
    order_number: 'KASA1-20261123-000001',
    kind: 'sale',
    invoice_type: 'normal',
    transaction_type: 'sale',
    state: 'queued',
    created_at: '2026-11-23T10:00:00.000Z',
    total_para: 0,
    change_para: 0,
    data: '{}',
    request: '{}',
    depends_on: null,
    invoice_number: null,
    sdc_date_time: null,
    receipt: null,
    extra_receipts: null,
    last_error: null,
    fiscalized_at: null,
    processor: null,
    ...over,
  };
}
