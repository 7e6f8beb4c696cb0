/**
 * The pricing engine (issue 42, docs/prices.md): pure and deterministic. Given the catalog's regular prices,
 * the price lists and promotions the shop has, the moment of the sale (read in Europe/Belgrade), the buyer's PIB
 * and the cart's quantities, it says for each line the price in force, the line's total, its discount against the
 * regular price and the rule that gave it. The till runs it at the counter and again in the core at checkout; the
 * hub can run the same function over the same rules later.
 *
 * The rules, in short (the reasons are in docs/prices.md):
 * - One rule prices a line: of the lists and promotions that apply to it at that moment, the highest priority wins;
 *   ties go to a promotion before a list, a rule on the product before one on its group, then the lower id.
 * - A rule never raises a line above its regular price (the shelf's price is the most the till charges).
 * - Multi-buy ("3 for 2", "the second at half price") counts whole units of every line the promotion wins, over the
 *   whole cart: the cheapest units of each full set are the ones given free (or at the percentage off).
 * - A minimum quantity counts the cart's quantity of the promotion's product (or of its group).
 *
 * Money is integer para, quantities integer thousandths, percentages hundredths of a percent (−10 % = 1000 off).
 * `buildPriceIndex` is done once when the rules change; pricing a line then looks up only its product's code,
 * its group and the rules on everything: no scan of all rules per scan.
 */
import { changePriceByPercent } from '../catalog/price-change.ts';
import { lineTotal, type Milli, type Para } from '../money.ts';
import { wallClock } from '../i18n/time.ts';

/** When a rule applies, in the shop's wall clock (Europe/Belgrade). Every part absent means "always". */
export interface TimeWindow {
  /** First day it applies (ISO day), inclusive. */
  fromDay?: string | null;
  /** Last day it applies (ISO day), inclusive. */
  toDay?: string | null;
  /** Days of the week (1 = Monday … 7 = Sunday); empty or absent: every day. */
  weekdays?: readonly number[] | null;
  /** Minutes after midnight it starts (inclusive) and ends (exclusive) each day; 16:00–18:00 = 960–1080. */
  fromMinute?: number | null;
  toMinute?: number | null;
}

export type ListScope = { kind: 'shop' } | { kind: 'chain' } | { kind: 'buyer'; pib: string };

export interface PriceList {
  id: number;
  name: string;
  priority: number;
  scope: ListScope;
  window: TimeWindow;
  /** A set of prices by product code … */
  items: readonly { code: string; pricePara: Para }[];
  /** … and/or a rule: `percentBp` hundredths of a percent off every product of `group` (null: of every product). */
  rule: { group: string | null; percentOffBp: number } | null;
}

export type PromotionDeal =
  | { kind: 'price'; pricePara: Para }
  | { kind: 'percent'; percentOffBp: number }
  /** Buy `buy` units, pay for `pay` of them (3 for 2: buy 3, pay 2). */
  | { kind: 'multibuy'; buy: number; pay: number }
  /** Every `nth` unit at `percentOffBp` off (the second at half price: nth 2, 5000). */
  | { kind: 'nth'; nth: number; percentOffBp: number };

export interface Promotion {
  id: number;
  name: string;
  priority: number;
  target: { code: string } | { group: string };
  window: TimeWindow;
  deal: PromotionDeal;
  /** The cart must hold at least this much of the target (thousandths); null: any. */
  minQtyMilli: number | null;
}

/** A cart line as the engine prices it: the product's regular (catalog) price and the quantity. */
export interface PriceLineInput {
  code: string;
  group: string | null;
  regularPara: Para;
  quantityMilli: Milli;
}

export interface RuleRef {
  kind: 'list' | 'promotion';
  id: number;
  name: string;
}

export interface PricedLine {
  /** The catalog's price per unit: the price a promotion replaces. */
  regularPara: Para;
  /** The price per unit in force for this line (before a multi-buy's free units). */
  unitPara: Para;
  /** What the line costs: never more than `regularPara × quantity`. */
  totalPara: Para;
  /** `regularPara × quantity − totalPara` (≥ 0). */
  discountPara: Para;
  /** The rule that priced it, or null (the regular price). */
  rule: RuleRef | null;
}

export interface PricingContext {
  /** The moment of the sale (epoch ms). */
  at: number;
  /** The buyer's PIB (a business buyer), or null. */
  buyerPib: string | null;
}

/** The moment as the rules read it: Belgrade day, weekday (1–7) and minute of the day. */
export interface ShopMoment {
  day: string;
  weekday: number;
  minute: number;
}

/** The wall clock of `at` in Europe/Belgrade. */
export function shopMoment(at: number): ShopMoment {
  const c = wallClock(new Date(at));
  const day = `${c.year}-${c.month}-${c.day}`;
  // The weekday of a calendar day does not depend on a zone: computed from the day itself.
  const weekday = ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
  return { day, weekday, minute: Number(c.hour) * 60 + Number(c.minute) };
}

