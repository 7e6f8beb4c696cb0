/** The hub's public endpoints: no credential, no session (docs/hub.md, "The hub's contract"). */
import { EnrolInput, LoginInput } from '../protocol.ts';
import { endpoint } from './define.ts';
import type { HubHealth, HubShop } from './results.ts';

export const PUBLIC_API = {
  /** The hub's health and the fingerprint of its certificate (a till's re-pin asks here first). */
  health: endpoint<HubHealth>()({ method: 'GET', path: '/api/health', caller: 'public' }),
  /** Spends a one-time enrolment code; the answer holds the till's credential (stored, never logged). */
  enrol: endpoint<{ tillId: number; shopId: number; credential: string }>()({
    method: 'POST',
    path: '/api/enrol',
    caller: 'public',
    input: EnrolInput,
    status: 201,
  }),
  /** The hub's shops, for the login's shop picker. */
  shops: endpoint<{ shops: HubShop[] }>()({ method: 'GET', path: '/api/shops', caller: 'public' }),
  /** A manager's login by PIN: a session for that shop only (the PIN is checked by the guard, counted first). */
  login: endpoint<{ token: string; shopId: number; name: string }>()({
    method: 'POST',
    path: '/api/admin/login',
    caller: 'public',
    input: LoginInput,
    pin: { field: 'pin', scope: 'login' },
  }),
} as const;
