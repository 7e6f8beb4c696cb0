/**
 * What every long-running command line (`npm run serve`, `npm run hub`) does the same way: start only when run
 * as the script itself (not when a test imports `main`), report a failed start on stderr with exit code 1,
 * and close what it started on SIGINT or SIGTERM before exiting 0.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/** Runs `main` when the module at `moduleUrl` (its `import.meta.url`) is the script node was started with. */
export function runAsScript(moduleUrl: string, name: string, main: () => Promise<void>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  main().catch((err: unknown) => {
    process.stderr.write(`${name} failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

/** On the first SIGINT or SIGTERM runs `stop` (once, however many signals follow), then exits 0 (1 if it failed). */
export function stopOnSignals(stop: () => Promise<unknown>): void {
  let closing = false;
  const shutdown = (): void => {
    if (closing) return;
    closing = true;
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

/** A command line's refusal: one line naming the problem, the usage, exit code 2, no stack trace. */
export function usageError(name: string, usage: string): (message: string) => never {
  return (message) => {
    process.stderr.write(`${name}: ${message}\n${usage}\n`);
    process.exit(2);
  };
}

/** Parses `process.argv` strictly against `options`; an unknown flag or a missing value fails through `fail`. */
export function parseFlags<T extends ParseArgsOptionsConfig>(options: T, fail: (message: string) => never) {
  try {
    return parseArgs({ options, strict: true }).values;
  } catch (e) {
    return fail(e instanceof Error ? (e.message.split('\n')[0] ?? 'bad arguments') : 'bad arguments');
  }
}

/** A test server's flags: its `own`, and --port (0: any free port), --host and --data (its state) that all take. */
export const serverFlags = <T extends ParseArgsOptionsConfig>(own: T) =>
  ({ port: { type: 'string', default: '0' }, host: { type: 'string' }, data: { type: 'string' }, ...own }) as const;

/** Reads a flag as a number of at least `min` (an integer when asked), or fails naming the flag. */
export function numberFlag(
  flag: string,
  value: string,
  fail: (message: string) => never,
  rule: { min?: number; max?: number; integer?: boolean } = {},
): number {
  const n = Number(value);
  const ok =
    value.trim() !== '' &&
    Number.isFinite(n) &&
    n >= (rule.min ?? 0) &&
    n <= (rule.max ?? Number.MAX_SAFE_INTEGER) &&
    (!rule.integer || Number.isInteger(n));
  if (!ok) fail(`invalid --${flag} ${value}`);
  return n;
}

/** A test server's command line: prints exactly one JSON line `{"url": …}` on stdout, then serves until a signal. */
export function announceAndServe(server: { url: string; close(): Promise<unknown> }): void {
  // The handlers first: a SIGTERM sent as soon as the line is read closes the server, not kills the process.
  stopOnSignals(() => server.close());
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
}
