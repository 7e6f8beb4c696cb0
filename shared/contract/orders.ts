/** Orders: one order, the list, and what a person does for an order that needs attention. */
import { z } from 'zod';
import { command, event } from './define.ts';
import * as s from './schemas.ts';
import type { OrderState, OrderView } from '../domain.ts';

export interface OrderListResult {
  orders: OrderView[];
  /** Matching orders, counted up to 1,000 past the page asked for (a bound on the work, however long the history). */
  total: number;
}

// Optional: a manager logged in at this till is not asked for her PIN again (electron/auth/guard.ts `selfApprover`).
const { managerPin } = s;

export const ordersCommands = {
  'orders.get': command<OrderView>('session')(
    z.strictObject({ orderId: s.id }),
    'One order with its state and receipt.',
  ),
  'orders.list': command<OrderListResult>('session')(
    z.strictObject({
      state: z.enum(['queued', 'fiscalized', 'needs_attention'], { error: 'state' }).optional(),
      limit: z.number({ error: 'number' }).int({ error: 'integer' }).min(1).max(500).optional(),
      offset: z.number({ error: 'number' }).int({ error: 'integer' }).min(0).optional(),
      // only orders issued under another tax-rate group than the one at capture
      taxGroupChanged: z.boolean({ error: 'boolean' }).optional(),
      // fiscalized orders whose receipt differs from what was sent in items/payments ("differs — check").
      receiptCheck: z.boolean({ error: 'boolean' }).optional(),
    }),
    'Orders, newest first, optionally by state; or only those issued under another tax-rate group (taxGroupChanged), ' +
      'or the fiscalized ones whose receipt differs in its details (receiptCheck).',
  ),
  'orders.fixLabels': command<OrderView>('approval')(
    z.strictObject({
      orderId: s.id,
      /** Label replacements, e.g. {"Ђ": "A"}: every line that had the old label gets the new one. */
      replace: z.record(s.labelCode, s.labelCode, { error: 'replace' }),
    }),
    'For an order in needs_attention: rewrites its labels and resends it under the same order number.',
  ),
  'orders.resend': command<OrderView>('session')(
    z.strictObject({ orderId: s.id }),
    'For an order in needs_attention: queues it again unchanged (e.g. after the account was fixed).',
  ),
  'orders.reissue': command<OrderView>('approval')(
    z.strictObject({ managerPin, orderId: s.id }),
    "For an order parked because the gateway returned another sale's receipt for its number: gives it a NEW order " +
      "number and queues it again. A manager's PIN, checked in the core; audited with the old and new number.",
  ),
  'orders.lpfrNotSigned': command<OrderView>('approval')(
    z.strictObject({
      managerPin,
      orderId: s.id,
      /** The manager looked in the L-PFR's journal and found no invoice with this order's ESIR number. */
      journalChecked: z.literal(true, { error: 'journal_checked' }),
    }),
    'For an order parked because the L-PFR could not prove it never signed it (LPFR_UNPROVEN): a manager who found ' +
      "no invoice of it in the L-PFR's journal frees it, and it is signed once. A manager's PIN; audited.",
  ),
} as const;

export const ordersEvents = {
  'order.updated': event<{ orderId: number; orderNumber: string; state: OrderState }>(
    'An order changed state (fiscalized, needs attention) or got its receipt.',
  ),
} as const;