/** Does `w` hold at moment `m`? */
export function windowHolds(w: TimeWindow, m: ShopMoment): boolean {
  if (w.fromDay && m.day < w.fromDay) return false;
  if (w.toDay && m.day > w.toDay) return false;
  if (w.weekdays && w.weekdays.length > 0 && !w.weekdays.includes(m.weekday)) return false;
  const from = w.fromMinute ?? null;
  const to = w.toMinute ?? null;
  if (from !== null && to !== null) {
    // A window across midnight (22:00–02:00) holds from `from` to midnight and from midnight to `to`.
    if (from <= to ? m.minute < from || m.minute >= to : m.minute < from && m.minute >= to) return false;
  } else if (from !== null && m.minute < from) return false;
  else if (to !== null && m.minute >= to) return false;
  return true;
}

/** One candidate rule for a product, as the index keeps it (pre-sorted by precedence). */
interface Candidate {
  kind: 'list' | 'promotion';
  id: number;
  name: string;
  priority: number;
  /** 0: on the product itself, 1: on its group, 2: on everything. */
  reach: 0 | 1 | 2;
  window: TimeWindow;
  scope: ListScope | null;
  /** A list's price for the product (items) … */
  pricePara?: Para;
  /** … or a percentage off. */
  percentOffBp?: number;
  deal?: PromotionDeal;
  minQtyMilli?: number | null;
  promotion?: Promotion;
}

/** The rules indexed by product code and group, each bucket sorted by precedence. Build once per change of rules. */
export interface PriceIndex {
  byCode: ReadonlyMap<string, readonly Candidate[]>;
  byGroup: ReadonlyMap<string, readonly Candidate[]>;
  everywhere: readonly Candidate[];
  /** How many lists and promotions it holds. */
  size: { lists: number; promotions: number };
}

/** Precedence: higher priority, then a promotion before a list, the product before its group, then the lower id. */
function precedes(a: Candidate, b: Candidate): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.kind !== b.kind) return a.kind === 'promotion' ? -1 : 1;
  if (a.reach !== b.reach) return a.reach - b.reach;
  return a.id - b.id;
}

function push(map: Map<string, Candidate[]>, key: string, c: Candidate): void {
  const list = map.get(key);
  if (list) list.push(c);
  else map.set(key, [c]);
}

export function buildPriceIndex(lists: readonly PriceList[], promotions: readonly Promotion[]): PriceIndex {
  const byCode = new Map<string, Candidate[]>();
  const byGroup = new Map<string, Candidate[]>();
  const everywhere: Candidate[] = [];
  for (const l of lists) {
    const base = { kind: 'list' as const, id: l.id, name: l.name, priority: l.priority, window: l.window };
    for (const item of l.items)
      push(byCode, item.code, { ...base, scope: l.scope, reach: 0, pricePara: item.pricePara });
    if (l.rule) {
      const c: Candidate = {
        ...base,
        scope: l.scope,
        reach: l.rule.group === null ? 2 : 1,
        percentOffBp: l.rule.percentOffBp,
      };
      if (l.rule.group === null) everywhere.push(c);
      else push(byGroup, l.rule.group, c);
    }
  }
  for (const p of promotions) {
    const c: Candidate = {
      kind: 'promotion',
      id: p.id,
      name: p.name,
      priority: p.priority,
      window: p.window,
      scope: null,
      reach: 'code' in p.target ? 0 : 1,
      deal: p.deal,
      minQtyMilli: p.minQtyMilli,
      promotion: p,
    };
    if ('code' in p.target) push(byCode, p.target.code, c);
    else push(byGroup, p.target.group, c);
  }
  for (const list of byCode.values()) list.sort(precedes);
  for (const list of byGroup.values()) list.sort(precedes);
  everywhere.sort(precedes);
  return { byCode, byGroup, everywhere, size: { lists: lists.length, promotions: promotions.length } };
}

/** The cart's quantity per product code and per group: what minimum quantities count. */
function cartQuantities(lines: readonly PriceLineInput[]): { code: Map<string, number>; group: Map<string, number> } {
  const code = new Map<string, number>();
  const group = new Map<string, number>();
  for (const l of lines) {
    code.set(l.code, (code.get(l.code) ?? 0) + l.quantityMilli);
    if (l.group !== null) group.set(l.group, (group.get(l.group) ?? 0) + l.quantityMilli);
  }
  return { code, group };
}

function applies(
  c: Candidate,
  line: PriceLineInput,
  m: ShopMoment,
  ctx: PricingContext,
  qty: ReturnType<typeof cartQuantities>,
): boolean {
  if (!windowHolds(c.window, m)) return false;
  if (c.scope?.kind === 'buyer' && c.scope.pib !== ctx.buyerPib) return false;
  if (c.minQtyMilli) {
    const have = c.reach === 0 ? (qty.code.get(line.code) ?? 0) : line.group ? (qty.group.get(line.group) ?? 0) : 0;
    if (have < c.minQtyMilli) return false;
  }
  // A multi-buy counts whole units: a weighed or fractional line is not in one.
  const deal = c.deal;
  if (deal && (deal.kind === 'multibuy' || deal.kind === 'nth') && line.quantityMilli % 1000 !== 0) return false;
  return true;
}

