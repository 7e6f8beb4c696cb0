/**
 * Shifts and the cash drawer through the core's contract (real cores, SQLite files, the sandbox over HTTP):
 * open with a float, sell, cash out with a manager's approval, close with a short count; the audit log
 * names actor and approver; bad input is refused at its field with nothing recorded; once a till works in
 * shifts, a sale outside one is refused. And a property test: the expected drawer is exact in para over
 * 1,000 random shifts (sales with change, cards, splits, refunds' absence aside, cash in and out).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ShiftView } from '../../shared/contract/shifts.ts';
import { ShiftService } from '../../electron/shifts/service.ts';
import { TaxRatesCache } from '../../electron/sales/tax-rates.ts';
import {
  BREAD_AND_MILK,
  MANAGER_PIN,
  closeCores,
  fails,
  ok,
  orderCount,
  settled,
  startCore,
} from '../support/session.ts';
import { rigsAfterEach } from '../support/rigs.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { startCaptureServer, until } from '../printer/helpers.ts';

const PROFILE = findPreset('epson-tm-t88v')!;

const approval = { managerPin: MANAGER_PIN };
const newRig = rigsAfterEach();
afterEach(closeCores);

interface AuditRow {
  actor: string | null;
  approver: string | null;
  action: string;
  detail: string;
}

describe('shifts', () => {
  it('open 5,000.00, a cash sale, cash out 1,000.00, close 20.00 short: recorded, audited with actor and approver', async () => {
    const core = await startCore();
    const opened = await ok<ShiftView>(core, 'shifts.open', { openingFloat: 5000 });
    expect(opened).toMatchObject({ cashier: 'Менаџер', openingFloatPara: 500_000, expectedPara: 500_000 });
    // 3 × 80 + 2 × 150 = 540, paid 540 in cash.
    await ok(core, 'sales.checkout', BREAD_AND_MILK);
    // 100 card, 0 cash.
    await ok(core, 'sales.checkout', { ...BREAD_AND_MILK, payments: [{ type: 'card', amount: 540 }] });
    // 540 due, 1000 cash given: 460 change, the drawer keeps 540.
    await ok(core, 'sales.checkout', { ...BREAD_AND_MILK, payments: [{ type: 'cash', amount: 1000 }] });
    const x = await ok<ShiftView>(core, 'shifts.current');
    expect(x).toMatchObject({ cashSalesPara: 108_000, expectedPara: 608_000, sales: { count: 3 } });

    const out = await ok<ShiftView>(core, 'shifts.cash', { kind: 'out', amount: 1000, reason: 'Банка', approval });
    expect(out).toMatchObject({ cashOutPara: 100_000, expectedPara: 508_000 });
    const closed = await ok<ShiftView>(core, 'shifts.close', { counted: 5060, approval });
    expect(closed).toMatchObject({ expectedPara: 508_000, countedPara: 506_000, differencePara: -2_000 });
    expect(closed.closedAt).not.toBeNull();
    expect(await ok(core, 'shifts.current')).toBeNull();

    const audit = core.db
      .prepare<[], AuditRow>(
        "SELECT actor, approver, action, detail FROM audit_log WHERE action LIKE 'shift.%' ORDER BY id",
      )
      .all();
    expect(audit.map((a) => [a.action, a.actor, a.approver])).toEqual([
      ['shift.open', 'Менаџер', null],
      ['shift.cashOut', 'Менаџер', 'Менаџер'],
      ['shift.close', 'Менаџер', 'Менаџер'],
    ]);
    expect(JSON.parse(audit[2]!.detail)).toMatchObject({
      expectedPara: 508_000,
      countedPara: 506_000,
      differencePara: -2_000,
    });
    // The manager sees the day's shifts, with the close as it was recorded.
    const day = await ok<{ shifts: ShiftView[] }>(core, 'shifts.list', { managerPin: MANAGER_PIN });
    expect(day.shifts.map((s) => [s.id, s.differencePara])).toEqual([[closed.id, -2_000]]);
  });

  it('the close prints the shift report, marked non-fiscal: the difference on paper, decoded', async () => {
    const printer = await startCaptureServer();
    const core = await startCore({ env: { KASA_PRINTER_ALLOW_LOOPBACK: '1' } });
    try {
      await ok(core, 'printer.configure', { uri: `tcp://127.0.0.1:${printer.port}`, profileId: PROFILE.id, approval });
      await ok(core, 'shifts.open', { openingFloat: 5000 });
      await ok(core, 'shifts.cash', { kind: 'out', amount: 1000, reason: 'Банка', approval });
      await ok(core, 'shifts.close', { counted: 3980, approval });
      await until(() => printer.jobs.length === 1);
      const text = decodeEscPos(printer.jobs[0]!, { codePages: codePageNumbers(PROFILE) }).lines.join('\n');
      expect(text).toContain('ИЗВЕШТАЈ О СМЕНИ');
      expect(text).toContain('НИЈЕ ФИСКАЛНИ ДОКУМЕНТ');
      expect(text).toMatch(/Очекивано у каси\s+4\.000,00/);
      expect(text).toMatch(/Избројано\s+3\.980,00/);
      expect(text).toMatch(/Разлика\s+-20,00/);
      expect(text).toMatch(/Подизање\s+-1\.000,00/);
      // Each payment type's total, as the close screen shows it: cash and card always.
      expect(text).toMatch(/Готовина\s+0,00/);
      expect(text).toMatch(/Платна картица\s+0,00/);
    } finally {
      await printer.close();
    }
  });

  it('once the till works in shifts, a sale outside one is refused; the next cashier opens their own', async () => {
    const core = await startCore();
    await ok(core, 'sales.checkout', BREAD_AND_MILK); // a till that never used shifts sells as before
    await ok(core, 'shifts.open', { openingFloat: 1000 });
    await ok(core, 'shifts.close', { counted: 1005.4, approval });
    const refused = await fails(core, 'sales.checkout', BREAD_AND_MILK);
    expect(refused).toMatchObject({ code: 'conflict' });
    expect(refused.message).toContain('отворене смене');
    const next = await ok<ShiftView>(core, 'shifts.open', { openingFloat: 1005.4 });
    expect(next.openingFloatPara).toBe(100_540);
    await ok(core, 'sales.checkout', BREAD_AND_MILK);
  });

  it('once the till works in shifts, a refund, a further advance and a final sale outside one are refused too', async () => {
    // Before: only sales.checkout asked for the shift, so these moved the drawer's cash with no shift to count it.
    const core = await startCore();
    await ok(core, 'shifts.open', { openingFloat: 1000 });
    const sale = await ok<{ orderId: number }>(core, 'sales.checkout', BREAD_AND_MILK);
    await settled(core, sale.orderId);
    const advance = await ok<{ orderId: number }>(core, 'sales.checkout', {
      lines: [{ name: 'Аванс за кухињу', quantity: 1, unitPrice: 1000, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 1000 }],
      invoiceType: 'advance',
    });
    await settled(core, advance.orderId);
    await ok(core, 'shifts.close', { counted: 2540, approval });
    const orders = () => orderCount(core);
    const before = orders();
    const refund = {
      managerPin: MANAGER_PIN,
      orderId: sale.orderId,
      full: true,
      paymentType: 'cash',
      buyerId: '20:008123456',
    };
    const further = {
      orderId: advance.orderId,
      lines: [{ name: 'Аванс за кухињу', quantity: 1, unitPrice: 500, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 500 }],
    };
    for (const [name, input] of [
      ['refunds.create', refund],
      ['advances.add', further],
      ['advances.finalize', { orderId: advance.orderId }],
    ] as const) {
      const refused = await fails(core, name, input);
      expect(refused, name).toMatchObject({ code: 'conflict' });
      expect(refused.message, name).toContain('отворене смене');
    }
    expect(orders()).toBe(before);
    // With a shift open, each is made, and its cash is in that shift's drawer.
    await ok(core, 'shifts.open', { openingFloat: 2540 });
    await ok(core, 'refunds.create', refund);
    await ok(core, 'advances.add', further);
    expect(await ok<ShiftView>(core, 'shifts.current')).toMatchObject({ expectedPara: 254_000 - 54_000 + 50_000 });
  });

  it('a count by denomination can end in para: the para beside the notes and coins (was: refused)', async () => {
    const core = await startCore();
    await ok(core, 'shifts.open', { openingFloat: 100 });
    // 119,99 in cash: the drawer should hold 219,99, which no note or coin makes.
    await ok(core, 'sales.checkout', {
      lines: [{ name: 'Јаја', quantity: 1, unitPrice: 119.99, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 119.99 }],
    });
    const wrong = await fails(core, 'shifts.close', {
      counted: 219.99,
      denominations: { '20000': 1, '1000': 1, '500': 1, '100': 4, '1': 98 },
      approval,
    });
    expect(wrong).toMatchObject({ code: 'invalid_input', field: 'denominations' });
    const closed = await ok<ShiftView>(core, 'shifts.close', {
      counted: 219.99,
      denominations: { '20000': 1, '1000': 1, '500': 1, '100': 4, '1': 99 },
      approval,
    });
    expect(closed).toMatchObject({ expectedPara: 21_999, countedPara: 21_999, differencePara: 0 });
    expect(closed.countedDetail).toEqual({ '20000': 1, '1000': 1, '500': 1, '100': 4, '1': 99 });
  });

  it('bad input is refused at its field in Serbian and records nothing', async () => {
    const core = await startCore();
    const countShifts = () => core.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM shifts').get()?.n;
    const countMoves = () => core.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM shift_moves').get()?.n;
    expect(await fails(core, 'shifts.open', { openingFloat: -1 })).toMatchObject({
      code: 'invalid_input',
      field: 'openingFloat',
    });
    expect(countShifts()).toBe(0);
    await ok(core, 'shifts.open', { openingFloat: 100 });
    expect(await fails(core, 'shifts.open', { openingFloat: 100 })).toMatchObject({ code: 'conflict' });
    const beyond = await fails(core, 'shifts.cash', { kind: 'out', amount: 100.01, reason: 'x', approval });
    expect(beyond).toMatchObject({ code: 'invalid_input', field: 'amount' });
    expect(beyond.message).toContain('100,00');
    expect(countMoves()).toBe(0);
    const decimals = await fails(core, 'shifts.close', { counted: 99.995, approval });
    expect(decimals).toMatchObject({ code: 'invalid_input', field: 'counted' });
    expect(decimals.message).toMatch(/две децимале/);
    const mismatch = await fails(core, 'shifts.close', { counted: 100, denominations: { '5000': 1 }, approval });
    expect(mismatch).toMatchObject({ code: 'invalid_input', field: 'denominations' });
    expect(await ok(core, 'shifts.current')).toMatchObject({ closedAt: null });
    await ok(core, 'shifts.close', { counted: 100, denominations: { '5000': 1, '2000': 2, '1000': 1 }, approval });
    expect(await fails(core, 'shifts.close', { counted: 100, approval })).toMatchObject({ code: 'conflict' });
    expect(countShifts()).toBe(1);
    // Without a manager's PIN nothing moves.
    await ok(core, 'shifts.open', { openingFloat: 100 });
    expect(await fails(core, 'shifts.cash', { kind: 'in', amount: 5, reason: 'кусур' })).toMatchObject({
      code: 'forbidden',
    });
    expect(countMoves()).toBe(0);
  });

  it('the expected drawer is exact in para over 1,000 random shifts', async () => {
    const r = await newRig();
    const taxRates = new TaxRatesCache(r.db);
    const audit = () => {};
    const shifts = new ShiftService({ db: r.db, taxRates, now: () => r.clock.now, audit });
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 1000; i++) {
      const floatPara = rand(1_000_000);
      shifts.open('Ана', floatPara / 100);
      let expected = floatPara;
      for (let k = rand(4); k > 0; k--) {
        r.advance(1000);
        const unitPara = 1 + rand(500_000);
        const qty = 1 + rand(3);
        const due = unitPara * qty;
        const how = rand(3);
        const payments =
          how === 0
            ? [{ type: 'cash' as const, amount: (due + rand(100_000)) / 100 }] // change given back
            : how === 1
              ? [{ type: 'card' as const, amount: due / 100 }]
              : [
                  { type: 'cash' as const, amount: Math.floor(due / 2) / 100 },
                  { type: 'card' as const, amount: (due - Math.floor(due / 2)) / 100 },
                ];
        await r.sales.checkout({
          lines: [{ name: 'Х', quantity: qty, unitPrice: unitPara / 100, labels: ['A'] }],
          payments,
        });
        expected += how === 0 ? due : how === 2 ? Math.floor(due / 2) : 0;
      }
      r.advance(1000);
      if (rand(2) === 0) {
        const inPara = 1 + rand(50_000);
        shifts.cash('in', inPara / 100, 'кусур', 'Ана', 'Менаџер');
        expected += inPara;
      }
      r.advance(1000);
      const outPara = rand(expected + 1);
      if (outPara > 0) {
        shifts.cash('out', outPara / 100, 'банка', 'Ана', 'Менаџер');
        expected -= outPara;
      }
      r.advance(1000);
      expect(shifts.current()?.expectedPara).toBe(expected);
      const closed = shifts.close(expected / 100, undefined, 'Ана', 'Менаџер');
      expect([closed.expectedPara, closed.differencePara]).toEqual([expected, 0]);
      r.advance(1000);
    }
  });
});
