/** Refunds: what is left of an original to refund, and the refund itself (a manager's approval). */
import { z } from 'zod';
import { command } from './define.ts';
import * as s from './schemas.ts';
import type { InvoiceType, OrderState, OrderView, PaymentType } from '../domain.ts';
import type { Milli, Para } from '../money.ts';

/** A line of an order that can be refunded, with what is left of it. */
export interface RefundableLine {
  index: number;
  name: string;
  labels: string[];
  unitPricePara: Para;
  soldMilli: Milli;
  refundedMilli: Milli;
  remainingMilli: Milli;
}

/** What a refund would refer to. Lines are known for local orders; an archive-only receipt is refunded in full. */
export interface RefundSource {
  orderId?: number;
  orderNumber?: string;
  invoiceNumber?: string;
  sdcDateTime?: string;
  invoiceType: InvoiceType;
  state: OrderState | 'archived';
  totalPara: Para;
  lines: RefundableLine[];
  payments: { type: PaymentType; amountPara: Para }[];
  /** Full refund is possible only while nothing of it was refunded. */
  fullRefundAllowed: boolean;
  /** the original's buyer ID, which a refund takes over. */
  buyerId?: string;
  /** `10:` + the seller's own PIB, the buyer ID of a correction without refund of money (absent: not known yet). */
  sellerBuyerId?: string;
  /** the manager's setting allows a refund without a buyer ID. */
  withoutBuyerIdAllowed?: boolean;
}

// Optional: a manager logged in at this till is not asked for her PIN again (electron/auth/guard.ts `selfApprover`).
const { managerPin } = s;
const refundLine = z.strictObject({
  index: z.number({ error: 'number' }).int({ error: 'integer' }).min(0, { error: 'non_negative' }),
  quantity: s.quantity,
});

export const RefundInput = z
  .strictObject({
    managerPin,
    /** The original: a local order, or an invoice number (local or from the gateway archive). */
    orderId: s.id.optional(),
    invoiceNumber: z
      .string({ error: 'text' })
      .trim()
      .min(3, { error: 'required' })
      .max(60, { error: 'too_long' })
      .optional(),
    /** Partial refund: the lines and quantities (positive) to refund. */
    lines: z
      .array(refundLine, { error: 'lines' })
      .min(1, { error: 'lines' })
      .max(500, { error: 'too_many' })
      .optional(),
    /** Refund everything through the full-refund endpoint. */
    full: z.boolean({ error: 'boolean' }).optional(),
    buyerId: s.buyerId.optional(),
    /** `settings.skipBuyerIdValidation`: only where the manager's setting `allowRefundWithoutBuyerId` allows it. */
    skipBuyerId: z.boolean({ error: 'boolean' }).optional(),
    /**
     * A correction without refund of money (a mistake): the buyer ID is the seller's own PIB. Absent buyerId:
     * the original's.
     */
    correction: z.boolean({ error: 'boolean' }).optional(),
    paymentType: s.paymentType,
    // No `cashier`: the refund names the person logged in (docs/manager.md, "Who is named on a document").
  })
  .refine((v) => v.orderId !== undefined || v.invoiceNumber !== undefined, {
    error: 'required',
    path: ['invoiceNumber'],
  })
  .refine((v) => v.full === true || v.lines !== undefined, { error: 'lines', path: ['lines'] });
export type RefundInput = z.infer<typeof RefundInput>;

export const refundsCommands = {
  'refunds.source': command<RefundSource>('session')(
    s.saleRef,
    'The original of a refund with what is left to refund per line (local orders, else the gateway archive).',
  ),
  'refunds.create': command<OrderView>('approval')(
    RefundInput,
    'Captures a refund (partial or full) in one transaction; refuses more than is left; waits for a queued original.',
  ),
} as const;
