/**
 * How strong a manager's PIN must be (issue 38: „a 1234-style PIN refused for a manager“). A manager's PIN
 * approves voids, refunds, cash out and staff changes, and at an enrolled till its hash travels to the hub and
 * the other tills, so it must not be one of the first PINs anyone tries:
 *
 * - all digits equal (`0000`, `777777`);
 * - a run of consecutive digits up or down (`1234`, `4321`, `123456`, `987654`, `7890` is not a run);
 * - the first-run PIN (`DEFAULT_MANAGER_PIN`, `0000`), which every install starts with.
 *
 * The rule is pure: the till's core (electron/auth/staff.ts: a new person, a PIN set, one's own PIN changed,
 * the first-run change) and the hub (hub/services/staff.ts: a PIN set in the hub UI) both ask it. A cashier's PIN is
 * not held to it: a cashier's PIN approves nothing.
 */

/** The first-run manager's PIN: it allows nothing but choosing a new one (README, "First run"). */
export const DEFAULT_MANAGER_PIN = '0000';

/** True for a PIN whose digits step by `step` (+1 or -1) from first to last. */
function isRun(pin: string, step: 1 | -1): boolean {
  for (let i = 1; i < pin.length; i++) if (pin.charCodeAt(i) - pin.charCodeAt(i - 1) !== step) return false;
  return true;
}

/** Why a manager may not have this PIN (`pin_trivial`), or null when it is strong enough for the rule. */
export function managerPinProblem(pin: string): { key: 'pin_trivial' } | null {
  if (!/^\d+$/.test(pin)) return null; // the PIN's format is the schema's to refuse
  const trivial = pin === DEFAULT_MANAGER_PIN || /^(\d)\1*$/.test(pin) || isRun(pin, 1) || isRun(pin, -1);
  return trivial ? { key: 'pin_trivial' } : null;
}

/** The hub's own words for the refusal (API users; the UIs show their own in the user's language). */
export const MANAGER_PIN_TEXT =
  'pin: a manager’s PIN must not be one digit repeated, a run such as 1234 or 4321, or 0000';
