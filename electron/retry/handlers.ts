/** The contract handlers of shared/contract/retries.ts: what spent its retry budget, and a person's resume. */
import type { CommandParsedInput, CommandResult } from '../../shared/contract/index.ts';
import type { retriesCommands } from '../../shared/contract/retries.ts';
import type { RetryBudgets, RetryLoop } from './budget.ts';

type RetriesCommandName = keyof typeof retriesCommands;

export type RetriesHandlers = {
  [N in RetriesCommandName]: (input: CommandParsedInput<N>) => Promise<CommandResult<N>>;
};

/**
 * `resume[loop](item)` makes the loop try the item again now (after its budget was reset here), e.g. the
 * e-mail queue puts a failed e-mail back in the queue, the journal fetcher runs a pass.
 */
export function retriesHandlers(
  budgets: RetryBudgets,
  resume: Record<RetryLoop, (item: string) => void>,
): RetriesHandlers {
  return {
    'retries.list': async () => ({ items: budgets.attention() }),
    'retries.resume': async ({ loop, item }) => {
      const resumed = budgets.resume(loop, item);
      resume[loop](item);
      return { resumed };
    },
  };
}
