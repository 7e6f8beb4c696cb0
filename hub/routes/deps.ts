/** What the hub's handlers are given (hub/routes/*.ts): the service, the guard's audit and the served certificate. */
import type { Guard } from '../guard.ts';
import type { HubService } from '../service.ts';

export interface RouteDeps {
  service: HubService;
  guard: Guard;
  /** The SHA-256 of the certificate served, or null for plain HTTP on loopback. */
  fingerprint: string | null;
  now: () => number;
  /** Counts each PIN comparison the hub makes for a shop (tests of the throttle). */
  onPinCompare?: ((shopId: number) => void) | undefined;
}

/** A list of names or codes for the audit: the first 20, and how many more. */
export const codesOf = (names: readonly string[]): string =>
  names.slice(0, 20).join(', ') + (names.length > 20 ? ` (+${names.length - 20})` : '');
