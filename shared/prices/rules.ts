/**
 * The rules a price list, a promotion and a scheduled price change must keep before they are stored (issue 42,
 * docs/prices.md "Bad input"): one copy, used by the till (electron/prices/service.ts) and by the store hub
 * (hub/services/prices.ts). Each check turns an input the contract's schema took into the row the tables keep
 * (money in para, percentages in hundredths of a percent, times in minutes of the day), or refuses it at its field
 * through `refuse` (the till raises its CommandError, the hub its HubError), so nothing half-checked is stored.
 */
import type {
  PriceListInput,
  PriceListView,
  PromotionInput,
  PromotionKind,
  PromotionView,
  ScheduleInput,
} from '../contract/prices.ts';
import { toMilli, toPara, type Para } from '../money.ts';
import { shopMoment, windowHolds, type TimeWindow } from './engine.ts';

const DAY = 86_400_000;

/** The longest „акцијска продаја“ in days, both ends included (Закон о трговини, čl. 37 st. 7; docs/prices.md). */
export const PROMOTION_MAX_DAYS = 31;

/** Refuses an input at its field with a message key (shared/messages.ts) and its parameters. */
export type Refuse = (field: string, code: string, params?: Record<string, string | number>) => never;

/** What the checks ask of the catalog the rules apply to. */
export interface RuleCatalog {
  product(code: string): { pricePara: Para } | null;
  hasGroup(name: string): boolean;
  /** The code of the product a barcode is of (a list's item may name its product by one: a CSV import). */
  codeOfBarcode?(barcode: string): string | null;
}

/**
 * When a rule applies, as the tables keep it (days ISO, weekdays as digits 1…7, minutes of the day). `Day` is the
 * type of its first and last day: a price list's may be open (null), a promotion's never is (its input and its
 * table require both), so the two row types below say so and no reader has to guess.
 */
export interface WindowRow<Day extends string | null = string | null> {
  from_day: Day;
  to_day: Day;
  weekdays: string | null;
  from_minute: number | null;
  to_minute: number | null;
}

/** A price list's row: its days may be open. */
export interface ListRowData extends WindowRow {
  name: string;
  priority: number;
  scope: 'shop' | 'chain' | 'buyer';
  buyer_pib: string | null;
  rule_group: string | null;
  rule_percent_bp: number | null;
  items: { code: string; price_para: Para }[];
}

/** A promotion's row: a period of days, always both ends (an „акцијска продаја“ is bounded, see above). */
export interface PromotionRowData extends WindowRow<string> {
  name: string;
  priority: number;
  target_code: string | null;
  target_group: string | null;
  kind: PromotionKind;
  price_para: number | null;
  percent_bp: number | null;
  buy: number | null;
  pay: number | null;
  nth: number | null;
  min_qty_milli: number | null;
}

/** A promotion already stored, as the overlap check reads it. */
export interface PromotionClash {
  id: number | string;
  name: string;
  priority: number;
  target_code: string | null;
  target_group: string | null;
  from_day: string;
  to_day: string;
}

