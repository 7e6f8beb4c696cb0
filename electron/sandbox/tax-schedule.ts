/**
 * Tax-rate groups announced in advance: a test announces a group with a future `validFrom`
 * (`POST /__sandbox/tax-groups {group}`); from that instant on the sandbox's clock it is the shop's
 * current group, as on the Tax Administration's side: receipts are computed and signed with it
 * (`additional.taxGroupRevision`) and `GET /receipt/tax-rates` lists it in `allTaxRates` before and as
 * `currentTaxRates` after. Per sandbox instance: the shops themselves (accounts.ts) are never changed.
 */
import { z } from 'zod';
import type { Shop, TaxGroup } from './accounts.ts';

export const TaxGroupSchema = z.object({
  validFrom: z.string().refine((s) => !Number.isNaN(Date.parse(s)), { message: 'Must be an ISO date' }),
  groupId: z.number().int().positive(),
  taxCategories: z
    .array(
      z.object({
        name: z.string().min(1),
        categoryType: z.number().int(),
        orderId: z.number().int(),
        taxRates: z.array(z.object({ rate: z.number().min(0), label: z.string().min(1) })).min(1),
      }),
    )
    .min(1),
});

export interface TaxSchedule {
  /** Announces `group` for every shop (tests use one shop per sandbox). */
  announce(group: TaxGroup): void;
  /** The shop as it is at `now`: its current group is the latest one in force. */
  shopAt(shop: Shop, now: number): Shop;
  clear(): void;
}

export function createTaxSchedule(): TaxSchedule {
  let announced: TaxGroup[] = [];
  return {
    announce(group) {
      announced = [...announced.filter((g) => g.groupId !== group.groupId), group];
    },
    shopAt(shop, now) {
      if (announced.length === 0) return shop;
      const all = [shop.current, ...shop.history, ...announced];
      const inForce = all
        .filter((g) => Date.parse(g.validFrom) <= now)
        .sort((a, b) => Date.parse(b.validFrom) - Date.parse(a.validFrom));
      const current = inForce[0] ?? shop.current;
      return { ...shop, current, history: all.filter((g) => g !== current) };
    },
    clear() {
      announced = [];
    },
  };
}
