/**
 * The background loops that talk to the gateway outside the outbox (a receipt's missing journal, e-mail,
 * parked-cart drafts) retry within a budget; what spent its budget waits here for a person, with the
 * gateway's last words, and is resumed with a fresh budget. (Orders whose look-ups were spent are in the
 * orders' needs-attention list: `orders.resend`.)
 */
import { z } from 'zod';
import { command } from './define.ts';
import * as s from './schemas.ts';

export const RETRY_LOOPS = ['journal', 'email', 'drafts'] as const;
export type RetryLoopName = (typeof RETRY_LOOPS)[number];

/** One item whose retry budget is spent. */
export interface RetryAttentionView {
  loop: RetryLoopName;
  /** The loop's own key of the item (an order id, an e-mail id, `push:<parked id>` …). */
  item: string;
  /** What it is, for a person: an order number and invoice number, an address, a parked cart. */
  label: string;
  tries: number;
  /** The gateway's last words (or the connection error). */
  lastError: string | null;
}

export const retriesCommands = {
  'retries.list': command<{ items: RetryAttentionView[] }>('session')(
    s.empty,
    'Background retries (missing journals, e-mails, parked-cart drafts) that spent their budget and wait for a person.',
  ),
  'retries.resume': command<{ resumed: boolean }>('session')(
    z.strictObject({
      loop: z.enum(RETRY_LOOPS, { error: 'invalid' }),
      item: s.text(100),
    }),
    'A person resumes one item: a fresh retry budget, tried now.',
  ),
} as const;
