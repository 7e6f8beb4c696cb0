/** Fiscal copies of issued receipts. */
import { command } from './define.ts';
import * as s from './schemas.ts';
import type { OrderView } from '../domain.ts';

export const copiesCommands = {
  'copies.create': command<OrderView>('approval')(
    s.saleRef,
    'Issues a fiscal COPY of a sale through the gateway (queued when offline; waits for a queued original). By ' +
      "invoice or order number also of another till's sale through the store hub.",
  ),
} as const;
