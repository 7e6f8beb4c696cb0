/**
 * The worker threads Node starts while watched, as its `worker_threads` diagnostics channel announces them: how many
 * there were, which have exited. `end()` stops watching (what was seen stays).
 */
import diagnostics from 'node:diagnostics_channel';
import type { Worker } from 'node:worker_threads';

export interface WatchedThreads {
  readonly started: Worker[];
  readonly exited: Set<Worker>;
  end(): void;
}

export function watchThreads(): WatchedThreads {
  const started: Worker[] = [];
  const exited = new Set<Worker>();
  const seen = (message: unknown): void => {
    const { worker } = message as { worker: Worker };
    started.push(worker);
    worker.once('exit', () => exited.add(worker));
  };
  diagnostics.subscribe('worker_threads', seen);
  return { started, exited, end: () => void diagnostics.unsubscribe('worker_threads', seen) };
}
