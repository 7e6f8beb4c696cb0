/**
 * Re-issuing a sale under a new order number: the one way out for an order parked because the gateway
 * returned another sale's receipt for its number (outbox/verify.ts). The old number is taken at the
 * gateway, so resending it can only bring the same foreign receipt back; a new number is a new receipt.
 *
 * Only a person decides this (a manager's PIN, checked in the core by the caller: manager/handlers.ts),
 * because if the mismatch was ours (the receipt really was this sale's and Kasa misread it) a second
 * receipt would be issued. The order keeps its id, lines and payments; its number and the number inside
 * the frozen body change in one transaction with the new outbox row, and the previous numbers are kept
 * in `data.reissuedFrom`.
 */
import { RECEIPT_MISMATCH } from '../../shared/gateway-errors.ts';
import { CommandError } from '../errors.ts';
import type { OrderData, OrderStore } from '../outbox/store.ts';
import { nextOrderNumber } from '../sales/order-number.ts';

export interface ReissuedData extends OrderData {
  /** Order numbers this order carried before, oldest first (each taken at the gateway by another sale). */
  reissuedFrom?: string[];
}

/** Gives a mismatch-parked order a new number and queues it; returns the old and the new number. */
export function reissueOrder(store: OrderStore, orderId: number, terminalId: string, now: number): { previous: string; orderNumber: string } {
  return store.db.transaction(() => {
    const row = store.get(orderId);
    if (!row) throw new CommandError('not_found', 'order_not_found', { id: orderId });
    if (row.state !== 'needs_attention') throw new CommandError('conflict', 'not_needs_attention', { id: orderId });
    const code = row.last_error ? (JSON.parse(row.last_error) as { code?: unknown }).code : null;
    if (code !== RECEIPT_MISMATCH || !row.request) throw new CommandError('conflict', 'reissue_not_mismatch', { id: row.order_number });
    const orderNumber = nextOrderNumber(store.db, terminalId, now);
    const body = JSON.parse(row.request) as Record<string, unknown>;
    body['orderNumber'] = orderNumber;
    const data = JSON.parse(row.data) as ReissuedData;
    data.reissuedFrom = [...(data.reissuedFrom ?? []), row.order_number];
    store.db.prepare('UPDATE orders SET order_number = ?, last_error = NULL WHERE id = ?').run(orderNumber, orderId);
    store.requeue(orderId, JSON.stringify(body), data, now);
    return { previous: row.order_number, orderNumber };
  }).immediate();
}
