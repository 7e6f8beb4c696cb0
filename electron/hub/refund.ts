/**
 * Refunds of another till's sale, found through the store hub on the LAN (works while the internet is
 * down): the sale becomes a refund source like a receipt known only to the gateway archive (refunded in
 * full, through the full-refund endpoint, queued in the till's outbox until the gateway is reachable).
 */
import type { RefundSource } from '../../shared/contract/manager.ts';
import type { InvoiceType } from '../../shared/domain.ts';
import { CommandError } from '../errors.ts';
import type { HubSync } from './sync.ts';

/** The refund source for `invoiceNumber` from the hub, or null when no hub knows it. */
export async function hubRefundSource(hub: Pick<HubSync, 'lookup'>, invoiceNumber: string): Promise<RefundSource | null> {
  const found = await hub.lookup({ invoiceNumber });
  if (!found) return null;
  const o = found.order;
  if (o.kind !== 'sale' || o.state !== 'fiscalized' || !o.invoice_number || !o.sdc_date_time) {
    throw new CommandError('conflict', 'refund_not_refundable', { id: o.invoice_number ?? o.order_number, reason: o.kind !== 'sale' ? o.kind : o.state });
  }
  const invoiceType = o.invoice_type as InvoiceType;
  return {
    orderNumber: o.order_number,
    invoiceNumber: o.invoice_number,
    sdcDateTime: o.sdc_date_time,
    invoiceType,
    state: 'archived',
    totalPara: o.total_para,
    lines: [],
    payments: [],
    fullRefundAllowed: !found.refunded && o.transaction_type === 'sale' && ['normal', 'training', 'advance'].includes(invoiceType),
  };
}
