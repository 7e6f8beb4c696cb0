/** The one entry point electron/core.ts calls: the hub sync when a hub is configured, else nothing. */
import { HubSync, type HubSyncOptions } from './sync.ts';

export { hubRefundSource } from './refund.ts';

/** Starts the store hub sync when KASA_HUB_URL (or an earlier enrolment) names a hub; null otherwise. */
export function startHubSync(o: HubSyncOptions): HubSync | null {
  const sync = new HubSync(o);
  if (!sync.url()) return null;
  sync.start();
  return sync;
}
