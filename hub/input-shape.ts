/**
 * The shape every hub input must have before anything else reads it (issue 39): at most `MAX_INPUT_DEPTH`
 * levels of arrays and objects, and no array or object of more than `MAX_INPUT_ITEMS` entries. A 10,000-deep
 * JSON body or a million-element array in a free-form field (an audit payload, a parked cart) is 400 naming
 * the field where it goes too far, never a 503 (a recursive check or the database's own stack overflowing) nor
 * stored. The walk is iterative, so the check itself cannot overflow whatever the input. The rule is the
 * service's: the HTTP layer only runs it on every parsed body and query.
 */
import { HubError } from '../shared/hub/protocol.ts';

/** The deepest nesting a hub input may have: a pushed order is about 8 levels deep (events.N.payload.data…). */
export const MAX_INPUT_DEPTH = 32;
/** The most entries one array or object may have: the largest list a contract takes (a catalog) is 200,000. */
export const MAX_INPUT_ITEMS = 200_000;

/** Refuses an input nested deeper than `MAX_INPUT_DEPTH` or with a list longer than `MAX_INPUT_ITEMS` (400). */
export function refuseOversizedShape(raw: unknown): void {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: raw, path: [] }];
  const named = (path: readonly (string | number)[]): string => (path.length ? path.join('.') : 'body');
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { value, path } = top;
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_INPUT_DEPTH)
      throw new HubError(
        400,
        'input_too_deep',
        `${named(path)}: nested more than ${MAX_INPUT_DEPTH} levels deep`,
        named(path),
      );
    const size = Array.isArray(value) ? value.length : Object.keys(value).length;
    if (size > MAX_INPUT_ITEMS)
      throw new HubError(
        400,
        'input_too_large',
        `${named(path)}: more than ${MAX_INPUT_ITEMS} entries (${size})`,
        named(path),
      );
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((v, i): [number, unknown] => [i, v])
      : Object.entries(value);
    // Pushed in reverse, so the first offending field in the input's order is the one named.
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i];
      if (e && typeof e[1] === 'object' && e[1] !== null) stack.push({ value: e[1], path: [...path, e[0]] });
    }
  }
}
