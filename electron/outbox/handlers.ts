/** The sync area's handlers (shared/contract/sync.ts): the outbox engine's state, and a pass now. */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import type { SyncEngine } from './engine.ts';

export function syncHandlers(engine: SyncEngine): AreaHandlers<'sync'> {
  return areaHandlers('sync', {
    'sync.status': async () => engine.status(),
    'sync.now': async () => {
      engine.retryNow();
      await engine.runOnce();
      return engine.status();
    },
  });
}
