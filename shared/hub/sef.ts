/**
 * The shop's e-invoices as the hub UI lists them (hub/services/sef.ts, docs/sef.md "Sending from the hub"): the
 * till's view of a document (shared/contract/sef.ts) with the till whose order it is, and without the till's ids.
 */
import { z } from 'zod';
import type { SefDocumentView } from '../contract/sef.ts';

export interface HubSefDocument extends Omit<SefDocumentView, 'orderId' | 'auto'> {
  /** The till whose order it is. */
  tillName: string;
}

export interface HubSefList {
  /** The hub sends this shop's e-invoices (it has the shop's SEF key). */
  sending: boolean;
  documents: HubSefDocument[];
}

export const HubSefIdInput = z.strictObject({ id: z.number({ error: 'number' }).int().positive() });
export const HubSefCancelInput = z.strictObject({
  id: z.number({ error: 'number' }).int().positive(),
  comment: z.string({ error: 'text' }).trim().min(1, { error: 'required' }).max(500, { error: 'too_long' }),
});
