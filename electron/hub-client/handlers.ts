/** The hub area's handlers (shared/contract/hub.ts): the manager sees the till's link and enrols the till. */
import { approverOf } from '../auth/context.ts';
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { CommandError } from '../errors.ts';
import { HubError } from './client.ts';
import type { HubSync } from './sync.ts';

export interface HubHandlerDeps {
  audit: (actor: string, action: string, detail: Record<string, unknown>) => void;
}

export function hubHandlers(sync: HubSync, deps: HubHandlerDeps): AreaHandlers<'hub'> {
  return areaHandlers('hub', {
    'hub.status': async () => sync.status(),
    'hub.enrol': async ({ url, code }, caller) => {
      const manager = approverOf(caller).name;
      const already = sync.tillId();
      if (already !== null) throw new CommandError('conflict', 'hub_already_enrolled', { id: already });
      let r: { tillId: number; shopId: number };
      try {
        r = await sync.enrol(url, code);
      } catch (err) {
        if (err instanceof HubError && err.status < 500) {
          const field = err.field === 'code' || err.code.startsWith('enrol_code') ? 'code' : 'url';
          throw new CommandError('invalid_input', 'hub_enrol_refused', { field, reason: err.message }, field);
        }
        throw new CommandError('unavailable', 'hub_unreachable', {
          reason: err instanceof Error ? err.message : String(err),
        });
      }
      // The code is spent; only the URL and the till id are worth an audit line (never the credential).
      deps.audit(manager, 'hub.enrol', { url, tillId: r.tillId, shopId: r.shopId });
      sync.start();
      return r;
    },
  });
}
