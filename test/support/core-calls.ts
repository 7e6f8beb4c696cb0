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

/** Waits (no sleeping assertions: the suite's timeout bounds it) until `check` holds. */
export async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}
