/**
 * Prices (issue 42, owned by electron/prices, docs/prices.md): price lists, promotions and scheduled price changes
 * of this shop, and the price in force of a cart. A manager sets them (their PIN travels with the command, or the
 * manager logged in is taken); everyone reads them and prices a cart by them.
 *
 * Money is decimal RSD on the wire (para inside), percentages decimal with at most two decimals (12,5 %), times of
 * day `HH:MM` and days `YYYY-MM-DD` in the shop's zone (Europe/Belgrade), moments ISO.
 */
import { z } from 'zod';
import { command, managerOnRecord } from './define.ts';
import * as s from './schemas.ts';
import type { Para, Milli } from '../money.ts';

const { managerPin } = s;

/** A time of day, `HH:MM` (24 h); `24:00` ends a day. */
const timeOfDay = z
  .string({ error: 'text' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, { error: 'prices_time' })
  .nullable()
  .optional();

/** A percentage off: more than 0, at most 100, two decimals. */
const percentOff = z
  .number({ error: 'number' })
  .finite({ error: 'number' })
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { error: 'amount_decimals' })
  .refine((v) => v > 0 && v <= 100, { error: 'goods_percent_range' });

const priority = s.wholeNumber(0, 1000, { below: 'non_negative', above: 'prices_priority_range' });

const groupName = s.text(60);

/** When a list or a promotion applies (all in Europe/Belgrade). */
const windowFields = {
  fromDay: s.calendarDate.nullable().optional(),
  toDay: s.calendarDate.nullable().optional(),
  /** 1 = Monday … 7 = Sunday; empty: every day. */
  weekdays: z
    .array(
      z.number({ error: 'number' }).int({ error: 'integer' }).min(1, { error: 'weekday' }).max(7, { error: 'weekday' }),
      {
        error: 'weekdays',
      },
    )
    .max(7, { error: 'too_many' })
    .optional(),
  fromTime: timeOfDay,
  toTime: timeOfDay,
};

interface WindowView {
  fromDay: string | null;
  toDay: string | null;
  weekdays: number[];
  fromTime: string | null;
  toTime: string | null;
}

export const PriceListInput = z.strictObject({
  managerPin,
  /** Absent: a new list. */
  id: s.id.optional(),
  name: s.text(60),
  priority,
  scope: z.enum(['shop', 'chain', 'buyer'], { error: 'prices_scope' }),
  /** The business buyer's PIB, for (only for) scope `buyer`. */
  buyerPib: s.pib.nullable().optional(),
  ...windowFields,
  /** Prices of products by code. */
  items: z
    .array(z.strictObject({ code: s.text(32), price: s.nonNegativeAmount }), { error: 'items' })
    .max(20_000, { error: 'too_many' }),
  /** A rule: `rulePercent` off the products of `ruleGroup` (null: of every product). */
  ruleGroup: groupName.nullable().optional(),
  rulePercent: percentOff.nullable().optional(),
});
export type PriceListInput = z.infer<typeof PriceListInput>;

export const PROMOTION_KINDS = ['price', 'percent', 'multibuy', 'nth'] as const;
export type PromotionKind = (typeof PROMOTION_KINDS)[number];

const count = (min: number) => s.wholeNumber(min, 100, { below: 'prices_count_range', above: 'prices_count_range' });

export const PromotionInput = z.strictObject({
  managerPin,
  id: s.id.optional(),
  name: s.text(40),
  priority,
  /** The product (by code) or the group it is on: one of them. */
  code: s.text(32).nullable().optional(),
  group: groupName.nullable().optional(),
  kind: z.enum(PROMOTION_KINDS, { error: 'prices_kind' }),
  /** `price`: the promotional price. */
  price: s.nonNegativeAmount.nullable().optional(),
  /** `percent` and `nth`: the percentage off. */
  percent: percentOff.nullable().optional(),
  /** `multibuy`: buy this many … */
  buy: count(2).nullable().optional(),
  /** … pay for this many. */
  pay: count(1).nullable().optional(),
  /** `nth`: every n-th unit (2: the second). */
  nth: count(2).nullable().optional(),
  /** The cart must hold at least this much of it. */
  minQuantity: s.quantity.nullable().optional(),
  ...windowFields,
  fromDay: s.calendarDate,
  toDay: s.calendarDate,
});
export type PromotionInput = z.infer<typeof PromotionInput>;

export const ScheduleInput = z.strictObject({
  managerPin,
  code: s.text(32),
  price: s.nonNegativeAmount,
  /** The moment it takes effect (ISO); in the future. */
  at: z.string({ error: 'text' }).refine((v) => !Number.isNaN(Date.parse(v)) && /T/.test(v), { error: 'date' }),
});
export type ScheduleInput = z.infer<typeof ScheduleInput>;

