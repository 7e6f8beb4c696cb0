/**
 * What every long-running command line (`npm run serve`, `npm run hub`) does the same way: start only when run
 * as the script itself (not when a test imports `main`), report a failed start on stderr with exit code 1,
 * and close what it started on SIGINT or SIGTERM before exiting 0.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Runs `main` when the module at `moduleUrl` (its `import.meta.url`) is the script node was started with. */
export function runAsScript(moduleUrl: string, name: string, main: () => Promise<void>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  main().catch((err: unknown) => {
    process.stderr.write(`${name} failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

/** On the first SIGINT or SIGTERM runs `stop` (once, however many signals follow), then exits 0. */
export function stopOnSignals(stop: () => Promise<unknown>): void {
  let closing = false;
  const shutdown = (): void => {
    if (closing) return;
    closing = true;
    void stop().finally(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
