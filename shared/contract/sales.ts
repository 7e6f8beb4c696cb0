import { z } from 'zod';
import { command, event } from './define.ts';
import * as s from './schemas.ts';
import type { AppInfo, OrderState, OrderView, SyncStatus, TaxRatesView, ReceiptView } from '../domain.ts';

export const CheckoutLine = z.strictObject({
  name: s.text(100),
  quantity: s.quantity,
  unitPrice: s.nonNegativeAmount,
  labels: z.array(s.labelCode, { error: 'labels' }).min(1, { error: 'labels' }).max(5, { error: 'too_many' }),
  gtin: s.gtin.optional(),
  /** Line discount in RSD, taken off the line total. */
  discount: s.nonNegativeAmount.optional(),
});

export const CheckoutInput = z.strictObject({
  lines: z.array(CheckoutLine, { error: 'lines' }).min(1, { error: 'lines' }).max(500, { error: 'too_many' }),
  /**
   * Payments in RSD. Cash may exceed what is due: the excess is change, computed locally, and is
   * not sent to the gateway as a payment. Empty (or ignored) for proforma and training: they take no
   * money and the core sends one nominal payment (electron/sales/no-money.ts); a sale without enough
   * payments is refused by the core at `payments`.
   */
  payments: z
    .array(z.strictObject({ type: s.paymentType, amount: s.positiveAmount }), { error: 'payments' })
    .max(11, { error: 'too_many' }),
  invoiceType: z.enum(['normal', 'training', 'proforma', 'advance'], { error: 'invoice_type' }).optional(),
  buyerId: s.buyerId.optional(),
  email: s.email.optional(),
  cashier: s.text(60).optional(),
});
export type CheckoutInput = z.infer<typeof CheckoutInput>;

export interface CheckoutResult {
  orderId: number;
  orderNumber: string;
  state: OrderState;
  totalPara: number;
  changePara: number;
  receipt?: ReceiptView;
}

export interface OrderListResult {
  orders: OrderView[];
  /** Matching orders, counted up to 1,000 past the page asked for (a bound on the work, however long the history). */
  total: number;
}

export const salesCommands = {
  'app.info': command<AppInfo>()(s.empty, 'Mode (demo or live), language, terminal and version.'),
  'taxRates.get': command<TaxRatesView>()(
    z.strictObject({ refresh: z.boolean({ error: 'boolean' }).optional() }),
    'The current tax labels from the gateway, cached for offline use; refresh asks the gateway again.',
  ),
  'sales.checkout': command<CheckoutResult>()(
    CheckoutInput,
    'Commits the order, its frozen gateway request and its outbox row in one transaction before answering; ' +
      'answers `fiscalized` if the gateway issued the receipt within the online budget, otherwise `queued`.',
  ),
  'orders.get': command<OrderView>()(z.strictObject({ orderId: s.id }), 'One order with its state and receipt.'),
  'orders.list': command<OrderListResult>()(
    z.strictObject({
      state: z.enum(['queued', 'fiscalized', 'needs_attention'], { error: 'state' }).optional(),
      limit: z.number({ error: 'number' }).int({ error: 'integer' }).min(1).max(500).optional(),
      offset: z.number({ error: 'number' }).int({ error: 'integer' }).min(0).optional(),
      // #21: only orders issued under another tax-rate group than the one at capture
      taxGroupChanged: z.boolean({ error: 'boolean' }).optional(),
      // #21: fiscalized orders whose receipt differs from what was sent in items/payments ("differs — check").
      receiptCheck: z.boolean({ error: 'boolean' }).optional(),
    }),
    'Orders, newest first, optionally by state; or only those issued under another tax-rate group (taxGroupChanged), or the fiscalized ones whose receipt differs in its details (receiptCheck).',
  ),
  'orders.fixLabels': command<OrderView>()(
    z.strictObject({
      orderId: s.id,
      /** Label replacements, e.g. {"Ђ": "A"}: every line that had the old label gets the new one. */
      replace: z.record(s.labelCode, s.labelCode, { error: 'replace' }),
    }),
    'For an order in needs_attention: rewrites its labels and resends it under the same order number.',
  ),
  'orders.resend': command<OrderView>()(
    z.strictObject({ orderId: s.id }),
    'For an order in needs_attention: queues it again unchanged (e.g. after the account was fixed).',
  ),
  'sync.status': command<SyncStatus>()(s.empty, 'Online state, queue size, the oldest unfiscalized order.'),
  'sync.now': command<SyncStatus>()(
    s.empty,
    'Retries every queued order now (backoff forgotten, auth pause lifted, gateway probed) and runs a sync pass.',
  ),
} as const;

export const salesEvents = {
  'order.updated': event<{ orderId: number; orderNumber: string; state: OrderState }>(
    'An order changed state (fiscalized, needs attention) or got its receipt.',
  ),
  'sync.status': event<SyncStatus>('The sync engine went online/offline, paused, or the queue changed.'),
} as const;
