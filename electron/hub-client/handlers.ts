/** The hub area's handlers (shared/contract/hub.ts): the manager sees the till's link and enrols the till. */
import { approverOf } from '../auth/context.ts';
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { CommandError } from '../errors.ts';
import { HubError } from './client.ts';
import type { Language } from '../../shared/domain.ts';
import { message } from '../../shared/messages.ts';
import type { HubSync } from './sync.ts';

export interface HubHandlerDeps {
  audit: (actor: string, action: string, detail: Record<string, unknown>) => void;
  /** The UI language, for the hub's refusal said in words. */
  language: () => Language;
}

/** The message key of the reason for each code of the hub's enrolment refusals. */
const HUB_REASONS: Readonly<Record<string, string>> = {
  enrol_code_unknown: 'hub_code_unknown',
  enrol_code_used: 'hub_code_used',
  enrol_code_expired: 'hub_code_expired',
};

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
        const lang = deps.language();
        if (err instanceof HubError && err.status < 500) {
          const field = err.field === 'code' || err.code.startsWith('enrol_code') ? 'code' : 'url';
          // The hub's own text is English (for API users): the till says its code's reason in words.
          const reason = message(lang, HUB_REASONS[err.code] ?? 'hub_refused');
          throw new CommandError('invalid_input', 'hub_enrol_refused', { field, reason }, field);
        }
        throw new CommandError('unavailable', 'hub_unreachable', { reason: message(lang, 'hub_no_answer') });
      }
      // The code is spent; only the URL and the till id are worth an audit line (never the credential).
      deps.audit(manager, 'hub.enrol', { url, tillId: r.tillId, shopId: r.shopId });
      sync.start();
      return r;
    },
  });
}
