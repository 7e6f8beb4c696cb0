/**
 * What a till enrolled at a store hub enters for the shop's book (docs/goods.md "What a till enrolled at a hub still
 * does itself, and how it merges"): goods receipt drafts saved at the hub and counted quantities entered into the
 * hub's open counts, each kept in the till's durable queue until the hub has it (offline too), with the hub's answer
 * or its refusal at a field. Posting a draft takes a hub manager's PIN, which the hub checks (not the till).
 */
import { z } from 'zod';
import { command } from './define.ts';
import * as s from './schemas.ts';
import { receiptDraftFields } from './goods.ts';
import { toMilli, type Milli } from '../money.ts';
import type { TillReceiptForm } from '../hub/till-goods-protocol.ts';

/** The till's receipt form for the hub: a supplier of the till's register, their invoice, the shop's products. */
export const HubReceiptSaveInput = z.strictObject({
  managerPin: s.managerPin,
  /** Absent: a new draft; present: this till's draft saved over (until the hub posts it). */
  id: s.id.optional(),
  ...receiptDraftFields,
});
export type HubReceiptSaveInput = z.infer<typeof HubReceiptSaveInput>;

/** A refusal of the hub as the till shows it: the message key, the till's field and its parameters. */
export interface HubRefusalView {
  key: string;
  field: string;
  params: Record<string, string | number>;
  /** The refusal in the user's language. */
  message: string;
}

/** A receipt draft of this till for the hub, with where it is: queued here, at the hub, refused, posted. */
export interface HubDraftView {
  /** The till's own id of the draft (with the till's id at the hub, its key there). */
  id: number;
  supplierId: number;
  supplier: string;
  invoiceNumber: string;
  invoiceDate: string;
  lines: TillReceiptForm['lines'];
  state: 'queued' | 'at_hub' | 'refused' | 'posted';
  /** The hub's id of the draft, once it has it. */
  hubId: number | null;
  /** The receipt's number at the hub once posted there. */
  hubNumber: string | null;
  refusal: HubRefusalView | null;
  updatedAt: string;
}

/** A counted quantity this till entered into a count of the hub. */
export interface HubCountEntryView {
  id: number;
  countId: number;
  code: string;
  name: string | null;
  qtyMilli: Milli;
  add: boolean;
  state: 'queued' | 'sent' | 'refused';
  /** What this till counted of the product so far (its count sheet), as the hub answered. */
  sheetMilli: Milli | null;
  /** What the count holds of the product (all sheets), as the hub answered. */
  countedMilli: Milli | null;
  refusal: HubRefusalView | null;
  at: string;
}

export interface HubCountsView {
  /** Whether the hub answered now (false: the list is the last it gave, `seenAt`). */
  online: boolean;
  counts: { id: number; number: string; groups: string[] | null; startedAt: string; seenAt: string }[];
  entries: HubCountEntryView[];
}

export const hubGoodsCommands = {
  'hubGoods.receipts': command<HubDraftView[]>('session')(
    s.empty,
    "This till's goods receipt drafts for the store hub, newest first, each with where it is: queued on the till, " +
      "at the hub (the hub's draft id), refused there (at its field, in the user's language) or posted.",
  ),
  'hubGoods.receiptSave': command<HubDraftView>('manager')(
    HubReceiptSaveInput,
    "Saves a goods receipt draft for the store hub (the shop's book): kept in the till's durable queue and sent " +
      "when the hub is reachable under the till's own draft id, so a resend makes one hub draft. The hub's rules " +
      'decide: its refusal now is at its field and nothing is saved. A line making a new product is refused (the ' +
      'hub owns the catalog).',
  ),
  'hubGoods.receiptPost': command<HubDraftView>('session')(
    z.strictObject({
      id: s.id,
      /** A manager's PIN of the shop at the hub: checked by the hub, never on the till. */
      approverPin: s.pin,
      confirmBelowPurchase: z.boolean({ error: 'boolean' }).optional(),
    }),
    "Posts this till's draft at the hub, once, with a hub manager's PIN that the hub checks; the hub away or the " +
      'draft not yet there: refused, nothing posted.',
  ),
  'hubGoods.counts': command<HubCountsView>('session')(
    s.empty,
    "The shop's open counts (started at the hub; the last list while the hub is away) and this till's entries.",
  ),
  'hubGoods.countEnter': command<HubCountEntryView>('session')(
    z.strictObject({
      countId: s.id,
      /** A product's code or one of its barcodes. */
      code: s.text(64),
      /** Counted, in units (three decimals); absent with `add`: one piece (a scan). */
      quantity: z
        .number({ error: 'number' })
        .finite({ error: 'number' })
        .refine((v) => toMilli(v) !== null, { error: 'quantity_decimals' })
        .refine((v) => v >= 0, { error: 'non_negative' })
        .optional(),
      add: z.boolean({ error: 'boolean' }).optional(),
    }),
    "Enters a counted quantity (typed or scanned) into an open count of the hub: queued, sent once under the till's " +
      "own entry id. This till's later entry for a product replaces its own earlier one (`add`: adds to it); the " +
      "count holds the sum over the tills' sheets. A cashier may count.",
  ),
} as const;
