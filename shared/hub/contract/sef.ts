/**
 * The shop's e-invoices at the hub (docs/sef.md, "Sending from the hub"): the list with each document's state at
 * SEF, a refused one sent again, a sent one cancelled (or an accepted one stornoed). A hub manager's session acts on
 * its own shop, the admin token on the shop it names.
 */
import { z } from 'zod';
import { HubSefCancelInput, HubSefIdInput, type HubSefDocument, type HubSefList } from '../sef.ts';
import { endpoint } from './define.ts';

const shopId = z.coerce.number().int().positive().optional();

export const SEF_API = {
  sefDocuments: endpoint<HubSefList>()({
    method: 'GET',
    path: '/api/admin/sef',
    caller: 'manager',
    input: z.object({ shopId }),
    shop: 'required',
  }),
  /** A document SEF refused, rebuilt and sent again (a new request id, the same number). */
  sefRetry: endpoint<HubSefDocument>()({
    method: 'POST',
    path: '/api/admin/sef/retry',
    caller: 'manager',
    input: HubSefIdInput.extend({ shopId }),
    shop: 'required',
  }),
  /** A sent document cancelled, or an accepted one stornoed, with the manager's comment. */
  sefCancel: endpoint<HubSefDocument>()({
    method: 'POST',
    path: '/api/admin/sef/cancel',
    caller: 'manager',
    input: HubSefCancelInput.extend({ shopId }),
    shop: 'required',
  }),
};
