/** The retries area's handlers (shared/contract/retries.ts): what spent its retry budget, and a person's resume. */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import type { RetryBudgets, RetryLoop } from './budget.ts';

/**
 * `resume[loop](item)` makes the loop try the item again now (after its budget was reset here), e.g. the
 * e-mail queue puts a failed e-mail back in the queue, the journal fetcher runs a pass.
 */
export function retriesHandlers(
  budgets: RetryBudgets,
  resume: Record<RetryLoop, (item: string) => void>,
): AreaHandlers<'retries'> {
  return areaHandlers('retries', {
    'retries.list': async () => ({ items: budgets.attention() }),
    'retries.resume': async ({ loop, item }) => {
      const resumed = budgets.resume(loop, item);
      resume[loop](item);
      return { resumed };
    },
  });
}
