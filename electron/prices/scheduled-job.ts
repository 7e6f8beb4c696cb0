/**
 * The scheduled price changes' job (docs/prices.md): a change due while the till was off is applied at `start`,
 * before any sale; then the job sleeps until the next pending change (at most an hour: a clock set forward), backing
 * off after a failed pass (`POLICIES.scheduledPrices`). `kick` wakes it when a new change may be sooner.
 */
import { createSyncLoop, type LoopTimers } from '../retry/loop.ts';
import { POLICIES } from '../retry/policy.ts';
import type { PricesService } from './service.ts';

/** The longest the job sleeps: a clock set forward is noticed within the hour. */
export const SCHEDULED_PRICES_MAX_SLEEP_MS = 3_600_000;

export interface ScheduledPricesJob {
  /** Applies what is due now, then runs the job. */
  start(): void;
  /** A pass at once (a new change was scheduled). */
  kick(): void;
  stop(): Promise<void>;
}

export function scheduledPricesJob(
  prices: Pick<PricesService, 'applyDue' | 'nextDueInMs'>,
  o: {
    /** Some changes were applied: the counter reads its prices again. */
    onApplied(): void;
    warn(message: string): void;
    timers?: LoopTimers;
  },
): ScheduledPricesJob {
  const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));
  const loop = createSyncLoop(
    () => {
      try {
        if (prices.applyDue() > 0) o.onApplied();
      } catch (err) {
        o.warn(`scheduled prices not applied: ${reason(err)}`);
        return 'failed';
      }
      const next = prices.nextDueInMs();
      return { nextInMs: Math.min(next ?? SCHEDULED_PRICES_MAX_SLEEP_MS, SCHEDULED_PRICES_MAX_SLEEP_MS) };
    },
    { backoff: POLICIES.scheduledPrices, timers: o.timers },
  );
  return {
    start() {
      try {
        prices.applyDue();
      } catch (err) {
        o.warn(`scheduled prices not applied at start: ${reason(err)}`);
      }
      loop.start(SCHEDULED_PRICES_MAX_SLEEP_MS);
    },
    kick: () => loop.kick(),
    stop: () => loop.stop(),
  };
}