/** The winning rule of a line: the first candidate in precedence order (merged from its three buckets). */
function winner(
  index: PriceIndex,
  line: PriceLineInput,
  m: ShopMoment,
  ctx: PricingContext,
  qty: ReturnType<typeof cartQuantities>,
): Candidate | null {
  let best: Candidate | null = null;
  const buckets = [
    index.byCode.get(line.code),
    line.group ? index.byGroup.get(line.group) : undefined,
    index.everywhere,
  ];
  for (const bucket of buckets) {
    if (!bucket) continue;
    // Each bucket is sorted: its first candidate that applies is its best; stop once nothing can beat `best`.
    for (const c of bucket) {
      if (best && precedes(best, c) <= 0) break;
      if (applies(c, line, m, ctx, qty)) {
        best = c;
        break;
      }
    }
  }
  return best;
}

/** The unit price a simple rule gives (never above the regular price). Multi-buy keeps the regular unit price. */
function unitUnder(c: Candidate, regular: Para): Para {
  let unit = regular;
  if (c.pricePara !== undefined) unit = c.pricePara;
  else if (c.percentOffBp !== undefined) unit = changePriceByPercent(regular, -c.percentOffBp);
  else if (c.deal?.kind === 'price') unit = c.deal.pricePara;
  else if (c.deal?.kind === 'percent') unit = changePriceByPercent(regular, -c.deal.percentOffBp);
  return Math.min(unit, regular);
}

/**
 * Prices a whole cart at one moment: each line's price in force, total, discount and rule. Lines of the same
 * product are priced alike; a multi-buy is resolved over every line its promotion wins.
 */
export function priceCart(index: PriceIndex, lines: readonly PriceLineInput[], ctx: PricingContext): PricedLine[] {
  const m = shopMoment(ctx.at);
  const qty = cartQuantities(lines);
  const out: PricedLine[] = [];
  // The lines each multi-buy promotion won, to be resolved over the cart once all are known.
  const sets = new Map<number, { deal: PromotionDeal; lines: number[] }>();
  lines.forEach((line, i) => {
    const c = winner(index, line, m, ctx, qty);
    const regular = line.regularPara;
    if (!c) {
      const total = lineTotal(regular, line.quantityMilli);
      out.push({ regularPara: regular, unitPara: regular, totalPara: total, discountPara: 0, rule: null });
      return;
    }
    const unit = unitUnder(c, regular);
    const gross = lineTotal(regular, line.quantityMilli);
    const total = lineTotal(unit, line.quantityMilli);
    out.push({
      regularPara: regular,
      unitPara: unit,
      totalPara: total,
      discountPara: gross - total,
      rule: { kind: c.kind, id: c.id, name: c.name },
    });
    if (c.deal && (c.deal.kind === 'multibuy' || c.deal.kind === 'nth')) {
      const set = sets.get(c.id);
      if (set) set.lines.push(i);
      else sets.set(c.id, { deal: c.deal, lines: [i] });
    }
  });
  for (const set of sets.values()) resolveMultiBuy(set.deal, set.lines, out, lines);
  // A multi-buy that found no full set gave nothing: the line is at its regular price, named by no rule.
  for (const p of out) if (p.rule && p.discountPara === 0 && p.unitPara === p.regularPara) p.rule = null;
  return out;
}

/**
 * Gives a multi-buy's discount over its lines: the units sorted dearest first (then by line), cut into sets of
 * `buy` (or `nth`); in each full set the cheapest `buy − pay` units are free (or the last one is `percentOffBp` off).
 */
function resolveMultiBuy(deal: PromotionDeal, lineIdx: number[], out: PricedLine[], lines: readonly PriceLineInput[]) {
  const units: { line: number; price: Para }[] = [];
  for (const i of lineIdx) {
    const n = (lines[i] as PriceLineInput).quantityMilli / 1000;
    const price = (out[i] as PricedLine).unitPara;
    for (let k = 0; k < n; k++) units.push({ line: i, price });
  }
  units.sort((a, b) => b.price - a.price || a.line - b.line);
  const size = deal.kind === 'multibuy' ? deal.buy : deal.kind === 'nth' ? deal.nth : 0;
  if (size <= 0) return;
  const off = new Map<number, number>();
  for (let start = 0; start + size <= units.length; start += size) {
    const set = units.slice(start, start + size);
    if (deal.kind === 'multibuy') {
      for (const u of set.slice(deal.pay)) off.set(u.line, (off.get(u.line) ?? 0) + u.price);
    } else if (deal.kind === 'nth') {
      const last = set[size - 1] as { line: number; price: Para };
      const cut = last.price - changePriceByPercent(last.price, -deal.percentOffBp);
      off.set(last.line, (off.get(last.line) ?? 0) + cut);
    }
  }
  for (const i of lineIdx) {
    const p = out[i] as PricedLine;
    const cut = off.get(i) ?? 0;
    p.totalPara -= cut;
    p.discountPara += cut;
  }
}