/** `HH:MM` → minutes of the day; null stays null. */
export function minutesOf(t: string | null | undefined): number | null {
  if (!t) return null;
  const [h, m] = t.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

/** Hundredths of a percent from a decimal percentage (12.5 → 1250). */
export const bp = (percent: number): number => Math.round(percent * 100);

/** Do two day ranges (inclusive, open ends) share a day? */
export function daysOverlap(
  aFrom: string | null,
  aTo: string | null,
  bFrom: string | null,
  bTo: string | null,
): boolean {
  return (aTo === null || bFrom === null || bFrom <= aTo) && (bTo === null || aFrom === null || aFrom <= bTo);
}

/** The window fields of an input, checked: a window ending before it starts is refused at its end. */
export function windowRow<Day extends string | null>(
  input: {
    fromDay?: Day | undefined;
    toDay?: Day | undefined;
    weekdays?: number[] | undefined;
    fromTime?: string | null | undefined;
    toTime?: string | null | undefined;
  },
  refuse: Refuse,
): WindowRow<Day> {
  const fromDay = (input.fromDay ?? null) as Day;
  const toDay = (input.toDay ?? null) as Day;
  for (const [field, day] of [
    ['fromDay', fromDay],
    ['toDay', toDay],
  ] as const)
    if (day !== null && Number.isNaN(Date.parse(`${day}T00:00:00Z`))) refuse(field, 'date');
  if (fromDay !== null && toDay !== null && toDay < fromDay) refuse('toDay', 'date_order');
  const fromMinute = minutesOf(input.fromTime);
  const toMinute = minutesOf(input.toTime);
  if ((fromMinute === null) !== (toMinute === null))
    refuse(fromMinute === null ? 'fromTime' : 'toTime', 'prices_time_pair');
  if (fromMinute !== null && fromMinute === toMinute) refuse('toTime', 'prices_time_empty');
  const weekdays = input.weekdays && input.weekdays.length > 0 ? [...new Set(input.weekdays)].sort().join('') : null;
  return { from_day: fromDay, to_day: toDay, weekdays, from_minute: fromMinute, to_minute: toMinute };
}

/**
 * A price list checked: a buyer list needs a PIB (and only a buyer list has one), a rule's group needs its
 * percentage, a list has prices or a rule, each item names a known product once, a rule's group exists.
 */
export function checkPriceList(
  input: Omit<PriceListInput, 'managerPin' | 'id'>,
  catalog: RuleCatalog,
  refuse: Refuse,
): ListRowData {
  const win = windowRow<string | null>(input, refuse);
  const pib = input.buyerPib ?? null;
  if (input.scope === 'buyer' && pib === null) refuse('buyerPib', 'required');
  if (input.scope !== 'buyer' && pib !== null) refuse('buyerPib', 'prices_pib_scope');
  const rulePercent = input.rulePercent ?? null;
  if (input.ruleGroup && rulePercent === null) refuse('rulePercent', 'required');
  if (input.items.length === 0 && rulePercent === null) refuse('items', 'prices_list_empty');
  const seen = new Set<string>();
  // An item by its product's code, or by one of its barcodes (stored by the product's code).
  const codes = input.items.map((it, i) => {
    const code = catalog.product(it.code) ? it.code : catalog.codeOfBarcode?.(it.code);
    if (!code) return refuse(`items.${i}.code`, 'goods_unknown_product', { value: it.code });
    if (seen.has(code)) refuse(`items.${i}.code`, 'prices_item_twice', { value: it.code });
    seen.add(code);
    return code;
  });
  if (input.ruleGroup && !catalog.hasGroup(input.ruleGroup))
    refuse('ruleGroup', 'prices_unknown_group', { value: input.ruleGroup });
  return {
    name: input.name,
    priority: input.priority,
    scope: input.scope,
    buyer_pib: pib,
    ...win,
    rule_group: rulePercent === null ? null : (input.ruleGroup ?? null),
    rule_percent_bp: rulePercent === null ? null : bp(rulePercent),
    items: input.items.map((it, i) => ({ code: codes[i] ?? it.code, price_para: toPara(it.price) ?? 0 })),
  };
}

/**
 * A promotion checked: on a known product or an existing group (one of them), its deal's figures given, pay < buy,
 * a promotional price below the regular one, and no other promotion on the same product or group with the same
 * priority in an overlapping period (`others`: the promotions it would sit beside; `selfId` is left out).
 */
export function checkPromotion(
  input: Omit<PromotionInput, 'managerPin' | 'id'>,
  catalog: RuleCatalog,
  others: readonly PromotionClash[],
  selfId: number | string | undefined,
  refuse: Refuse,
): PromotionRowData {
  const win = windowRow<string>(input, refuse);
  const code = input.code ?? null;
  const group = input.group ?? null;
  if ((code === null) === (group === null)) refuse('code', 'prices_target');
  const product = code !== null ? catalog.product(code) : null;
  if (code !== null && !product) refuse('code', 'goods_unknown_product', { value: code });
  if (group !== null && !catalog.hasGroup(group)) refuse('group', 'prices_unknown_group', { value: group });
  const need = (field: 'price' | 'percent' | 'buy' | 'pay' | 'nth'): number => {
    const v = input[field];
    if (v === null || v === undefined) return refuse(field, 'required');
    return v;
  };
  const figures = { price_para: null, percent_bp: null, buy: null, pay: null, nth: null } as Pick<
    PromotionRowData,
    'price_para' | 'percent_bp' | 'buy' | 'pay' | 'nth'
  >;
  if (input.kind === 'price') figures.price_para = toPara(need('price')) ?? 0;
  if (input.kind === 'percent') figures.percent_bp = bp(need('percent'));
  if (input.kind === 'multibuy') {
    figures.buy = need('buy');
    figures.pay = need('pay');
    if (figures.pay >= figures.buy) refuse('pay', 'prices_pay_buy');
  }
  if (input.kind === 'nth') {
    figures.nth = need('nth');
    figures.percent_bp = bp(need('percent'));
  }
  // An „акцијска продаја“ (goods sold below their previous price) lasts at most 31 days (Закон о трговини,
  // čl. 37; docs/prices.md). A multi-buy sells more for the same price, another kind of discount: not bounded.
  if (input.kind !== 'multibuy') {
    const days =
      Math.round((Date.parse(`${win.to_day}T00:00:00Z`) - Date.parse(`${win.from_day}T00:00:00Z`)) / DAY) + 1;
    if (days > PROMOTION_MAX_DAYS) refuse('toDay', 'prices_promotion_31_days', { days });
  }
  if (input.kind === 'price' && product && (figures.price_para ?? 0) >= product.pricePara)
    refuse('price', 'prices_not_lower');
  // Two promotions on the same product (or group) with the same priority in overlapping periods: the till could
  // not say which one the shelf shows. Refused at the priority, naming the other.
  const clash = others.find(
    (p) =>
      p.id !== selfId &&
      p.priority === input.priority &&
      p.target_code === code &&
      p.target_group === group &&
      daysOverlap(p.from_day, p.to_day, win.from_day, win.to_day),
  );
  if (clash) refuse('priority', 'prices_promotion_overlap', { other: clash.name });
  return {
    name: input.name,
    priority: input.priority,
    target_code: code,
    target_group: group,
    kind: input.kind,
    ...figures,
    min_qty_milli: input.minQuantity ? (toMilli(input.minQuantity) ?? null) : null,
    ...win,
  };
}

/** A scheduled price change checked: a known product, a moment in the future, a price other than today's. */
export function checkSchedule(
  input: Omit<ScheduleInput, 'managerPin'>,
  catalog: RuleCatalog,
  now: number,
  refuse: Refuse,
): { code: string; price_para: Para; at: string } {
  const product = catalog.product(input.code);
  if (!product) return refuse('code', 'goods_unknown_product', { value: input.code });
  const at = Date.parse(input.at);
  if (at <= now) refuse('at', 'prices_at_past');
  const pricePara = toPara(input.price) ?? 0;
  if (pricePara === product.pricePara) refuse('price', 'prices_same_price');
  return { code: input.code, price_para: pricePara, at: new Date(at).toISOString() };
}

function timeOf(minutes: number | null): string | null {
  if (minutes === null) return null;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export function weekdaysOf(s: string | null): number[] {
  return s ? [...s].map(Number) : [];
}

/** A stored window as the engine reads it. */
export function windowOf(r: WindowRow): TimeWindow {
  return {
    fromDay: r.from_day,
    toDay: r.to_day,
    weekdays: weekdaysOf(r.weekdays),
    fromMinute: r.from_minute,
    toMinute: r.to_minute,
  };
}

/** A stored window as the views show it (times `HH:MM`). */
function windowView(r: WindowRow) {
  return {
    fromDay: r.from_day,
    toDay: r.to_day,
    weekdays: weekdaysOf(r.weekdays),
    fromTime: timeOf(r.from_minute),
    toTime: timeOf(r.to_minute),
  };
}

/** A stored list as the manager sees it, at the moment `at` (is it in force?). */
export function listViewOf(
  id: number,
  r: Omit<ListRowData, 'items'>,
  items: readonly { code: string; pricePara: Para }[],
  productName: (code: string) => string | null,
  at: number,
  fromHub: boolean,
): PriceListView {
  return {
    id,
    name: r.name,
    priority: r.priority,
    scope: r.scope,
    buyerPib: r.buyer_pib,
    ...windowView(r),
    items: items.map((i) => ({ code: i.code, name: productName(i.code), pricePara: i.pricePara })),
    ruleGroup: r.rule_group,
    rulePercentBp: r.rule_percent_bp,
    inForce: windowHolds(windowOf(r), shopMoment(at)),
    fromHub,
  };
}

/** A stored promotion as the manager sees it, at the moment `at`. */
export function promotionViewOf(
  id: number,
  p: PromotionRowData,
  productName: (code: string) => string | null,
  at: number,
  fromHub: boolean,
): PromotionView {
  return {
    id,
    name: p.name,
    priority: p.priority,
    code: p.target_code,
    productName: p.target_code ? productName(p.target_code) : null,
    group: p.target_group,
    kind: p.kind,
    pricePara: p.price_para,
    percentBp: p.percent_bp,
    buy: p.buy,
    pay: p.pay,
    nth: p.nth,
    minQtyMilli: p.min_qty_milli,
    ...windowView(p),
    inForce: windowHolds(windowOf(p), shopMoment(at)),
    fromHub,
  };
}
