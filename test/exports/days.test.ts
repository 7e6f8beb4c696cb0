/**
 * The exports' kept day sums (electron/exports/days.ts, `export_days`) on one core with its real SQLite file and the
 * sandbox gateway over HTTP, its clock moved across Belgrade midnights:
 * - a closed day is kept by the first export that reads it and read back by the next, which equals the first and
 *   the report of the same instants to the para;
 * - today is never kept;
 * - a sale made at 00:30 in Belgrade (the evening before in UTC) drops the kept day it belongs to, so the next export
 *   counts it (the trigger on the next UTC date: without it the kept day was stale and this test failed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportView } from '../../shared/contract/exports.ts';
import type { ReportView } from '../../shared/contract/reports.ts';
import type { OrderView } from '../../shared/domain.ts';
import { dayStart } from '../../shared/i18n/time.ts';
import { exportRange } from '../../electron/exports/service.ts';
import { BREAD_AND_MILK, closeCores, MANAGER_PIN, ok, signIn, startCore } from '../support/session.ts';

const managerPin = MANAGER_PIN;
type Core = Awaited<ReturnType<typeof startCore>>;
let c: Core;
let clock = 0;
const at = (day: string, hour: number, minute = 0): number => dayStart(day) + (hour * 60 + minute) * 60_000;
const kept = (): string[] =>
  c.db
    .prepare<[], { day: string }>('SELECT day FROM export_days ORDER BY day')
    .all()
    .map((r) => r.day);
const build = (day: string): Promise<ExportView> =>
  ok<ExportView>(c, 'exports.build', { managerPin, from: day, to: day });

beforeAll(async () => {
  clock = at('2026-11-10', 10);
  c = await startCore({ now: () => clock, signedIn: false });
  await signIn(c);
}, 60_000);
afterAll(closeCores);

async function sell(): Promise<OrderView> {
  const o = await ok<OrderView>(c, 'sales.checkout', BREAD_AND_MILK);
  expect(o.state).toBe('fiscalized');
  return o;
}

describe('the kept day sums of the exports', () => {
  it('keeps a closed day once and reads it back equal to the report', async () => {
    await sell();
    await sell();
    const today = await build('2026-11-10');
    expect(today.total.sales.count).toBe(2);
    expect(kept()).toEqual([]); // today is not kept
    clock = at('2026-11-11', 9);
    const first = await build('2026-11-10');
    expect(kept()).toEqual(['2026-11-10']);
    const second = await build('2026-11-10');
    expect(second).toEqual(first);
    expect(second.total.grossPara).toBe(2 * 54_000);
    const report = await ok<ReportView>(c, 'reports.summary', exportRange('2026-11-10', '2026-11-10'));
    expect(second.total.grossPara).toBe(report.grossPara);
    expect(second.total.taxPara).toBe(report.taxPara);
    expect(second.days.map((d) => d.grossPara)).toEqual([report.grossPara]);
  });

  it("drops a kept day when a sale lands in it after Belgrade's midnight", async () => {
    clock = at('2026-11-13', 9);
    const before = await build('2026-11-12');
    expect(before.total.sales.count).toBe(0);
    expect(kept()).toContain('2026-11-12');
    // 00:30 on the 12th in Belgrade is 23:30 on the 11th in UTC.
    clock = at('2026-11-12', 0, 30);
    expect(new Date(clock).toISOString().slice(0, 10)).toBe('2026-11-11');
    await signIn(c);
    await sell();
    expect(kept()).not.toContain('2026-11-12');
    clock = at('2026-11-13', 9);
    const after = await build('2026-11-12');
    expect(after.total.sales.count).toBe(1);
    expect(after.total.grossPara).toBe(54_000);
  });
});
