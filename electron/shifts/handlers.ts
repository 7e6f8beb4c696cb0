/** The shifts area's handlers (shared/contract/shifts.ts): the drawer's shift, cash in and out, the close. */
import { approverOf } from '../auth/context.ts';
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { CommandError } from '../errors.ts';
import type { PrintService } from '../printer/service.ts';
import { shiftLines, type ShiftService } from './service.ts';

export interface ShiftsHandlerDeps {
  printer: PrintService;
  /** A time as printed on the slip (local, minutes). */
  shown(iso: string): string;
  warn(line: string): void;
}

export function shiftsHandlers(shifts: ShiftService, deps: ShiftsHandlerDeps): AreaHandlers<'shifts'> {
  const personOf = (caller: Parameters<typeof approverOf>[0]): string => {
    const name = caller?.actor?.name ?? caller?.approver?.name;
    if (!name) throw new CommandError('forbidden', 'approval_required', { field: 'managerPin' }, 'managerPin');
    return name;
  };
  return areaHandlers('shifts', {
    'shifts.current': async () => shifts.current(),
    'shifts.open': async ({ openingFloat }, caller) => shifts.open(personOf(caller), openingFloat),
    'shifts.cash': async ({ kind, amount, reason }, caller) =>
      shifts.cash(kind, amount, reason, caller?.actor?.name ?? null, approverOf(caller).name),
    'shifts.close': async ({ counted, denominations }, caller) => {
      const closed = shifts.close(counted, denominations, caller?.actor?.name ?? null, approverOf(caller).name);
      // The report goes on paper when a printer is set; the close is recorded either way (reprint: shifts.print).
      try {
        deps.printer.enqueueSlip(shiftLines(closed, deps.shown));
      } catch (e) {
        deps.warn(`shift ${closed.id} report not printed: ${e instanceof Error ? e.message : String(e)}`);
      }
      return closed;
    },
    'shifts.list': async ({ day }) => ({ shifts: shifts.list(day) }),
    'shifts.print': async ({ shiftId }) => ({
      jobId: deps.printer.enqueueSlip(shiftLines(shifts.get(shiftId), deps.shown)),
    }),
  });
}
