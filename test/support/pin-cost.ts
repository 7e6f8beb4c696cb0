/**
 * The PIN hashes' scrypt cost in test runs (shared/node/pin.ts, `KASA_TEST_PIN_COST`): log2 N = 10, a sixteenth of
 * the cost a till and a hub use (14). Vitest's workers and Playwright's runner take it into their environment, and
 * every till, hub and host they start inherits it, so every hash of a run is made and checked at one cost. The
 * benchmarks do not set it: they measure the real cost. test/auth/pin-cost.test.ts proves both sides.
 */
export const TEST_PIN_COST = '10';
