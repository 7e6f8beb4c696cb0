/**
 * The handlers of what a till enters for the shop's book (shared/hub/contract/till-goods.ts): the guard identified
 * the till, admitted only a draft it made and checked the manager's PIN of a post; the services decide the rest.
 * A till's draft saved and a draft posted from a till are audited (the till, the approving manager).
 */
import type { TILL_GOODS_API } from '../../shared/hub/contract.ts';
import { recordAudit } from '../audit.ts';
import type { HubHandlers } from '../router.ts';
import { tillActor } from '../till-trust.ts';
import type { RouteDeps } from './deps.ts';

export function tillGoodsHandlers({ service, now }: RouteDeps): HubHandlers<typeof TILL_GOODS_API> {
  const { db } = service;
  return {
    tillReceiptDraft: async ({ who, input }) => {
      const r = await service.saveTillDraft(who, input);
      if (r.version === input.version)
        await recordAudit(
          db,
          {
            shopId: who.shopId,
            actor: tillActor(who),
            action: 'goods_receipt_draft',
            detail: { supplier: input.form.supplier ?? '', invoice: input.form.invoiceNumber },
          },
          now(),
        );
      return r;
    },
    tillReceiptPost: async ({ who, input, approver }) => {
      const doc = await service.postDraft(who.shopId, input.id, input.confirmBelowPurchase ?? false, approver.name);
      await recordAudit(
        db,
        {
          shopId: who.shopId,
          actor: approver.name,
          action: 'goods_receipt',
          detail: { number: doc.number, supplier: String(doc.detail.supplier), value: doc.valuePara },
        },
        now(),
      );
      return doc;
    },
    tillCounts: async ({ who }) => ({ counts: await service.tillOpenCounts(who) }),
    tillCountEntry: ({ who, input }) => service.tillCountEntry(who, input),
  };
}
