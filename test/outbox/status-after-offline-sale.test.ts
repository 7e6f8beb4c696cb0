/**
 * The status bar's queue follows every sale, also one taken while the engine already knows the gateway is
 * away (the idle probe or an earlier failure found it): then nothing is sent and no order changes state,
 * yet the queue grew, so a `sync.status` event must say so. Real core, the sandbox over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../shared/domain.ts';
import { BREAD_AND_MILK, closeCores, control, ok, startCore } from '../support/session.ts';

afterEach(closeCores);

describe('the queue in the status follows an offline sale', () => {
  it('a second sale taken while known offline is announced with the new queue', async () => {
    const core = await startCore();
    await control(core, 'offline', { offline: true });
    const statuses: SyncStatus[] = [];
    core.subscribe((m) => {
      if (m.name === 'sync.status') statuses.push(m.payload as SyncStatus);
    });
    const announced = (queued: number): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (statuses.some((s) => !s.online && s.queued === queued)) resolve();
          else setTimeout(check, 20);
        };
        check();
      });
    await ok(core, 'sales.checkout', BREAD_AND_MILK);
    await announced(1); // the failed send took the engine offline and said so
    expect((await ok<SyncStatus>(core, 'sync.status')).online).toBe(false);
    await ok(core, 'sales.checkout', BREAD_AND_MILK);
    await announced(2); // known offline: nothing was sent, the queue grew all the same
  }, 20_000);
});
