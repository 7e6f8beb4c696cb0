/**
 * The hub's API, declared once (issue 39): every endpoint with its method, path, caller, input schema and result
 * type, by area (shared/hub/contract/). The hub's route table is built from it (hub/router.ts: a handler per key,
 * checked at type-check time), its guard decides from it (hub/guard.ts), and the till's hub client and the hub UI
 * call through the typed client made from it (shared/hub/client.ts). No hub path is written anywhere else
 * (test/hub/contract-paths.test.ts).
 */
import { PUBLIC_API } from './contract/public.ts';
import { TILL_API } from './contract/till.ts';
import { MANAGER_API } from './contract/manager.ts';
import { GOODS_API } from './contract/goods.ts';
import { COUNT_API } from './contract/counts.ts';
import { TILL_GOODS_API } from './contract/till-goods.ts';
import { EXPORT_API } from './contract/exports.ts';
import { SEF_API } from './contract/sef.ts';

export const HUB_API = {
  ...PUBLIC_API,
  ...TILL_API,
  ...MANAGER_API,
  ...GOODS_API,
  ...COUNT_API,
  ...TILL_GOODS_API,
  ...EXPORT_API,
  ...SEF_API,
} as const;
export type HubApi = typeof HUB_API;
export type HubEndpointKey = keyof HubApi;

export { PUBLIC_API, TILL_API, MANAGER_API, GOODS_API, COUNT_API, TILL_GOODS_API, EXPORT_API, SEF_API };
export * from './contract/define.ts';
export * from './contract/results.ts';
export { ChangesQuery, batchLimit } from './contract/till.ts';
