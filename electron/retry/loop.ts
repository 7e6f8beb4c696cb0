/**
 * The one mechanism every background pass of the till runs on. A pass runs one at a time: a call while a
 * pass is under way makes it run once more (so what changed meanwhile is handled) and resolves with it.
 * `run` must not throw (it logs its own failures); it reports how it went by what it returns:
 * - nothing: done; the next pass comes after the interval;
 * - 'failed': the next pass comes after the loop's backoff policy (retry/policy.ts), which grows with
 *   each failure in a row and is forgotten after a pass that works;
 * - `{ nextInMs }`: the pass knows when there is work again (e.g. the earliest due order);
 * - 'idle': nothing to do until new work kicks the loop (no timer meanwhile).
 *
 * Two ways to keep time. By default a fixed interval (one `setInterval`, for passes that only look and
 * return; a synchronous `run` then costs one call per tick, no promise). With a backoff policy, or
 * `afterPass: true`, each next pass is timed when the previous one ends, and `kick` (or `sync`) runs one
 * now and times the next from it.
 */
import { backoffMs, type BackoffPolicy } from './policy.ts';

export type PassOutcome = void | 'failed' | 'idle' | { nextInMs: number };

export interface SyncLoop {
  sync(): Promise<void>;
  /** Runs a pass at once (new work arrived) when the loop is started; nothing before `start` or after `stop`. */
  kick(): void;
  /**
   * Runs the first pass after `firstAfterMs` (default: now; Infinity: at the first `kick`), then every
   * `intervalMs` (or as the pass says).
   */
  start(intervalMs: number, firstAfterMs?: number): void;
  /** Stops the timer and waits for a pass under way (no pass follows it, even if one was asked for). */
  stop(): Promise<void>;
}

/** The timers a loop uses: the globals, or a test's own clock (tests drive time, e.g. the hourly tax-rate refresh). */
export interface LoopTimers {
  setTimeout(fn: () => void, ms: number): { unref?(): unknown };
  setInterval(fn: () => void, ms: number): { unref?(): unknown };
  clear(handle: { unref?(): unknown }): void;
}

export interface SyncLoopOptions {
  timers?: LoopTimers | undefined;
  /** The wait after a failed pass. Implies `afterPass`. */
  backoff?: BackoffPolicy | undefined;
  /** Times each pass from the end of the previous one (and lets a pass name its next time). */
  afterPass?: boolean | undefined;
  random?: (() => number) | undefined;
}

const GLOBAL_TIMERS: LoopTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clear: (h) => {
    clearTimeout(h as NodeJS.Timeout);
    clearInterval(h as NodeJS.Timeout);
  },
};

const DONE: Promise<void> = Promise.resolve();

const isPromise = (v: unknown): v is Promise<PassOutcome> =>
  typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';

export function createSyncLoop(run: () => PassOutcome | Promise<PassOutcome>, options: SyncLoopOptions = {}): SyncLoop {
  const timers = options.timers ?? GLOBAL_TIMERS;
  const afterPass = options.afterPass === true || options.backoff !== undefined;
  const random = options.random ?? Math.random;
  let syncing: Promise<void> | null = null;
  let again = false;
  let halted = false;
  let started = false;
  let every = 0;
  let failures = 0;
  let timer: { unref?(): unknown } | null = null;
  let first: { unref?(): unknown } | null = null;

  const arm = (ms: number): void => {
    if (timer) timers.clear(timer);
    timer = timers.setTimeout(tick, Math.max(0, ms));
    timer.unref?.();
  };
  // Only a loop timed after each pass looks at the outcome: a fixed interval has nothing to decide.
  const after = (outcome: PassOutcome): void => {
    if (!afterPass) return;
    if (outcome === 'failed') failures++;
    else failures = 0;
    if (!started || halted) return;
    if (outcome === 'idle') {
      if (timer) timers.clear(timer);
      timer = null;
    } else if (typeof outcome === 'object') arm(outcome.nextInMs);
    else if (outcome === 'failed' && options.backoff) arm(backoffMs(options.backoff, failures, random));
    else arm(every);
  };
  const sync = (): Promise<void> => {
    if (syncing) {
      again = true;
      return syncing;
    }
    let out: PassOutcome | Promise<PassOutcome>;
    try {
      out = run();
    } catch (err) {
      after('failed');
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    if (!isPromise(out)) {
      after(out);
      return DONE;
    }
    // `again` is read for the last time and `syncing` cleared in one synchronous step: a call in between
    // would set `again` after its last read and be lost.
    syncing = (async () => {
      let outcome: PassOutcome;
      try {
        outcome = await out;
        while (again && !halted) {
          again = false;
          outcome = await run();
        }
      } catch (err) {
        again = false;
        syncing = null;
        after('failed');
        throw err;
      }
      again = false;
      syncing = null;
      after(outcome);
    })();
    return syncing;
  };
  function tick(): void {
    timer = null;
    void sync();
  }
  return {
    sync,
    kick() {
      // Never in the caller's turn (it may be inside a transaction): the pass starts a microtask later.
      if (started && !halted) queueMicrotask(() => void (started && !halted && sync()));
    },
    start(intervalMs, firstAfterMs = 0) {
      if (started) return;
      started = true;
      halted = false;
      every = intervalMs;
      const begin = (): void => {
        first = null;
        if (!afterPass) {
          timer = timers.setInterval(() => void sync(), intervalMs);
          timer.unref?.();
        }
        void sync();
      };
      if (firstAfterMs <= 0) return begin();
      if (firstAfterMs === Infinity) {
        if (!afterPass) throw new Error('a loop on a fixed interval needs a first pass');
        return;
      }
      first = timers.setTimeout(begin, firstAfterMs);
      first.unref?.();
    },
    async stop() {
      if (first) timers.clear(first);
      if (timer) timers.clear(timer);
      first = null;
      timer = null;
      started = false;
      halted = true;
      again = false;
      try {
        await syncing;
      } finally {
        halted = false;
      }
    },
  };
}
