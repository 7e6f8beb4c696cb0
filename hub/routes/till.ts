/** The handlers of a till's endpoints (shared/hub/contract/till.ts): the guard has identified the till. */
import { HubError } from '../../shared/hub/protocol.ts';
import type { TILL_API } from '../../shared/hub/contract.ts';
import { recordAudit } from '../audit.ts';
import { listParked, parkCart, takeParked } from '../parked.ts';
import { holdRefund, releaseRefund } from '../refund-holds.ts';
import type { HubHandlers } from '../router.ts';
import { tillActor } from '../till-trust.ts';
import { checkTillPin, verifiersOfTillChange } from '../pin-verifiers.ts';
import { codesOf, type RouteDeps } from './deps.ts';

export function tillHandlers({ service, now, onPinCompare }: RouteDeps): HubHandlers<typeof TILL_API> {
  const { db } = service;
  return {
    push: ({ who, input }) => service.push(who, input),
    changes: ({ who, input }) => service.changes(who, input.since ?? 0),
    lookup: async ({ who, input }) => {
      const found = await service.lookup(who, input);
      if (!found) throw new HubError(404, 'order_not_found', 'no such order in this shop');
      return found;
    },
    // A refusal is an answer, not an error: `held: false` with what is left of each line.
    refundHold: ({ who, input }) => holdRefund(db, who, input),
    refundRelease: async ({ who, input }) => {
      await releaseRefund(db, who, input.holdId);
      return { released: true };
    },
    park: ({ who, input }) => parkCart(db, who, input),
    parkedList: async ({ who }) => ({ carts: await listParked(db, who) }),
    parkedTake: async ({ who, input }) => {
      const taken = await takeParked(db, who, input);
      if (!taken) throw new HubError(404, 'parked_not_found', 'this parked cart is gone: another till took it');
      return taken;
    },
    // The approving manager was checked by the guard (a till's word is not enough); the service decides what an
    // offer without one may do.
    adoptCatalog: async ({ who, input, approver }) => {
      const replace = input.replace === true;
      const r = await service.adoptCatalog(who.shopId, input.products, replace, approver?.name ?? null);
      if (r.adopted)
        await recordAudit(db, {
          shopId: who.shopId,
          actor: approver?.name ?? tillActor(who),
          action: 'catalog_adopt',
          detail: { till: tillActor(who), count: input.products.length, replace },
        });
      return r;
    },
    offerStaff: async ({ who, input }) => {
      const r = await service.offerStaff(who.shopId, input.people);
      if (r.adopted && input.people.length > 0)
        await recordAudit(db, {
          shopId: who.shopId,
          actor: tillActor(who),
          action: 'staff_adopt',
          detail: { count: input.people.length, names: codesOf(input.people.map((p) => p.name)) },
        });
      return r;
    },
    staffChange: async ({ who, input, approver }) => {
      const changed = await service.tillStaffChange(who.shopId, input.people);
      // A new PIN the till set comes with its hash: every till's verifier of it (issue 39).
      await verifiersOfTillChange(db, who.shopId, input.people);
      if (changed > 0)
        await recordAudit(db, {
          shopId: who.shopId,
          actor: approver.name,
          action: 'staff_till',
          detail: { till: tillActor(who), names: codesOf(input.people.map((p) => p.name)) },
        });
      return { changed, approver: approver.name };
    },
    tillPin: async ({ who, input }) => {
      const found = await checkTillPin(db, who, input.pin, input.id, now(), onPinCompare, input.everyTill === true);
      if (input.newPin === undefined) return { id: found.id, name: found.name, role: found.role };
      const verifier = await service.setOwnPin(who, found.id, found.pinHash, input.newPin);
      await recordAudit(db, {
        shopId: who.shopId,
        actor: found.name,
        action: 'staff_own_pin',
        detail: { name: found.name, till: tillActor(who) },
      });
      return { id: found.id, name: found.name, role: found.role, ...(verifier ? { verifier } : {}) };
    },
  };
}
