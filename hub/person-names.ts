/**
 * A person's name at the hub (issue 39: people, not names), by the rule the till's staff screens use
 * (shared/staff/person-name.ts): NFC, no invisible characters, no word mixing scripts, no look-alike of another
 * person of the shop. Checked in the caller's transaction against the shop's other people as they are now.
 */
import { HubError } from '../shared/hub/protocol.ts';
import { PERSON_NAME_TEXT, personName, personNameProblem } from '../shared/staff/person-name.ts';
import type { Queryable } from './db/db.ts';

/**
 * The name to keep for the person `id` of the shop (`id` null: a new person), or 400 at `field` with the rule's
 * key as its code (`name_invisible`, `name_mixed_script`, `name_lookalike`).
 */
export async function checkedPersonName(
  q: Queryable,
  shopId: number,
  raw: string,
  id: string | null,
  field: string,
): Promise<string> {
  const name = personName(raw);
  const rows = await q.query<{ name: string }>('SELECT name FROM staff WHERE shop_id = $1 AND id IS DISTINCT FROM $2', [
    shopId,
    id,
  ]);
  const problem = personNameProblem(
    name,
    rows.map((r) => r.name),
  );
  if (!problem) return name;
  const text = PERSON_NAME_TEXT[problem.key] + (problem.key === 'name_lookalike' ? ` (${problem.other})` : '');
  throw new HubError(400, problem.key, `${field}: ${text}`, field);
}
