/**
 * Price lists, promotions and scheduled price changes at the store hub (issue 42, docs/prices.md "At the hub"):
 * the manager's inputs (the till's own schemas of shared/contract/prices.ts, with where the rule holds: the shop or
 * every shop of the chain) and the rows the tills pull, which the till checks with these schemas before it stores
 * them (a row that does not parse is left out with a warning, as a shop setting is).
 */
import { z } from 'zod';
import { PriceListInput, PromotionInput, ScheduleInput } from '../contract/prices.ts';
import type { PriceListView, PromotionView, ScheduledPriceView } from '../contract/prices.ts';
import { shopId } from './protocol.ts';

/** Where a rule set at the hub holds: the shop it is set for, or every shop of the hub's chain. */
export const PriceWhere = z.enum(['shop', 'chain'], { error: 'prices_where' });
export type PriceWhere = z.infer<typeof PriceWhere>;

const hubId = z.number({ error: 'number' }).int({ error: 'integer' }).positive({ error: 'integer' });

export const HubPriceListInput = PriceListInput.omit({ managerPin: true, id: true }).extend({
  shopId,
  id: hubId.optional(),
  where: PriceWhere,
});
export type HubPriceListInput = z.infer<typeof HubPriceListInput>;

export const HubPromotionInput = PromotionInput.omit({ managerPin: true, id: true }).extend({
  shopId,
  id: hubId.optional(),
  where: PriceWhere,
});
export type HubPromotionInput = z.infer<typeof HubPromotionInput>;

/**
 * A scheduled change of a product's price in the shop it is set for, or in every shop of the chain that has the
 * product (`where`, the shop when absent). At the same moment a shop's own change of the product wins over the
 * chain's there (docs/prices.md "At the hub").
 */
export const HubScheduleInput = ScheduleInput.omit({ managerPin: true }).extend({
  shopId,
  where: PriceWhere.optional(),
});
export type HubScheduleInput = z.infer<typeof HubScheduleInput>;

/** A list or promotion deleted, or a pending scheduled change cancelled. */
export const HubPriceDeleteInput = z.object({ shopId, id: hubId });

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const minute = z.number().int().min(0).max(1440).nullable();
const windowRow = {
  from_day: day.nullable(),
  to_day: day.nullable(),
  weekdays: z
    .string()
    .regex(/^[1-7]{1,7}$/)
    .nullable(),
  from_minute: minute,
  to_minute: minute,
};
const para = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const percentBp = z.number().int().min(1).max(10_000).nullable();
const code = z.string().min(1).max(32);
const name = z.string().min(1).max(60);
const priority = z.number().int().min(0).max(1000);

/** A price list's row as the hub stores and sends it (shared/prices/rules.ts `ListRowData`). */
export const HubListRow = z.object({
  ...windowRow,
  name,
  priority,
  scope: z.enum(['shop', 'chain', 'buyer']),
  buyer_pib: z
    .string()
    .regex(/^\d{9}$/)
    .nullable(),
  rule_group: z.string().max(60).nullable(),
  rule_percent_bp: percentBp,
  items: z.array(z.object({ code, price_para: para })).max(20_000),
});

/** A promotion's row (shared/prices/rules.ts `PromotionRowData`). */
export const HubPromotionRow = z.object({
  ...windowRow,
  from_day: day,
  to_day: day,
  name,
  priority,
  target_code: code.nullable(),
  target_group: z.string().min(1).max(60).nullable(),
  kind: z.enum(['price', 'percent', 'multibuy', 'nth']),
  price_para: para.nullable(),
  percent_bp: percentBp,
  buy: z.number().int().min(2).max(100).nullable(),
  pay: z.number().int().min(1).max(100).nullable(),
  nth: z.number().int().min(2).max(100).nullable(),
  min_qty_milli: z.number().int().positive().nullable(),
});

/** A scheduled change's row: the product, the new price, the moment, and what became of it. */
export const HubScheduledRow = z.object({
  code,
  price_para: para,
  at: z.iso.datetime({ offset: true }),
  state: z.enum(['pending', 'applied', 'cancelled', 'skipped']),
});

const change = { id: hubId, version: z.number().int().positive(), deleted: z.boolean() };

/** One rule the till pulls after its cursor (`ChangesResult.prices`): the whole rule by the hub's id, or `deleted`. */
export const HubPriceChange = z.discriminatedUnion('kind', [
  z.object({ ...change, kind: z.literal('list'), data: HubListRow }),
  z.object({ ...change, kind: z.literal('promotion'), data: HubPromotionRow }),
  z.object({ ...change, kind: z.literal('scheduled'), data: HubScheduledRow }),
]);
export type HubPriceChange = z.infer<typeof HubPriceChange>;
export type HubListRow = z.infer<typeof HubListRow>;
export type HubPromotionRow = z.infer<typeof HubPromotionRow>;
export type HubScheduledRow = z.infer<typeof HubScheduledRow>;

/** The hub UI's view of a shop's rules: the till's views, each with where it holds. */
export interface HubPrices {
  lists: (PriceListView & { where: PriceWhere })[];
  promotions: (PromotionView & { where: PriceWhere })[];
  scheduled: (ScheduledPriceView & { where: PriceWhere })[];
}
