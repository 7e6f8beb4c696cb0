/**
 * The one backoff formula of the till and the store hub (electron/retry/policy.ts names the till's policies and
 * explains the formula): the wait after the n-th consecutive failure, from a policy's base, cap and jitter.
 */

export interface BackoffPolicy {
  /** The ceiling after the first failure. */
  readonly baseMs: number;
  /** The largest ceiling. */
  readonly capMs: number;
  readonly jitter: 'full' | 'equal' | 'none';
  /** Added to every wait (a floor under the jitter). */
  readonly floorMs?: number;
  /** The ceiling stops doubling after this many doublings (default 52: 2^n stays finite). */
  readonly maxDoublings?: number;
}

/** The ceiling of the wait after the `failures`-th consecutive failure (1 = the first). */
export function backoffCeilingMs(policy: BackoffPolicy, failures: number): number {
  const doublings = Math.max(0, Math.min(failures - 1, policy.maxDoublings ?? 52));
  return Math.min(policy.capMs, policy.baseMs * 2 ** doublings);
}

/** The wait after the `failures`-th consecutive failure (1 = the first), in whole ms for 'full' jitter. */
export function backoffMs(policy: BackoffPolicy, failures: number, random: () => number = Math.random): number {
  const ceiling = backoffCeilingMs(policy, failures);
  const floor = policy.floorMs ?? 0;
  switch (policy.jitter) {
    case 'none':
      return floor + ceiling;
    case 'full':
      return floor + Math.floor(random() * ceiling);
    case 'equal':
      return floor + ceiling / 2 + Math.floor(random() * (ceiling / 2));
  }
}
