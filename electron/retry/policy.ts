/**
 * Every backoff of the till in one place: the named policies and the one formula they share, so a reader
 * finds how long anything waits after a failure here, and a new background pass picks a policy instead of
 * writing a formula of its own.
 *
 * The wait after the n-th consecutive failure (n ≥ 1) grows from a ceiling
 *   ceiling(n) = min(capMs, baseMs × 2^min(n − 1, maxDoublings))
 * and is, by the policy's jitter:
 *   'full'  — uniform in [0, ceiling) ("full jitter": tills that failed together do not retry together);
 *   'equal' — ceiling/2 + uniform in [0, ceiling/2) (never much sooner than half the ceiling);
 *   'none'  — the ceiling itself (a schedule a person or a test can predict).
 * plus `floorMs` when given. A policy with a budget (retry/budget.ts) also ends the retries of one item
 * after `maxTries` failures or `maxAgeMs` since its first failure.
 */

import { PIN_LOCK_POLICY } from '../../shared/auth/attempts.ts';
import type { BackoffPolicy } from '../../shared/retry/backoff.ts';

// The formula is shared with the store hub (its SEF outbox): shared/retry/backoff.ts.
export { backoffCeilingMs, backoffMs, type BackoffPolicy } from '../../shared/retry/backoff.ts';

/** How long one item may keep failing before it needs a person (retry/budget.ts). */
export interface RetryBudget {
  /** Failed tries before the item needs a person. */
  readonly maxTries: number;
  /** Time since the first failure after which the item needs a person. */
  readonly maxAgeMs: number;
}

export type BudgetedPolicy = BackoffPolicy & RetryBudget;

const DAY = 24 * 3600_000;

/** The till's backoff policies, by what backs off. Their numbers are the ones the tests and benches measure. */
export const POLICIES = {
  /** A fiscal receipt whose send failed (outbox/engine.ts; the engine's options may override base and cap). */
  gatewaySend: { baseMs: 1000, capMs: 5 * 60_000, jitter: 'full', floorMs: 100, maxDoublings: 20 },
  /** The probe of a gateway that went unreachable (base: twice the engine's `probeMinMs`). */
  gatewayProbe: { baseMs: 2000, capMs: 30_000, jitter: 'equal' },
  /** A bulk request the gateway refused with 429 (another bulk of this key is running): soon, spread. */
  gatewayBusy: { baseMs: 1500, capMs: 1500, jitter: 'full', floorMs: 500 },
  /** A receipt's journal fetched from the archive (outbox/journal.ts). */
  journal: { baseMs: 10_000, capMs: 30 * 60_000, jitter: 'none', maxTries: 8, maxAgeMs: DAY },
  /** An e-mailed receipt (manager/email.ts): the queue's due time is the budget's next try. */
  email: { baseMs: 5_000, capMs: 15 * 60_000, jitter: 'none', maxDoublings: 10, maxTries: 5, maxAgeMs: DAY },
  /** A parked cart's gateway draft (catalog/drafts.ts): paced by its loop; the backoff only bounds the budget. */
  drafts: { baseMs: 30_000, capMs: 30 * 60_000, jitter: 'none', maxTries: 30, maxAgeMs: DAY },
  /** A print job the printer did not take (printer/service.ts; its deps may override base and cap). */
  printer: { baseMs: 1000, capMs: 30_000, jitter: 'none' },
  /** A PIN scope locked after too many wrong PINs (auth/attempts.ts), by how many lockouts came before. */
  pinLockout: { ...PIN_LOCK_POLICY, jitter: 'none' },
  /** A store hub that did not answer a sync round (hub-client/sync.ts); a round that works resets it. */
  hubSync: { baseMs: 1000, capMs: 10_000, jitter: 'full' },
  /** Applying the scheduled price changes due (prices/service.ts) failed (a disk error): soon again. */
  scheduledPrices: { baseMs: 5_000, capMs: 5 * 60_000, jitter: 'none' },
} as const satisfies Record<string, BackoffPolicy | BudgetedPolicy>;
