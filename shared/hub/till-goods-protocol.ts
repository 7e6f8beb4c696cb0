/**
 * What a till enrolled at a hub enters for the shop's book (shared/hub/contract/till-goods.ts; docs/goods.md "What
 * a till enrolled at a hub still does itself, and how it merges"): a goods receipt saved as a draft at the hub under
 * the till's own draft id (one hub draft per till and draft id, however often it is sent), posted with a hub
 * manager's PIN the hub checks, and count entries into the shop's open count, each once per till and entry id.
 * Money in integer para, quantities in integer thousandths; each refusal names its field.
 */
import { z } from 'zod';
import { HubReceiptDraftInput } from './goods-protocol.ts';

const tillKey = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A receipt's form as the till saves it at the hub: the hub's draft form without a shop or a hub id. */
export const TillReceiptForm = HubReceiptDraftInput.omit({ shopId: true, id: true });
export type TillReceiptForm = z.infer<typeof TillReceiptForm>;

export const TillReceiptDraftInput = z.object({
  /** The till's own id of the draft: with the till's id at the hub, the idempotency key. */
  tillDraftId: tillKey,
  /** The till's version of the draft (each save on the till adds one): an older version sent late changes nothing. */
  version: z.number().int().positive().max(1_000_000_000),
  /** A hub draft this till made, changed under this key (the guard refuses another till's or the hub's own). */
  id: z.number().int().positive().optional(),
  form: TillReceiptForm,
});
export type TillReceiptDraftInput = z.infer<typeof TillReceiptDraftInput>;

/** Posting a draft this till made, with a hub manager's PIN (checked at the hub, never on the till). */
export const TillReceiptPostInput = z.object({
  id: z.number().int().positive(),
  approverPin: z.string().min(4).max(12),
  confirmBelowPurchase: z.boolean().optional(),
});

/** One counted quantity a till entered (typed or scanned) into an open count of its shop. */
export const TillCountEntryInput = z.object({
  /** The till's own id of the entry: with the till's id at the hub, the idempotency key. */
  entryId: tillKey,
  countId: z.number().int().positive(),
  /** A product's code or one of its barcodes. */
  code: z.string().trim().min(1).max(64),
  qtyMilli: z.number().int().nonnegative().max(1_000_000_000_000),
  /** Adds to what this till counted of the product so far (a scan), else replaces it. */
  add: z.boolean(),
});
export type TillCountEntryInput = z.infer<typeof TillCountEntryInput>;

/** The hub's answer to a till's draft: its id there, its state and number once posted. */
export interface TillDraftAnswer {
  id: number;
  state: 'draft' | 'posted' | 'reversed';
  number: string | null;
  /** The till's version the hub holds. */
  version: number;
}

/** The hub's answer to a count entry: the product's line, this till's sheet of it and the line's total. */
export interface TillCountEntryAnswer {
  entryId: number;
  countId: number;
  /** The count line's product code (a scanned barcode resolved). */
  code: string;
  name: string;
  /** What this till counted of it (its count sheet). */
  sheetMilli: number;
  /** What the count holds of it: the sum over the sheets (and a hub manager's own entries). */
  countedMilli: number;
  /** False: this entry had reached the hub before (a resend), nothing changed. */
  applied: boolean;
}

/** The shop's open counts, as a till lists them to count into. */
export interface TillOpenCount {
  id: number;
  number: string;
  groups: string[] | null;
  startedAt: string;
  lineCount: number;
  countedCount: number;
}
