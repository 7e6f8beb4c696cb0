/**
 * Without the internet (and no processor that signs offline), a cash customer leaves with a slip, not a
 * fiscal receipt. The till bounds how long that may go on: once the oldest sale waiting for the gateway is
 * older than `unfiscalizedCashLimitHours` (default 24), a new cash sale needs a manager's approval, with
 * the reason shown; a card sale, or any sale once the gateway is back, does not. Real core, real SQLite,
 * the sandbox over HTTP with its offline switch; the till's clock is the test's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import type { SyncStatus } from '../../shared/domain.ts';
import { closeCores, control, fails, MANAGER_PIN, ok, startCore } from '../support/session.ts';

afterEach(closeCores);

const HOUR = 3_600_000;
const sale = (type: 'cash' | 'card') => ({
  lines: [{ name: 'Хлеб', quantity: 1, unitPrice: 65, labels: ['A'] }],
  payments: [{ type, amount: 65 }],
});

async function until(core: Core, test: (s: SyncStatus) => boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (test(await ok<SyncStatus>(core, 'sync.status'))) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('sync status never matched');
}

describe('how long receipts may go unfiscalized', () => {
  it('past the bound a cash sale needs a manager (with the reason); card, a new bound or the gateway back do not', async () => {
    let clock = Date.now();
    const core = await startCore({ now: () => clock });
    await control(core, 'offline', { offline: true });
    expect((await ok<{ state: string }>(core, 'sales.checkout', sale('cash'))).state).toBe('queued');
    await until(core, (s) => !s.online);

    clock += 23 * HOUR;
    await ok(core, 'sales.checkout', sale('cash')); // within a day: as before

    clock += 2 * HOUR;
    const refused = await fails(core, 'sales.checkout', sale('cash'));
    expect(refused).toMatchObject({ code: 'forbidden', field: 'approval.managerPin' });
    expect(refused.message).toBe(
      'Потребно је одобрење менаџера: без интернета рачуни се не фискализују већ дуже од 24 h, а купац за ' +
        'готовину одлази без фискалног рачуна. Унесите PIN менаџера.',
    );
    await ok(core, 'sales.checkout', sale('card'));
    await ok(core, 'sales.checkout', { ...sale('cash'), approval: { managerPin: MANAGER_PIN } });
    const audit = core.db
      .prepare<[], { approver: string | null; detail: string }>(
        "SELECT approver, detail FROM audit_log WHERE action = 'approved.sales.checkout'",
      )
      .all();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.approver).toBe('Менаџер');
    expect(JSON.parse(audit[0]?.detail ?? '{}')).toMatchObject({ needs: 'unfiscalized' });

    // The manager may set another bound (audited like every setting).
    const view = await ok<{ unfiscalizedCashLimitHours: number }>(core, 'settings.update', {
      managerPin: MANAGER_PIN,
      unfiscalizedCashLimitHours: 48,
    });
    expect(view.unfiscalizedCashLimitHours).toBe(48);
    await ok(core, 'sales.checkout', sale('cash'));
    const bad = await fails(core, 'settings.update', { managerPin: MANAGER_PIN, unfiscalizedCashLimitHours: 0 });
    expect(bad).toMatchObject({ code: 'invalid_input', field: 'unfiscalizedCashLimitHours' });

    // The gateway back: the backlog is fiscalized and cash sales go on without asking.
    await ok(core, 'settings.update', { managerPin: MANAGER_PIN, unfiscalizedCashLimitHours: 24 });
    await control(core, 'offline', { offline: false });
    await ok(core, 'sync.now');
    await until(core, (s) => s.online && s.queued === 0);
    clock += 30 * HOUR;
    await ok(core, 'sales.checkout', sale('cash'));
  });
});
