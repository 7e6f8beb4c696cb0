/**
 * The orders area's handlers (shared/contract/orders.ts): one order, the list, and what a person does for
 * an order that needs attention (resend it, fix its labels, or give it a new number).
 */
import type { OrderView } from '../../shared/domain.ts';
import { approverOf, type Person } from '../auth/context.ts';
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { CommandError } from '../errors.ts';
import type { GatewayClient } from '../gateway/client.ts';
import { confirmBeforeReissue } from './reissue.ts';
import type { SyncEngine } from '../outbox/engine.ts';
import { taxGroupChangedList } from './tax-group.ts';
import type { OrderStore } from './store.ts';

export interface OrdersHandlerDeps {
  store: OrderStore;
  engine: SyncEngine;
  /** The tax labels in force (the cached gateway tax rates, sales/tax-rates.ts): a fixed label must be one of them. */
  taxRates: { labels(): readonly string[] };
  client(): GatewayClient;
  now(): number;
  /** The next free order number of this till (a reissued order's new one). */
  nextOrderNumber(): string;
  /** The audit log's writer (electron/auth/staff.ts); `approver` null: no approver in the row. */
  audit(actor: string | null, action: string, detail: Record<string, unknown>, approver?: string | null): void;
}

export function ordersHandlers(deps: OrdersHandlerDeps): AreaHandlers<'orders'> {
  const { store, engine, taxRates, now } = deps;
  const orderView = (orderId: number): OrderView => {
    const row = store.get(orderId);
    if (!row) throw new CommandError('not_found', 'order_not_found', { id: orderId });
    return store.view(row);
  };
  /** The order, which must be waiting for a person (needs_attention). */
  const needingAttention = (orderId: number): void => {
    const row = store.get(orderId);
    if (!row) throw new CommandError('not_found', 'order_not_found', { id: orderId });
    if (row.state !== 'needs_attention') throw new CommandError('conflict', 'not_needs_attention', { id: orderId });
  };
  return areaHandlers('orders', {
    'orders.get': async ({ orderId }) => orderView(orderId),
    'orders.list': async ({ state, limit, offset, taxGroupChanged, receiptCheck }) => {
      if (taxGroupChanged) return taxGroupChangedList(store, limit ?? 50, offset ?? 0);
      if (receiptCheck) {
        const checks = store.receiptChecks(limit ?? 50);
        return { orders: checks.map((r) => store.view(r)), total: checks.length };
      }
      const { rows, total } = store.list(state, limit ?? 50, offset ?? 0);
      return { orders: rows.map((r) => store.view(r)), total };
    },
    'orders.fixLabels': async ({ orderId, replace }) => {
      needingAttention(orderId);
      const known = new Set(taxRates.labels());
      for (const [from, to] of Object.entries(replace)) {
        if (!known.has(to))
          throw new CommandError(
            'invalid_input',
            'label_unknown',
            { label: to, field: `replace.${from}` },
            `replace.${from}`,
          );
      }
      store.relabel(orderId, replace, now());
      // The guard's `approved.orders.fixLabels` row names the approver; this one records the change.
      deps.audit(null, 'order.fixLabels', { orderId, replace }, null);
      engine.kick();
      return orderView(orderId);
    },
    'orders.resend': async ({ orderId }) => {
      needingAttention(orderId);
      store.requeue(orderId, null, null, now());
      engine.resume();
      return orderView(orderId);
    },
    'orders.lpfrNotSigned': async ({ orderId }, caller) => {
      const approver: Person = approverOf(caller);
      needingAttention(orderId);
      const row = store.get(orderId);
      if (!row || !store.lpfrConfirmNotSigned(orderId, now()))
        throw new CommandError('conflict', 'not_lpfr_unproven', { id: orderId });
      deps.audit(approver.name, 'order.lpfrNotSigned', { orderId, order: row.order_number });
      engine.kick();
      return orderView(orderId);
    },
    'orders.reissue': async ({ orderId }, caller) => {
      const approver: Person = approverOf(caller);
      // Only when lookup and archive confirm the number's receipt is another sale's (reissue-check.ts).
      await confirmBeforeReissue(
        { store, client: deps.client, now, audit: (a, d) => deps.audit(approver.name, a, d) },
        orderId,
      );
      const renumbered = store.reissue(orderId, deps.nextOrderNumber, now());
      if (!renumbered) throw new CommandError('conflict', 'not_receipt_mismatch', { id: orderId });
      deps.audit(approver.name, 'order.reissue', { orderId, from: renumbered.from, to: renumbered.to });
      engine.kick();
      return orderView(orderId);
    },
  });
}
