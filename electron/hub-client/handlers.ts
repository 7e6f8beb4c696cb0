/** The till's `hub.*` commands (shared/contract/hub.ts): the manager sees the link and enrols the till. */
import type { HubStatusView } from '../../shared/contract/hub.ts';
import { CommandError } from '../errors.ts';
import { HubError } from './client.ts';
import type { HubSync } from './sync.ts';

export interface HubHandlerDeps {
  /** The approving manager's name, or a `forbidden` error (the core decides, not the UI). */
  requireManager: (pin: string) => Promise<string>;
  audit: (actor: string, action: string, detail: Record<string, unknown>) => void;
}

export function hubHandlers(sync: HubSync, deps: HubHandlerDeps) {
  return {
    'hub.status': async (): Promise<HubStatusView> => sync.status(),
    'hub.enrol': async ({
      managerPin,
      url,
      code,
    }: {
      managerPin: string;
      url: string;
      code: string;
    }): Promise<{ tillId: number; shopId: number }> => {
      const manager = await deps.requireManager(managerPin);
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
  };
}
