/** The till's search expressions over the folded text (shared/catalog/fold.ts). */
import { foldText } from '../../shared/catalog/fold.ts';

/** Builds an FTS5 MATCH expression that requires every word of `query` as a prefix; null if nothing to match. */
export function ftsPrefixQuery(query: string): string | null {
  const words = foldText(query).split(' ').filter(Boolean).slice(0, 8);
  if (words.length === 0) return null;
  return words.map((w) => `"${w}"*`).join(' ');
}
