/** The one entry point electron/core.ts calls: the hub sync when a hub is configured, else nothing. */
import { HubSync, type HubSyncOptions } from './sync.ts';

export { hubSale } from './refund.ts';

export { hubHandlers } from './handlers.ts';

/**
 * The till's store hub sync, started when KASA_HUB_URL (or an earlier enrolment) names a hub. Without one
 * it stays idle: no request, no outbox row (the triggers wait for an enrolment), lookups answer null.
 */
export function startHubSync(o: HubSyncOptions): HubSync {
  const sync = new HubSync(o);
  sync.start();
  return sync;
}
