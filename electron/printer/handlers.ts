/** The printer area's handlers: one async function per command in shared/contract/printer.ts. */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import type { PrintService } from './service.ts';
import { CommandError } from '../errors.ts';
import { systemSpooler } from './spooler.ts';
import type { InstalledPrinter } from '../../shared/contract/printer.ts';
import { approverOf } from '../auth/context.ts';

export interface PrinterHandlerDeps {
  /** The audit log (StaffService.audit): the cashier's answers and a manager's decisions on held jobs. */
  audit: (actor: string | null, action: string, detail: Record<string, unknown>, approver?: string | null) => void;
  /** The printers installed in the system's spooler (default: the system's spooler; tests pass their own). */
  installed?: () => Promise<InstalledPrinter[]>;
}

/** The printer's handlers over `service`. Errors carry `code` (not_found, invalid_input, conflict). */
export function printerHandlers(service: PrintService, deps: PrinterHandlerDeps): AreaHandlers<'printer'> {
  return areaHandlers('printer', {
    'print.receipt': async ({ orderId }) => ({ jobId: service.enqueueReceipt(orderId) }),
    'print.test': async () => ({ jobId: service.printTest() }),
    'print.reprintLast': async () => ({ jobId: service.reprintLast() }),
    'print.status': async () => service.status(),
    'print.check': async () => service.check(),
    'print.confirm': async ({ jobId, cameOut }, caller) => {
      const result = service.confirm(jobId, cameOut);
      deps.audit(caller?.actor?.name ?? null, cameOut ? 'print.confirmed' : 'print.notCameOut', {
        jobId,
        orderId: result.orderId,
      });
      return { jobId: result.jobId };
    },
    'print.lateReceipts': async () => ({ receipts: service.late.list() }),
    'print.lateReceipt': async ({ orderId }, caller) => {
      const orderNumber = service.late.list().find((r) => r.orderId === orderId)?.orderNumber ?? null;
      const jobId = service.enqueueLate(orderId);
      deps.audit(caller?.actor?.name ?? null, 'print.latePrinted', { orderId, orderNumber, jobId });
      return { jobId };
    },
    'print.held': async () => ({ jobs: service.held.list() }),
    'print.resolveHeld': async ({ jobIds, action }, caller) => {
      const manager = approverOf(caller).name;
      const result = service.held.resolve(jobIds, action);
      const done = action === 'print' ? result.printed : result.dropped;
      // Another manager (or the cashier asking for the receipt) got there first: nothing was changed.
      if (done.length === 0) throw new CommandError('conflict', 'held_gone');
      deps.audit(manager, action === 'print' ? 'print.heldPrinted' : 'print.heldDropped', {
        jobIds: done,
        ...(done.length < jobIds.length ? { skipped: jobIds.filter((id) => !done.includes(id)) } : {}),
      });
      return result;
    },
    // An empty list, never an error, where the system has no spooler: the address can still be typed.
    'printer.installed': async () => ({ printers: await (deps.installed ?? (() => systemSpooler().list()))() }),
    'printer.profiles': async () => service.profiles(),
    'printer.configure': async (input) => service.configure(input),
  });
}
