/** Staff and PINs: log in and out, a manager's approval, people and their PINs (owned by electron/auth). */
import { z } from 'zod';
import { command, event } from './define.ts';
import * as s from './schemas.ts';

export const role = z.enum(['cashier', 'manager'], { error: 'invalid' });

export type StaffRole = z.infer<typeof role>;

/** A person who can log in at the till. PINs never leave the core. */
export interface StaffView {
  id: number;
  name: string;
  role: StaffRole;
  active: boolean;
  email?: string;
  phone?: string;
  /** The gateway's cashier id, when the person is registered there. */
  gatewayId?: number;
  /** True for the default manager until its first-run PIN is changed. */
  mustChangePin: boolean;
}

const pin = s.pin;
const managerPin = s.pin;

/** The shortest PIN a manager may have where PIN hashes leave the till (the hub; issue 25): 6 digits. */
export const MIN_MANAGER_PIN_DIGITS = 6;

/** A person as the staff rules see them: who they are now. */
export interface StaffRuleSubject {
  id: number | string;
  role: StaffRole;
  active: boolean;
}

/**
 * Why a manager may not make this change to a person, as a message key and the field it is about; null
 * when it is allowed. The till (electron/auth/staff.ts) and the hub (hub/services/staff.ts) both ask it:
 * - the last active manager is never deactivated or demoted (`last_manager`), by anyone, herself included:
 *   nobody could approve again (said first, since „another manager does that“ would name nobody);
 * - otherwise nobody deactivates or demotes themself (`staff_self`): another manager must do it.
 * `otherActiveManagers` counts the active managers other than `target`.
 */
export function staffChangeRefusal(
  target: StaffRuleSubject,
  change: { role?: StaffRole | undefined; active?: boolean | undefined },
  self: readonly (number | string)[],
  otherActiveManagers: number,
): { key: 'staff_self' | 'last_manager'; field: 'active' | 'role' } | null {
  const deactivates = change.active === false && target.active;
  const demotes = change.role === 'cashier' && target.role === 'manager';
  if (!deactivates && !demotes) return null;
  const field = deactivates ? 'active' : 'role';
  // The last manager first: to the last one deactivating herself, „another manager does that“ would point at
  // nobody (issue 38); she stays, whoever asks.
  if (target.role === 'manager' && target.active && otherActiveManagers === 0) return { key: 'last_manager', field };
  if (self.includes(target.id)) return { key: 'staff_self', field };
  return null;
}

export const staffCommands = {
  'staff.login': command<StaffView>('public')(
    z.strictObject({ pin }),
    'Identifies the person by PIN (scrypt hash, constant-time compare). Wrong PIN: forbidden.',
  ),
  'staff.approve': command<{ approvedBy: string }>('session')(
    z.strictObject({
      managerPin,
      action: z.string({ error: 'text' }).trim().min(1).max(60),
      detail: z.string().max(500).optional(),
    }),
    'Manager approval for a counter action (void after payment, price override, training toggle); audited.',
  ),
  'staff.logout': command<{ loggedOut: true }>('public')(
    s.empty,
    'Ends the session of the person logged in at this till.',
  ),
  'staff.list': command<{ staff: StaffView[]; online: boolean }>('session')(
    z.strictObject({ search: z.string({ error: 'text' }).trim().max(60, { error: 'too_long' }).optional() }),
    'People who can log in; cashiers are refreshed from the gateway /cashiers when online, else from the local cache.',
  ),
  'staff.create': command<StaffView>('manager')(
    z.strictObject({
      managerPin,
      name: s.text(100),
      role,
      pin,
      email: s.email.optional(),
      phone: z
        .string({ error: 'text' })
        .regex(/^\+?[0-9 /-]{5,20}$/, { error: 'phone' })
        .optional(),
    }),
    'Creates a cashier on the gateway (/cashiers, needs the network) and locally with a hashed PIN.',
  ),
  'staff.update': command<StaffView>('manager')(
    z.strictObject({
      managerPin,
      id: s.id,
      name: s.text(100).optional(),
      role: role.optional(),
      pin: pin.optional(),
      email: s.email.optional(),
      phone: z
        .string({ error: 'text' })
        .regex(/^\+?[0-9 /-]{5,20}$/, { error: 'phone' })
        .optional(),
      active: z.boolean({ error: 'boolean' }).optional(),
    }),
    'Updates a person (on the gateway too when registered there); a new PIN is hashed.',
  ),
  'staff.changePin': command<StaffView>('public')(
    z.strictObject({ currentPin: pin, newPin: pin }),
    'Changes one’s own PIN (clears the first-run warning). The new PIN must not be 0000 or in use.',
  ),
} as const;

export const staffEvents = {
  'staff.lockout': event<{ until: string; scope: string }>(
    'PIN entry locked after too many wrong PINs (status-bar alarm).',
  ),
  'session.ended': event<{ name: string; reason: 'deactivated' }>(
    'The person logged in was deactivated (here, at the hub or on another till) and their session ended: the ' +
      'counter returns to the login at once, keeping the open cart for the next person.',
  ),
} as const;
