/** The printer's contract handlers: one async function per command in shared/contract/printer.ts. */
import type { CommandParsedInput, CommandResult } from '../../shared/contract/index.ts';
import type { printerCommands } from '../../shared/contract/printer.ts';
import type { PrintService } from './service.ts';

type PrinterCommandName = keyof typeof printerCommands;

/** Handlers keyed by command name; inputs arrive already parsed with the contract's schemas. */
export type PrinterHandlers = {
  [N in PrinterCommandName]: (input: CommandParsedInput<N>) => Promise<CommandResult<N>>;
};

/** The printer's handlers over `service`. Errors carry `code` (not_found, invalid_input, conflict). */
export function printerHandlers(service: PrintService): PrinterHandlers {
  return {
    'print.receipt': async ({ orderId }) => ({ jobId: service.enqueueReceipt(orderId) }),
    'print.test': async () => ({ jobId: service.printTest() }),
    'print.reprintLast': async () => ({ jobId: service.reprintLast() }),
    'print.status': async () => service.status(),
    'printer.profiles': async () => service.profiles(),
    'printer.configure': async (input) => service.configure(input),
  };
}
