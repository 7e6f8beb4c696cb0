/**
 * PINs at a till enrolled with a store hub (issue 39; docs/security.md, docs/hub.md "PINs at the tills").
 *
 * The till holds no PIN hash of the hub: a person it pulled has, in `staff.pin_hash`, this till's own verifier of
 * their PIN (`tv1$…`, shared/node/pin-verifier.ts), salted with this till's hub id and PIN key (`hub_state`), or
 * nothing until the hub made one. A `scrypt$` hash there is one this till made itself (a person not at the hub yet,
 * the first-run manager, a till without a hub). Who decides a PIN typed here (StaffService.identify):
 *
 * - a match on a hash this till made, or on a cashier's verifier: this till (offline login as before);
 * - anything else (a manager's verifier, or no match) while the hub answers: the hub (`check`), counted there per till
 *   and shop. Its "nobody" refuses a manager's old PIN at once after a change elsewhere; its person is the one;
 * - the hub away: this till's verifiers alone (a manager whose PIN changed meanwhile is approved with the old one
 *   until the till pulls again, the price of approving offline).
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
  /** Asks the hub whose PIN this is (`personId`: the person this till matched). Throws CommandError when locked. */
  check(pin: string, personId: string | undefined, field: string): Promise<HubPinAnswer>;
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

/** Whether this till may decide a PIN matched on `stored` (of a person in `role`) without the hub. */
export const decidedHere = (stored: string, role: string): boolean => !isTillVerifier(stored) || role === 'cashier';
