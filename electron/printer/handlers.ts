/** The printer area's handlers: one async function per command in shared/contract/printer.ts. */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import type { PrintService } from './service.ts';

/** The printer's handlers over `service`. Errors carry `code` (not_found, invalid_input, conflict). */
export function printerHandlers(service: PrintService): AreaHandlers<'printer'> {
  return areaHandlers('printer', {
    'print.receipt': async ({ orderId }) => ({ jobId: service.enqueueReceipt(orderId) }),
    'print.test': async () => ({ jobId: service.printTest() }),
    'print.reprintLast': async () => ({ jobId: service.reprintLast() }),
    'print.status': async () => service.status(),
    'printer.profiles': async () => service.profiles(),
    'printer.configure': async (input) => service.configure(input),
  });
}
