/**
 * PINs at a till enrolled with a store hub (issue 39; docs/security.md, docs/hub.md "PINs at the tills").
 *
 * The till holds no PIN hash of the hub: a person it pulled (`staff.at_hub`) has, in `staff.pin_hash`, this till's
 * own verifier of their PIN (`tv1$…`, shared/node/pin-verifier.ts), salted with this till's hub id and PIN key
 * (`hub_state`); until the hub made one, a hash this till made of them itself (a manager made here before
 * enrolment), or nothing. A `scrypt$` hash is one this till made (a person at the hub whose PIN the hub has not seen
 * in clear yet, a person not at the hub yet, the first-run manager, a till without a hub): it verifies nothing at
 * the hub or at another till. Who decides a PIN typed here (StaffService.identify):
 *
 * - a match on a hash this till made of a person not at the hub, or on a cashier's verifier: this till (offline
 *   login as before);
 * - anything else (a manager's verifier, a hash this till made of a person at the hub, or no match) while the hub
 *   answers: the hub (`check`, within the till's usual wait), counted there per till and shop. Its "nobody" refuses
 *   an old PIN at once after a change elsewhere; its person is the one. Asked about a hash this till made, the hub
 *   sees that PIN in clear and makes every till's verifier of it (`everyTill`), which this till's pull then takes in
 *   the hash's place;
 * - the hub away: this till's verifiers and own hashes alone (a manager whose PIN changed meanwhile is approved with
 *   the old one until the till pulls again, the price of approving offline).
 *
 * A person's own PIN change at an enrolled till goes through the hub with their current PIN (`ownChange`).
 */
import { verifyPin } from '../../shared/node/pin.ts';
import { isTillVerifier, verifyTillVerifier } from '../../shared/node/pin-verifier.ts';

/** This till's link as its verifiers need it. */
export interface PinContext {
  tillId: number;
  pinKey: string;
}

/** The hub's word on a PIN typed here: the person (their id), nobody, or not asked (no hub, or away). */
export type HubPinAnswer = { kind: 'person'; id: string } | { kind: 'unknown' } | { kind: 'away' };

export interface HubPins {
  /** The till's hub id and PIN key, or null when it is not enrolled (or has not pulled its key yet). */
  context(): PinContext | null;
  /**
   * Asks the hub whose PIN this is (`personId`: the person this till matched; `everyTill`: matched on a hash this till
   * made, so the hub makes every till's verifier of the PIN). Throws CommandError when locked.
   */
  check(pin: string, personId: string | undefined, field: string, everyTill: boolean): Promise<HubPinAnswer>;
  /**
   * A person's own PIN change through the hub (their current PIN is the proof the hub checks): this till's new
   * verifier (null: none yet, it comes by pull), or false when the till is not enrolled (the change is the till's
   * own). Throws CommandError when refused or when the hub is away (`hub_needed`).
   */
  ownChange(currentPin: string, personId: string, newPin: string): Promise<string | null | false>;
}

/** Whether `pin` is the one `stored` holds: a hash this till made, or this till's verifier of the person `uid`. */
export function matchesPin(pin: string, stored: string, uid: string, ctx: PinContext | null): Promise<boolean> {
  if (stored === '') return Promise.resolve(false);
  if (!isTillVerifier(stored)) return verifyPin(pin, stored);
  return ctx ? verifyTillVerifier(pin, stored, ctx.pinKey, ctx.tillId, uid) : Promise.resolve(false);
}

/**
 * Whether this till may decide a PIN matched on `stored` (of a person in `role`; `atHub`: a person the hub sent)
 * without asking the hub while it answers.
 */
export const decidedHere = (stored: string, role: string, atHub: boolean): boolean =>
  isTillVerifier(stored) ? role === 'cashier' : !atHub;
