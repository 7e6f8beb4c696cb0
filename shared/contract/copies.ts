/** Fiscal copies of issued receipts. */
import { z } from 'zod';
import { command } from './define.ts';
import * as s from './schemas.ts';
import type { OrderView } from '../domain.ts';

export const copiesCommands = {
  'copies.create': command<OrderView>()(
    z
      .strictObject({
        orderId: s.id.optional(),
        invoiceNumber: z.string({ error: 'text' }).trim().min(3).max(60).optional(),
      })
      .refine((v) => v.orderId !== undefined || v.invoiceNumber !== undefined, {
        error: 'required',
        path: ['invoiceNumber'],
      }),
    'Issues a fiscal COPY of a sale through the gateway (queued when offline; waits for a queued original). By ' +
      "invoice or order number also of another till's sale through the store hub.",
    { auth: 'approval' },
  ),
} as const;
