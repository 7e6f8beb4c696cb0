/**
 * The hub's SEF worker (docs/sef.md, "Sending from the hub"): one pass at a time of the SEF area's outbox
 * (`sefPass`), again when the pass says the next document is due (at most `everyMs` later), and at once when a push
 * made a document (`kick`). One process, one loop: two passes never run together.
 */
export interface SefWorker {
  kick(): void;
  stop(): Promise<void>;
}

export function startSefWorker(
  pass: () => Promise<{ nextInMs: number } | 'idle'>,
  everyMs: number,
  log: (line: string) => void,
): SefWorker {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const schedule = (ms: number): void => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, Math.max(0, Math.min(ms, everyMs)));
  };
  function run(): void {
    timer = null;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .then((r) => schedule(r === 'idle' ? everyMs : r.nextInMs))
      .catch((err: unknown) => {
        log(`sef: the pass failed: ${err instanceof Error ? err.message : String(err)}`);
        schedule(everyMs);
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          run();
        }
      });
  }
  schedule(0);
  return {
    kick: () => {
      if (!stopped) schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
