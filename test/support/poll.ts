/**
 * Polls `probe` until `test` holds and returns that value; throws naming `what` after `tries` tries (no sleeping
 * assertions: what is awaited is named, and the test's own timeout bounds it too).
 */
export async function untilValue<T>(
  what: string,
  probe: () => Promise<T> | T,
  test: (v: T) => boolean,
  options: { tries?: number; everyMs?: number } = {},
): Promise<T> {
  const tries = options.tries ?? 400;
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (test(v)) return v;
    await new Promise((r) => setTimeout(r, options.everyMs ?? 25));
  }
  throw new Error(`never: ${what}`);
}
