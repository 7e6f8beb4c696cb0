/**
 * One capture pipeline (electron/outbox/capture.ts, docs/outbox.md "Capture"): a sale, a refund and a fiscal copy
 * captured while the engine already knows the gateway is unreachable all answer `queued` at once. Before the
 * pipeline, the back office (manager/orders.ts) waited out the whole online budget during an outage, and so
 * answered `fiscalized` only once the gateway came back; the sale answered `queued`. Real core, a real SQLite file,
 * the sandbox gateway over HTTP. No clock is read: the budget is ten minutes, and the gateway comes back only after
 * each document is in the database, so a document that waited says `fiscalized` and one that answered says `queued`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderView, SyncStatus } from '../../shared/domain.ts';
import type { Core } from '../../electron/core.ts';
import {
  BREAD_AND_MILK,
  FAST_ENGINE,
  MANAGER_PIN,
  closeCores,
  control,
  ok,
  orderCount,
  startCore,
} from '../support/session.ts';

afterEach(closeCores);

type Answer = { orderId: number; state: string };

/**
 * Starts `name` while the gateway is away, brings the gateway back once the document is captured, and returns what
 * the command answered (then waits until the order is fiscalized, so the next document starts from a clean queue).
 */
async function duringOutage(core: Core, name: string, input: unknown): Promise<Answer> {
  await control(core, 'offline', { offline: true });
  await vi.waitFor(async () => expect((await ok<SyncStatus>(core, 'sync.status')).online).toBe(false), {
    timeout: 10_000,
  });
  const before = orderCount(core);
  const answer = ok<Answer>(core, name, input);
  await vi.waitFor(() => expect(orderCount(core)).toBeGreaterThan(before), { timeout: 10_000 });
  await control(core, 'offline', { offline: false });
  await ok(core, 'sync.now');
  const value = await answer;
  await vi.waitFor(
    async () => expect((await ok<OrderView>(core, 'orders.get', { orderId: value.orderId })).state).toBe('fiscalized'),
    { timeout: 10_000 },
  );
  return value;
}

describe('one capture pipeline', () => {
  it('a sale, a refund and a copy captured while known offline all answer queued at once', async () => {
    // The idle probe tells the engine of an outage soon after it begins (docs/outbox.md, "Knowing the gateway is
    // there").
    const core = await startCore({
      env: { KASA_ONLINE_BUDGET_MS: '600000' },
      engine: { ...FAST_ENGINE, idleProbeMs: 50 },
    });
    // Online first: under a loaded CI run a 50 ms probe can miss its answer once and report an outage that is not one.
    await vi.waitFor(async () => expect((await ok<SyncStatus>(core, 'sync.status')).online).toBe(true), {
      timeout: 10_000,
    });
    const sold = await ok<Answer>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(sold.state).toBe('fiscalized');

    const sale = await duringOutage(core, 'sales.checkout', BREAD_AND_MILK);
    const copy = await duringOutage(core, 'copies.create', {
      orderId: sold.orderId,
      approval: { managerPin: MANAGER_PIN },
    });
    const refund = await duringOutage(core, 'refunds.create', {
      managerPin: MANAGER_PIN,
      orderId: sold.orderId,
      full: true,
      paymentType: 'cash',
      buyerId: '20:008123456',
    });
    // Main answered the sale `queued` and the copy and the refund `fiscalized` (they waited out the outage).
    expect({ sale: sale.state, copy: copy.state, refund: refund.state }).toEqual({
      sale: 'queued',
      copy: 'queued',
      refund: 'queued',
    });
  }, 60_000);
});
