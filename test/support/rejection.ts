/**
 * The error a promise rejects with, of the class a test expects: the hub's and the L-PFR's refusals are caught
 * alike, so this is written once. Anything else it rejects with is thrown on, and a promise that resolves fails
 * the test with `expected`.
 */
export async function rejectionOf<E extends Error>(
  p: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
  expected: string,
): Promise<E> {
  try {
    await p;
  } catch (err) {
    if (err instanceof type) return err;
    throw err;
  }
  throw new Error(expected);
}
