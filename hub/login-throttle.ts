/**
 * Where the hub counts a PIN attempt, and how many wrong PINs each place allows before its lockout (issue 39:
 * an outsider must not be able to lock the shop's managers out). The rule, after OWASP's authentication
 * guidance (throttle per source and account with a growing delay rather than one lock per account, which any
 * stranger can trip):
 *
 * - per source and shop (`source:<address>|shop:<id>`): `MAX_FAILURES` wrong PINs, then a lockout of that
 *   source only, each next one twice as long (shared/auth/attempts.ts). A burst from one machine slows that
 *   machine; a manager at another machine still logs in;
 * - per till (`till:<id>`) for a staff change a till asks the hub to approve, and for a PIN typed at a till that the
 *   till asks the hub about (a login or a manager's approval, a person's own PIN change: hub/pin-verifiers.ts): the
 *   same, for that till only;
 * - per shop (`shop:<id>`), whatever the source: `SHOP_ALLOWANCE` wrong PINs before the shop's lockout, so a
 *   brute force on the shop's manager PINs spread over many sources (or tills) is still bounded. One source
 *   alone cannot reach it: its own lockouts stop it first (5 wrong PINs, then 30 s, 60 s, …).
 *
 * The rule is decided here (the service's side); the HTTP layer only passes the source address on.
 */
import { MAX_FAILURES } from '../shared/auth/attempts.ts';

/** Wrong PINs a shop takes from all sources together before its lockout (a distributed guess is bounded). */
export const SHOP_ALLOWANCE = 10 * MAX_FAILURES;

/** The scopes of a manager's login at the hub UI from `source`. */
export const loginScopes = (shopId: number, source: string): string[] => [
  `source:${source}|shop:${shopId}`,
  `shop:${shopId}`,
];

/** The scopes of a PIN a till sends: a manager's approval of a staff change, or a PIN typed there (issue 39). */
export const approvalScopes = (tillId: number, shopId: number): string[] => [`till:${tillId}`, `shop:${shopId}`];

/** How many wrong PINs a scope allows before its lockout. */
export const allowanceOf = (scope: string): number => (scope.startsWith('shop:') ? SHOP_ALLOWANCE : MAX_FAILURES);
