/**
 * Shifts and the cash drawer (смена, пазар), owned by electron/shifts: a shift opens with a float, takes
 * cash in and out, shows an X report at any time and closes with the drawer counted. Not fiscal: the
 * fiscal record is the receipts (docs/shifts.md).
 */
import { z } from 'zod';
import { command } from './define.ts';
import * as s from './schemas.ts';
import type { Para } from '../money.ts';

export interface ShiftMoveView {
  id: number;
  kind: 'in' | 'out';
  amountPara: Para;
  reason: string;
  at: string;
  actor: string | null;
  approver: string | null;
}

/** A shift, with the drawer as it stands (open) or as it was counted (closed). */
export interface ShiftView {
  id: number;
  cashier: string;
  openedAt: string;
  closedAt: string | null;
  closedBy: string | null;
  openingFloatPara: Para;
  /** Cash taken by sales and advances, net of change, minus cash paid back by refunds, in the shift. */
  cashSalesPara: Para;
  cashInPara: Para;
  cashOutPara: Para;
  /** Float + cash sales + cash in − cash out: what the drawer should hold (at the close, as it was then). */
  expectedPara: Para;
  /** Closed: what was counted, and counted − expected (negative: short). */
  countedPara: Para | null;
  differencePara: Para | null;
  /** Closed and counted by denomination: count per denomination (para). */
  countedDetail: Record<string, number> | null;
  moves: ShiftMoveView[];
  /** Sales, refunds and their totals in the shift (the X/close report). */
  sales: { count: number; totalPara: Para };
  refunds: { count: number; totalPara: Para };
  byPayment: { type: string; netPara: Para }[];
}

/** Serbian dinar notes and coins a drawer is counted in, in para. */
export const DENOMINATIONS_PARA = [
  500_000, 200_000, 100_000, 50_000, 20_000, 10_000, 5_000, 2_000, 1_000, 500, 200, 100,
] as const;

/**
 * The para a drawer's cash can end in (prices and change are to the para; no note or coin makes them): counted
 * beside the notes and coins as a number of para, under the key `1` (1 para each), 0 to 99.
 */
export const PARA_REST = 1;

/**
 * A shift's net per payment type as the close screen and the printed report show it: cash and card always (as a
 * shop reads its day), then every other type the shift took.
 */
export function paymentTotals(v: Pick<ShiftView, 'byPayment'>): { type: string; netPara: Para }[] {
  const of = (type: string) => v.byPayment.find((p) => p.type === type)?.netPara ?? 0;
  return [
    { type: 'cash', netPara: of('cash') },
    { type: 'card', netPara: of('card') },
    ...v.byPayment.filter((p) => p.type !== 'cash' && p.type !== 'card'),
  ];
}

export const shiftsCommands = {
  'shifts.current': command<ShiftView | null>('session')(s.empty, 'The open shift with its drawer now (the X report).'),
  'shifts.open': command<ShiftView>('session')(
    z.strictObject({ openingFloat: s.nonNegativeAmount }),
    'Opens a shift for the person logged in with the counted float. conflict when a shift is open (close it ' +
      'first: the next cashier opens their own with the counted cash).',
  ),
  'shifts.cash': command<ShiftView>('approval')(
    z.strictObject({
      kind: z.enum(['in', 'out'], { error: 'kind' }),
      amount: s.positiveAmount,
      reason: s.text(200),
    }),
    'Cash put in (полог) or taken out (подизање) of the drawer, with a reason, approved by a manager and ' +
      'audited. A cash out beyond what the drawer should hold is refused at `amount`.',
  ),
  'shifts.close': command<ShiftView>('approval')(
    z.strictObject({
      counted: s.nonNegativeAmount,
      /** Optional: count per denomination (para as the key; `1`: the para rest); must add up to `counted`. */
      denominations: z
        .partialRecord(
          z.enum([String(PARA_REST), ...DENOMINATIONS_PARA.map(String)] as [string, ...string[]], {
            error: 'denomination',
          }),
          z.number({ error: 'number' }).int({ error: 'integer' }).min(0, { error: 'non_negative' }),
        )
        .optional(),
    }),
    'Closes the open shift with the drawer counted: expected, counted and the difference are recorded, ' +
      'audited, and the shift report is printed (non-fiscal) when a printer is set. conflict when no shift ' +
      'is open.',
  ),
  'shifts.list': command<{ shifts: ShiftView[] }>('manager')(
    z.strictObject({ managerPin: s.managerPin, day: s.isoDate.optional() }),
    "The day's shifts (default today), open and closed, for a manager.",
  ),
  'shifts.print': command<{ jobId: number }>('session')(
    z.strictObject({ shiftId: s.id }),
    'Prints a shift report (the X report of the open shift, or a closed shift again), non-fiscal.',
  ),
} as const;