export interface PriceListView extends WindowView {
  id: number;
  name: string;
  priority: number;
  scope: 'shop' | 'chain' | 'buyer';
  buyerPib: string | null;
  items: { code: string; name: string | null; pricePara: Para }[];
  ruleGroup: string | null;
  /** Hundredths of a percent off. */
  rulePercentBp: number | null;
  /** Applies at this moment (its window holds; a buyer's list: for that buyer). */
  inForce: boolean;
  /** Set at the store hub (the till only applies it; docs/prices.md „At the hub“). */
  fromHub: boolean;
}

export interface PromotionView extends WindowView {
  id: number;
  name: string;
  priority: number;
  code: string | null;
  /** The product's name when `code` names one the catalog has. */
  productName: string | null;
  group: string | null;
  kind: PromotionKind;
  pricePara: Para | null;
  percentBp: number | null;
  buy: number | null;
  pay: number | null;
  nth: number | null;
  minQtyMilli: Milli | null;
  inForce: boolean;
  /** Set at the store hub. */
  fromHub: boolean;
}

export interface ScheduledPriceView {
  id: number;
  code: string;
  name: string | null;
  pricePara: Para;
  /** The price when it was applied (or the catalog's now, while pending). */
  oldPricePara: Para | null;
  at: string;
  state: 'pending' | 'applied' | 'cancelled' | 'skipped';
  appliedAt: string | null;
  /** Scheduled at the store hub. */
  fromHub: boolean;
}

/** What is in force now and what changes next, for the manager. */
export interface PricesOverview {
  lists: PriceListView[];
  promotions: PromotionView[];
  scheduled: ScheduledPriceView[];
  /** The next moments something changes: a scheduled price, a promotion or a list starting or ending. */
  next: { at: string; what: 'scheduled' | 'starts' | 'ends'; name: string }[];
}

/** A cart line priced by the rules in force. */
export interface PricedLineView {
  code: string;
  productId: number;
  regularPara: Para;
  unitPara: Para;
  totalPara: Para;
  discountPara: Para;
  rule: { kind: 'list' | 'promotion'; id: number; name: string } | null;
}

export const QuoteInput = z.strictObject({
  lines: z
    .array(
      z
        .strictObject({ code: s.text(32).optional(), productId: s.id.optional(), quantity: s.quantity })
        .refine((l) => l.code !== undefined || l.productId !== undefined, { error: 'required', path: ['code'] }),
      { error: 'lines' },
    )
    .max(500, { error: 'too_many' }),
  buyerId: s.buyerId.optional(),
});

export const pricesCommands = {
  'prices.overview': command<PricesOverview>('session')(
    s.empty,
    'Every price list, promotion and scheduled price change of this shop, which are in force now, and what ' +
      'changes next.',
  ),
  'prices.quote': command<PricedLineView[]>('session')(
    QuoteInput,
    'The price in force of each cart line now (Europe/Belgrade), for this buyer: the regular price, the price in ' +
      'force, the line total and discount and the list or promotion that gave it; multi-buy resolved over the cart. ' +
      'An unknown product code is refused at its line.',
  ),
  'prices.listPut': command<PriceListView>('manager')(
    PriceListInput,
    'Adds a price list, or replaces one by `id` with its items, in one transaction (audited). Refused at the ' +
      'field: a window ending before it starts, a buyer list without a valid PIB (or a PIB on another scope), an ' +
      'unknown product code, a list with neither items nor a rule.',
  ),
  'prices.listDelete': managerOnRecord<{ deleted: boolean }>('Deletes a price list with its items (audited).'),
  'prices.promotionPut': command<PromotionView>('manager')(
    PromotionInput,
    'Adds a promotion, or replaces one by `id` (audited). Refused at the field: ending before it starts, an ' +
      'unknown product, a deal without its figures, pay ≥ buy, and a promotion on the same product or group with ' +
      'the same priority whose period overlaps (at `priority`).',
  ),
  'prices.promotionDelete': managerOnRecord<{ deleted: boolean }>('Deletes a promotion (audited).'),
  'prices.schedule': command<ScheduledPriceView>('manager')(
    ScheduleInput,
    "Schedules a product's new regular price from a moment on (audited): applied once at that moment, or at the " +
      'first start after it, through the catalog with its price change record. A moment in the past is refused.',
  ),
  'prices.scheduleCancel': managerOnRecord<ScheduledPriceView>(
    'Cancels a pending scheduled price change (audited); one already applied is refused.',
  ),
} as const;
