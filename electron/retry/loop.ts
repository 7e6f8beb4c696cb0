/**
 * A background sync run one at a time: a call while a run is under way makes it run once more (so what
 * changed meanwhile is handled) and resolves with it; `start` runs it after `firstAfterMs` (default: now)
 * and then every `intervalMs`. `run` must not throw (it logs its own failures).
 */
export interface SyncLoop {
  sync(): Promise<void>;
  start(intervalMs: number, firstAfterMs?: number): void;
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>;
}

/** The timers a loop uses: the globals, or a test's own clock (tests drive time, e.g. the hourly tax-rate refresh). */
export interface LoopTimers {
  setTimeout(fn: () => void, ms: number): { unref?(): unknown };
  setInterval(fn: () => void, ms: number): { unref?(): unknown };
  clear(handle: { unref?(): unknown }): void;
}

const GLOBAL_TIMERS: LoopTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clear: (h) => {
    clearTimeout(h as NodeJS.Timeout);
    clearInterval(h as NodeJS.Timeout);
  },
};

export function createSyncLoop(run: () => Promise<void>, timers: LoopTimers = GLOBAL_TIMERS): SyncLoop {
  let syncing: Promise<void> | null = null;
  let again = false;
  let timer: { unref?(): unknown } | null = null;
  let first: { unref?(): unknown } | null = null;
  const sync = (): Promise<void> => {
    if (syncing) {
      again = true;
      return syncing;
    }
    syncing = (async () => {
      do {
        again = false;
        await run();
      } while (again);
    })().finally(() => {
      syncing = null;
    });
    return syncing;
  };
  return {
    sync,
    start(intervalMs, firstAfterMs = 0) {
      if (timer || first) return;
      const every = (): void => {
        first = null;
        void sync();
        timer = timers.setInterval(() => void sync(), intervalMs);
        timer.unref?.();
      };
      if (firstAfterMs <= 0) return every();
      first = timers.setTimeout(every, firstAfterMs);
      first.unref?.();
    },
    async stop() {
      if (first) timers.clear(first);
      if (timer) timers.clear(timer);
      first = null;
      timer = null;
      await syncing;
    },
  };
}
