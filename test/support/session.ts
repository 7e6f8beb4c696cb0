/**
 * A till set up the way issue #12 requires before anything is sold: the first-run manager's PIN 0000 is
 * changed (it approves nothing until then) and that manager is logged in, so the core has a session.
 * Tests that are not about login use this instead of the first-run PIN.
 */
import type { Core } from '../../electron/core.ts';

/** The first-run manager's PIN after `signIn` changed it from 0000. */
export const MANAGER_PIN = '482916';

/**
 * Changes the first-run PIN to `pin` (when this data dir still has it, so a restart or a copied folder
 * counts no wrong PIN) and logs that manager in.
 */
export async function signIn(core: Pick<Core, 'dispatch' | 'db'>, pin = MANAGER_PIN): Promise<void> {
  const firstRun = core.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM staff WHERE must_change_pin = 1').get()?.n ?? 0;
  if (firstRun > 0) {
    const changed = await core.dispatch('staff.changePin', { currentPin: '0000', newPin: pin });
    if (!changed.ok) throw new Error(`signIn: ${JSON.stringify(changed.error)}`);
  }
  const login = await core.dispatch('staff.login', { pin });
  if (!login.ok) throw new Error(`signIn: ${JSON.stringify(login.error)}`);
}
