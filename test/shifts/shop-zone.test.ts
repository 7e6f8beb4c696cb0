/**
 * The shift screens' data and the printed shift report in the shop's time zone (Europe/Belgrade) while the
 * process runs in another one (New York here, as a till whose Windows clock was set to the wrong zone): the day a
 * shift belongs to and the times on paper are Belgrade's. Before, `shifts.list` took the machine's midnight and
 * the slip the machine's clock (issue 38 §1).
 */
process.env.TZ = 'America/New_York';

import { afterEach, describe, expect, it } from 'vitest';
import type { ShiftView } from '../../shared/contract/shifts.ts';
import { MANAGER_PIN, closeCores, ok, startCore } from '../support/session.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { startCaptureServer, until } from '../printer/helpers.ts';
import { nextOrderNumber } from '../../electron/orders/order-number.ts';

const PROFILE = findPreset('epson-tm-t88v')!;
const approval = { managerPin: MANAGER_PIN };

afterEach(closeCores);

describe('shifts in the shop zone, the machine in New York', () => {
  it('a shift opened at 00:30 in Belgrade (18:30 the day before in New York) is on the Belgrade day, on screen and paper', async () => {
    expect(new Date('2026-11-26T23:30:00Z').getDate()).toBe(26); // the machine's zone is really not Belgrade's
    let t = Date.parse('2026-11-26T23:30:00Z');
    const printer = await startCaptureServer();
    const core = await startCore({ now: () => t, env: { KASA_PRINTER_ALLOW_LOOPBACK: '1' } });
    try {
      await ok(core, 'printer.configure', { uri: `tcp://127.0.0.1:${printer.port}`, profileId: PROFILE.id, approval });
      const opened = await ok<ShiftView>(core, 'shifts.open', { openingFloat: 100 });
      t = Date.parse('2026-11-27T07:15:00Z'); // 08:15 in Belgrade
      await ok(core, 'shifts.close', { counted: 100, approval });
      await until(() => printer.jobs.length === 1);
      const text = decodeEscPos(printer.jobs[0]!, { codePages: codePageNumbers(PROFILE) }).lines.join('\n');
      expect(text).toContain('Отворена: 27.11.2026. 00:30');
      expect(text).toContain('Затворена: 27.11.2026. 08:15');

      const list = async (day?: string) =>
        (await ok<{ shifts: ShiftView[] }>(core, 'shifts.list', { managerPin: MANAGER_PIN, ...(day ? { day } : {}) }))
          .shifts;
      expect((await list('2026-11-27')).map((s) => s.id)).toEqual([opened.id]);
      expect(await list('2026-11-26')).toEqual([]);
      expect((await list()).map((s) => s.id)).toEqual([opened.id]); // today is Belgrade's 27th
    } finally {
      await printer.close();
    }
  });

  it("the order number carries the shop's day", () => {
    const db = { prepare: () => ({ get: () => ({ last: 1 }) }) } as unknown as Parameters<typeof nextOrderNumber>[0];
    expect(nextOrderNumber(db, 'T1', Date.parse('2026-11-26T23:30:00Z'))).toMatch(/^T1-20261127-/);
  });
});
