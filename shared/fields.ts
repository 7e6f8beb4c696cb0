/**
 * An object's optional fields copied only where they are set: under exactOptionalPropertyTypes a field left out is
 * not a field set to undefined, and the views leave out an empty one (undefined, null, '', 0, false) altogether.
 */

/** The fields of `o` among `keys` whose value is truthy, in the order of `keys`. */
export function truthyFields<T extends object, K extends keyof T>(
  o: T,
  keys: readonly K[],
): { [P in K]?: NonNullable<T[P]> } {
  const out: { [P in K]?: NonNullable<T[P]> } = {};
  for (const k of keys) if (o[k]) out[k] = o[k] as NonNullable<T[K]>;
  return out;
}
