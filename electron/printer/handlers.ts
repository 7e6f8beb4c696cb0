/** The printer area's handlers: one async function per command in shared/contract/printer.ts. */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import type { PrintService } from './service.ts';
import { CommandError } from '../errors.ts';
import { systemSpooler } from './spooler.ts';
import type { InstalledPrinter } from '../../shared/contract/printer.ts';

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
    // Base of the printer-truth work: these are built on their branches before anything lands.
    'print.held': async () => {
      throw new CommandError('unavailable', 'not_built');
    },
    'print.resolveHeld': async () => {
      throw new CommandError('unavailable', 'not_built');
    },
    // An empty list, never an error, where the system has no spooler: the address can still be typed.
    'printer.installed': async () => ({ printers: await (deps.installed ?? (() => systemSpooler().list()))() }),
    'printer.profiles': async () => service.profiles(),
    'printer.configure': async (input) => service.configure(input),
  });
}
