/**
 * The inputs and answers of the hub's stock-taking endpoints (shared/hub/contract/counts.ts; docs/goods.md
 * "Stock-taking at the hub"): a hub manager starts a count of a shop (whole, or some product groups), enters counts
 * by typing or from a handheld's CSV, and posts or cancels it. Quantities in integer thousandths, money in para;
 * each refusal names its field, with the till's own words for it (shared/messages.ts).
 */
import { z } from 'zod';
import type { CountSummary, CountView } from '../contract/goods.ts';
import { shopId, shopIdInQuery } from './protocol.ts';

const countId = z.number().int().positive();

export const HubCountStartInput = z.object({
  shopId,
  /** The product groups counted; absent or empty: the whole shop. */
  groups: z.array(z.string().trim().min(1).max(100)).max(200).optional(),
});

/** Counted quantities (a code or a barcode; `add` adds to what was counted so far, else replaces it). */
export const HubCountEnterInput = z.object({
  shopId,
  countId,
  lines: z
    .array(
      z.object({
        code: z.string().trim().min(1).max(64),
        /** What was counted, in thousandths: zero or more. */
        qtyMilli: z.number().int().nonnegative().max(1_000_000_000_000),
        add: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(5000),
});

/** A handheld's CSV: `code;quantity` per row (a tab works too), a header row skipped, a code twice adds up. */
export const HubCountImportInput = z.object({ shopId, countId, csv: z.string().min(1).max(4_000_000) });

export const HubCountActInput = z.object({ shopId, countId });

export const HubCountQuery = z.object({
  shopId: shopIdInQuery,
  countId: z.coerce.number().int().positive(),
  lang: z.enum(['sr-Cyrl', 'sr-Latn', 'en']).optional(),
});

export type HubCountStartInput = z.infer<typeof HubCountStartInput>;
export type HubCountEnterInput = z.infer<typeof HubCountEnterInput>;

/** A shop's counts (newest first) and the product groups a new one may take. */
export interface HubCountList {
  counts: CountSummary[];
  groups: string[];
}

/** A count with its lines and totals, as the till's (shared/contract/goods.ts). */
export type HubCountView = CountView;
