/**
 * The shop's e-invoices at the hub (docs/sef.md, "Sending from the hub"): the list with each document's state at
 * SEF, a refused one sent again, a sent one cancelled (or an accepted one stornoed). A hub manager's session acts on
 * its own shop, the admin token on the shop it names.
 */
import { HubSefCancelInput, HubSefIdInput, type HubSefDocument, type HubSefList } from '../sef.ts';
import { ShopQuery, shopIdInQuery } from '../protocol.ts';
import { shopEndpoint } from './define.ts';

export const SEF_API = {
  sefDocuments: shopEndpoint<HubSefList>()('GET /api/admin/sef', ShopQuery),
  /** A document SEF refused, rebuilt and sent again (a new request id, the same number); answered as it is now. */
  sefRetry: shopEndpoint<HubSefDocument>()(
    'POST /api/admin/sef/retry',
    HubSefIdInput.extend({ shopId: shopIdInQuery }),
  ),
  /** A sent document cancelled, or an accepted one stornoed, with the manager's comment; answered as it is now. */
  sefCancel: shopEndpoint<HubSefDocument>()(
    'POST /api/admin/sef/cancel',
    HubSefCancelInput.extend({ shopId: shopIdInQuery }),
  ),
};
