/** Advances: the open advance chains, a further advance, and the final receipt. */
import { z } from 'zod';
import { command } from './define.ts';
import * as s from './schemas.ts';
import { CheckoutLine } from './sales.ts';
import type { OrderView } from '../domain.ts';
import type { Para } from '../money.ts';

/** an open advance's chain (first to last) and what it paid net of refunds: the final receipt's `advanceAmount`. */
export interface AdvanceChainView {
  orderId: number;
  advances: { orderId: number; orderNumber: string; invoiceNumber?: string; totalPara: Para; refundedPara: Para }[];
  paidPara: Para;
}

export const advancesCommands = {
  'advances.list': command<{ advances: OrderView[]; chains?: AdvanceChainView[] }>('session')(
    s.empty,
    'Open advances (the last of each chain) and, per open advance, its chain and what it paid net of refunds.',
  ),
  'advances.finalize': command<OrderView>('session')(
    z.strictObject({
      orderId: s.id,
      // the final items (default: the advance's) and the payment of the rest.
      lines: z
        .array(CheckoutLine, { error: 'lines' })
        .min(1, { error: 'lines' })
        .max(500, { error: 'too_many' })
        .optional(),
      payments: z
        .array(z.strictObject({ type: s.paymentType, amount: s.nonNegativeAmount }), { error: 'payments' })
        .min(1, { error: 'payments' })
        .max(11, { error: 'too_many' })
        .optional(),
      paymentType: s.paymentType.optional(),
      // No `cashier`: the final receipt names the person logged in.
    }),
    'Finalizes the chain of the open advance `orderId` (its last): the gateway issues the advance refund and the ' +
      'final receipt (both stored); `advanceAmount` is what the chain paid net of refunds, `payments` the rest.',
  ),
  'advances.add': command<OrderView>('session')(
    z.strictObject({
      orderId: s.id,
      lines: z.array(CheckoutLine, { error: 'lines' }).min(1, { error: 'lines' }).max(500, { error: 'too_many' }),
      payments: z
        .array(z.strictObject({ type: s.paymentType, amount: s.positiveAmount }), { error: 'payments' })
        .min(1, { error: 'payments' })
        .max(11, { error: 'too_many' }),
      // No `cashier`: the advance names the person logged in.
      /** Paid earlier by bank transfer: the day of the payment (YYYY-MM-DD), sent as the ESIR time. */
      paidOn: s.calendarDate.optional(),
    }),
    "A further advance of the same order: an advance sale referencing the open advance `orderId` (the chain's last).",
  ),
} as const;
