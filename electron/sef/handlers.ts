/**
 * The SEF area's handlers (shared/contract/sef.ts): thin adapters to the SEF outbox, the link (settings and key)
 * and the incoming invoices. Every command carries a manager's PIN (the guard verified it: `caller.approver`).
 */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { approverOf } from '../auth/context.ts';
import { CommandError } from '../errors.ts';
import type { SefService } from './service.ts';
import type { SefLink } from './link.ts';
import { fetchIncoming, type IncomingDeps } from './incoming.ts';
import { SefError } from '../../shared/node/sef-client.ts';

export interface SefHandlerDeps {
  service: SefService;
  link: SefLink;
  incoming: IncomingDeps;
  audit: (actor: string | null, action: string, detail: Record<string, unknown>) => void;
}

export function sefHandlers(d: SefHandlerDeps): AreaHandlers<'sef'> {
  return areaHandlers('sef', {
    'sef.issue': async ({ orderId }, caller) => d.service.issue(orderId, approverOf(caller).name),
    'sef.list': async () => ({ documents: d.service.list(), offers: d.service.offersList() }),
    'sef.forOrder': async ({ orderId }) => ({
      document: d.service.forOrder(orderId),
      offer: d.service.offers(orderId),
    }),
    'sef.retry': async ({ id }) => d.service.retry(id),
    'sef.cancel': async ({ id, comment }) => d.service.cancel(id, comment),
    'sef.settings': async () => d.link.view(),
    'sef.saveSettings': async (input, caller) => {
      const actor = approverOf(caller).name;
      const { view, keyChanged } = await d.link.save(input);
      // The audit names what changed, never the key.
      d.audit(actor, 'sef.settings', { environment: view.environment, autoIssue: view.autoIssue, keyChanged });
      d.service.kick();
      return view;
    },
    'sef.incoming': async (_input, caller) => {
      const client = d.link.client();
      if (!client) throw new CommandError('unavailable', 'sef_not_set_up');
      try {
        return await fetchIncoming(d.incoming, client, caller);
      } catch (e) {
        if (e instanceof SefError) throw new CommandError('unavailable', 'sef_unreachable');
        throw e;
      }
    },
  });
}
