/** The handlers of the hub's public endpoints (shared/hub/contract/public.ts). */
import type { PUBLIC_API } from '../../shared/hub/contract.ts';
import { recordAudit } from '../audit.ts';
import type { HubHandlers } from '../router.ts';
import { createSession } from '../sessions.ts';
import type { RouteDeps } from './deps.ts';

export function publicHandlers({ service, fingerprint, now }: RouteDeps): HubHandlers<typeof PUBLIC_API> {
  return {
    // `maintenance`: whether the day closer works (its error only for the managers, GET /api/admin/tills).
    health: async () => ({
      ok: true,
      db: service.db.kind,
      fingerprint,
      maintenance: (await service.maintenance()) ? 'failing' : 'ok',
    }),
    enrol: ({ input }) => service.enrol(input.code, input.name),
    shops: async () => ({ shops: await service.shops() }),
    // The guard found the manager by the PIN (counted first, per source machine and shop).
    login: async ({ approver }) => {
      const token = await createSession(service.db, approver, now());
      await recordAudit(service.db, { shopId: approver.shopId, actor: approver.name, action: 'login', detail: {} });
      return { token, shopId: approver.shopId, name: approver.name };
    },
  };
}
