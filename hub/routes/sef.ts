/**
 * The handlers of the hub's e-invoice endpoints (shared/hub/contract/sef.ts): the guard has identified the manager and
 * settled the shop; the SEF area (hub/services/sef.ts) decides and audits.
 */
import type { SEF_API } from '../../shared/hub/contract.ts';
import type { HubHandlers } from '../router.ts';
import type { RouteDeps } from './deps.ts';

export function sefHandlers({ service }: RouteDeps): HubHandlers<typeof SEF_API> {
  return {
    sefDocuments: ({ shop }) => service.sefDocuments(shop),
    sefRetry: ({ who, input, shop }) => service.sefRetry(shop, input.id, who.name),
    sefCancel: ({ who, input, shop }) => service.sefCancel(shop, input.id, input.comment, who.name),
  };
}
