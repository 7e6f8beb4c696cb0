/**
 * The staff and audit areas' handlers (shared/contract/staff.ts, audit.ts): log in and out, PINs, people,
 * a manager's approval of a counter action, and the audit log. A manager's PIN was verified by the guard
 * before any of these runs; they receive the approving manager (`Caller`).
 */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { approverOf, type Sessions } from './context.ts';
import type { StaffService } from './staff.ts';

export function staffHandlers(staff: StaffService, sessions: Sessions): AreaHandlers<'staff'> {
  return areaHandlers('staff', {
    'staff.login': async ({ pin }) => {
      const who = await staff.identify(pin, 'pin');
      sessions.set({ id: who.id, name: who.name, role: who.role, mustChangePin: who.mustChangePin });
      staff.audit(who.name, 'staff.login', { id: who.id });
      return who;
    },
    'staff.logout': async () => {
      const who = sessions.current;
      sessions.clear();
      if (who) staff.audit(who.name, 'staff.logout', { id: who.id });
      return { loggedOut: true };
    },
    'staff.approve': async ({ action, detail }, caller) => {
      const approvedBy = approverOf(caller).name;
      staff.audit(approvedBy, `approve.${action}`, detail ? { detail } : {});
      return { approvedBy };
    },
    'staff.list': async ({ search }) => staff.list(search),
    'staff.create': async ({ managerPin, ...input }, caller) =>
      staff.create(approverOf(caller).name, input, managerPin),
    'staff.update': async ({ managerPin, ...input }, caller) => {
      const approver = approverOf(caller);
      // Nobody deactivates or demotes themself: neither the approving manager nor a manager logged in.
      const actor = caller?.actor ?? null;
      const self = [approver.id, ...(actor?.role === 'manager' ? [actor.id] : [])];
      const who = await staff.update(actor?.name ?? approver.name, input, self, managerPin);
      // The person logged in, renamed (the setup flow names the first-run manager): what they do from now on
      // (a shift they open, a sale's cashier) carries the new name, not the one they logged in with.
      // Deactivated, their session ends here (and the guard ends it on any till whose person is inactive).
      const current = sessions.current;
      if (current?.id === who.id) {
        if (who.active) sessions.set({ ...current, name: who.name, role: who.role });
        else {
          staff.audit(who.name, 'staff.sessionEnded', { id: who.id });
          sessions.end();
        }
      }
      return who;
    },
    'staff.changePin': async ({ currentPin, newPin }) => {
      const who = await staff.changePin(currentPin, newPin);
      if (sessions.current?.id === who.id)
        sessions.set({ id: who.id, name: who.name, role: who.role, mustChangePin: false });
      return who;
    },
  });
}

export function auditHandlers(staff: StaffService): AreaHandlers<'audit'> {
  return areaHandlers('audit', {
    'audit.list': async ({ limit, offset }) => staff.auditList(limit ?? 50, offset ?? 0),
  });
}
