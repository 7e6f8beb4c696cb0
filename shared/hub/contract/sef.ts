/**
 * The shop's e-invoices at the hub (docs/sef.md, "Sending from the hub"): the list with each document's state at
 * SEF, a refused one sent again, a sent one cancelled (or an accepted one stornoed). A hub manager's session acts on
 * its own shop, the admin token on the shop it names.
 */
import { z } from 'zod';
import { HubSefCancelInput, HubSefIdInput, type HubSefDocument, type HubSefList } from '../sef.ts';
import { endpoint } from './define.ts';

const shopId = z.coerce.number().int().positive().optional();

/** A manager's action on one of the shop's e-invoices: its answer is the document as it is now. */
const documentAction = <const P extends string, const S extends z.ZodType>(path: P, input: S) =>
  endpoint<HubSefDocument>()({ method: 'POST', path, caller: 'manager', input, shop: 'required' });

export const SEF_API = {
  sefDocuments: endpoint<HubSefList>()({
    method: 'GET',
    path: '/api/admin/sef',
    caller: 'manager',
    input: z.object({ shopId }),
    shop: 'required',
  }),
  /** A document SEF refused, rebuilt and sent again (a new request id, the same number). */
  sefRetry: documentAction('/api/admin/sef/retry', HubSefIdInput.extend({ shopId })),
  /** A sent document cancelled, or an accepted one stornoed, with the manager's comment. */
  sefCancel: documentAction('/api/admin/sef/cancel', HubSefCancelInput.extend({ shopId })),
};
