/**
 * A person's name as the till's staff screens and the hub both take it (issue 39: people, not names). A name is
 * how people pick each other at the login and how the shop reads its audit, so it must not be able to pose as
 * someone else's:
 *
 * - it is kept in Unicode NFC (`personName`), so one name has one spelling;
 * - no invisible or formatting character (zero-width spaces and joiners, bidirectional overrides, soft hyphens,
 *   control characters, spaces other than the plain one): `name_invisible`;
 * - no word mixing scripts („Mенаџер“ with a Latin M: Serbian is written in Cyrillic or in Latin, never both in
 *   one word): `name_mixed_script`;
 * - not a look-alike of another person's name (the same letters once Cyrillic, Greek and Latin letters that look
 *   the same are taken as one, case folded): `name_lookalike`, naming the other person.
 *
 * The rule is pure (no database): each side passes the names of the shop's other people.
 */

/** The name kept: NFC, without spaces at its ends. */
export const personName = (raw: string): string => raw.normalize('NFC').trim();

/** Invisible and formatting characters, and every space but U+0020. */
const INVISIBLE =
  /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u3164\uFFA0]|\u034F/u;

const SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u] as const;

/** Cyrillic and Greek letters that look like a Latin one (lower case; the name is case folded first). */
const LOOKS_LATIN: Readonly<Record<string, string>> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ѐ: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ј: 'j',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  һ: 'h',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ү: 'y',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  μ: 'm',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ζ: 'z',
};

/** The name's look: case folded, look-alike letters taken as their Latin twin, marks and spaces ignored. */
export function nameSkeleton(name: string): string {
  const folded = name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  let out = '';
  for (const ch of folded) {
    if (/\s/u.test(ch)) continue;
    out += LOOKS_LATIN[ch] ?? ch;
  }
  return out;
}

export type PersonNameProblem =
  { key: 'name_invisible' } | { key: 'name_mixed_script' } | { key: 'name_lookalike'; other: string };

/** Why this name (already `personName`) cannot be a person's among `others` (the shop's other people), or null. */
export function personNameProblem(name: string, others: readonly string[]): PersonNameProblem | null {
  if (INVISIBLE.test(name)) return { key: 'name_invisible' };
  for (const word of name.split(/[\s\-–.,']+/u)) {
    const scripts = SCRIPTS.filter((s) => s.test(word)).length;
    if (scripts > 1) return { key: 'name_mixed_script' };
  }
  const look = nameSkeleton(name);
  const other = others.find((o) => o !== name && nameSkeleton(o) === look);
  return other === undefined ? null : { key: 'name_lookalike', other };
}

/** The hub's own words for a name refused (API users; the till shows its messages in the user's language). */
export const PERSON_NAME_TEXT: Readonly<Record<PersonNameProblem['key'], string>> = {
  name_invisible: 'the name holds an invisible or formatting character (a zero-width space, a direction mark …)',
  name_mixed_script: 'a word of the name mixes Cyrillic and Latin letters',
  name_lookalike: "the name looks the same as another person's name",
};
