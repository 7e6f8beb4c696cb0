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

export function createSyncLoop(run: () => Promise<void>): SyncLoop {
  let syncing: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let first: NodeJS.Timeout | null = null;
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
        timer = setInterval(() => void sync(), intervalMs);
        timer.unref();
      };
      if (firstAfterMs <= 0) return every();
      first = setTimeout(every, firstAfterMs);
      first.unref();
    },
    async stop() {
      if (first) clearTimeout(first);
      if (timer) clearInterval(timer);
      first = null;
      timer = null;
      await syncing;
    },
  };
}
