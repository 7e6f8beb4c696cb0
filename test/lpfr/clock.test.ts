/**
 * The till's clock is checked against the L-PFR's as well as the gateway's (issue 37 §5): the L-PFR's status is read
 * before each signing, and its time off by more than the limit gives a warning that names the local PFR. Whole
 * core on a real SQLite file, the L-PFR sandbox over HTTP with its clock ten minutes ahead.
 */
import { untilValue as until } from '../support/poll.ts';
import { describe, expect, it } from 'vitest';
import type { CheckoutResult } from '../../shared/contract/sales.ts';
import type { SyncStatus } from '../../shared/domain.ts';
import { BREAD_AND_MILK, ok } from '../support/session.ts';
import { lpfrCoreSuite, lpfrTill, offlineWithLpfrReady } from './helpers.ts';

const { kit } = lpfrCoreSuite();

describe("the L-PFR's clock", () => {
  it('ten minutes ahead of the till: the warning names the local PFR, not the fiscal service', async () => {
    const lpfr = await kit.sandbox({ dataDir: kit.dir(), now: () => Date.now() + 10 * 60_000 });
    const core = await lpfrTill(lpfr, 'kasa-lpfr-clock-');
    // Online, the gateway signs: its clock agrees with the till's, no warning.
    await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    const online = await ok<SyncStatus>(core, 'sync.status');
    expect(online.clockWarning ?? null).toBeNull();

    await offlineWithLpfrReady(core);
    const sale = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(sale.processor).toBe('lpfr');
    const s = await until(
      'the warning',
      () => ok<SyncStatus>(core, 'sync.status'),
      (v) => (v.clockWarning ?? null) !== null,
    );
    expect(Math.abs((s.lpfrClockDriftMs ?? 0) - 10 * 60_000)).toBeLessThan(5_000);
    expect(Math.abs(s.clockDriftMs ?? 0)).toBeLessThan(60_000);
    expect(s.clockWarning).toBe(
      'Сат касе се разликује од времена локалног ПФР-а за 10 мин. Подесите датум и време на рачунару (или на локалном ПФР-у).',
    );
  });
});
