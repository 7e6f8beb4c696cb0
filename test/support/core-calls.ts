/**
 * What the tests that drive whole tills (createCore, real SQLite files) through their contract share: a logger
 * that says nothing, a command that must succeed, and a wait on a condition.
 */
import type { Core } from '../../electron/core.ts';
import type { Result } from '../../shared/contract/index.ts';

export const quiet = { info() {}, warn() {}, error() {}, redact() {} } as unknown as Core['logger'];

/** Runs `name` on the till and returns its value; a refusal throws with the command's error. */
export async function ok<T>(c: Core, name: string, input: unknown = {}): Promise<T> {
  const r = (await c.dispatch(name, input)) as Result<T>;
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
  return r.value;
}

/**
 * Waits (no sleeping assertions: the suite's timeout bounds it) until `check` holds. With `stuck`, a wait that has
 * not ended after `stuck.ms` fails with what `stuck.state()` reads then (the test's timeout alone says nothing of
 * why, and leaves the loop running behind the next test).
 */
export async function until(
  check: () => Promise<boolean> | boolean,
  stuck?: { ms: number; state: () => unknown },
): Promise<void> {
  const end = stuck ? Date.now() + stuck.ms : Infinity;
  while (!(await check())) {
    if (stuck && Date.now() > end)
      throw new Error(`still waiting after ${stuck.ms} ms: ${JSON.stringify(await stuck.state(), null, 1)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A logger that keeps a till's last warnings and errors (what a stuck wait reports), saying nothing. */
export function recordingLogger(keep = 30): { logger: Core['logger']; lines: string[] } {
  const lines: string[] = [];
  const secrets: string[] = [];
  const note = (level: string) => (line: string) => {
    const said = secrets.reduce((l, secret) => l.split(secret).join('[redacted]'), line);
    lines.push(`${new Date().toISOString()} ${level} ${said}`);
    if (lines.length > keep) lines.shift();
  };
  const logger: Core['logger'] = {
    info() {},
    warn: note('warn'),
    error: note('error'),
    redact: (secret) => void (secret && secrets.push(secret)),
  };
  return { logger, lines };
}
