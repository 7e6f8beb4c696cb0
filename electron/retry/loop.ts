/**
 * A background sync run one at a time: a call while a run is under way makes it run once more (so what
 * changed meanwhile is handled) and resolves with it; `start` runs it now and then every `intervalMs`.
 * `run` must not throw (it logs its own failures).
 */
export interface SyncLoop {
  sync(): Promise<void>;
  start(intervalMs: number): void;
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>;
}

export function createSyncLoop(run: () => Promise<void>): SyncLoop {
  let syncing: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
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
    start(intervalMs) {
      if (timer) return;
      void sync();
      timer = setInterval(() => void sync(), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await syncing;
    },
  };
}
