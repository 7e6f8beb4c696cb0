/**
 * The fault plan of the sandbox: an ordered list of rules matched against "METHOD /path"; the first
 * rule that matches (and whose probability roll passes) is applied to the request and consumes one
 * of its `times`. Probabilities use a seeded PRNG so a run is reproducible.
 */
import { z } from 'zod';

/**
 * `wrong_total`: the request is processed, but the receipt in the reply says 1.00 RSD more than was
 * issued — a receipt with the right order number that is not this order's (what a reused order number
 * looks like from the till).
 */
export const FAULT_ACTIONS = [
  'drop_before',
  'drop_after',
  'error500',
  'delay',
  'hang',
  'malformed',
  'wrong_total',
] as const;
/** What to do to a matching request. */
export type FaultAction = (typeof FAULT_ACTIONS)[number];

export const FaultRuleSchema = z.object({
  match: z.string().optional(),
  action: z.enum(FAULT_ACTIONS),
  times: z.number().int().min(0).optional(),
  probability: z.number().min(0).max(1).optional(),
  delayMs: z.number().min(0).max(600_000).optional(),
});
/** One fault rule. `match` is a substring of "METHOD /path" (no query); absent matches everything. */
export type FaultRule = z.infer<typeof FaultRuleSchema>;

export const FaultPlanSchema = z.object({
  rules: z.array(FaultRuleSchema),
  seed: z.number().int().optional(),
});

/** mulberry32: a small deterministic PRNG returning [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const DEFAULT_SEED = 20240101;

/** The current plan with remaining counts. */
export class FaultPlan {
  #rules: { rule: FaultRule; remaining: number }[] = [];
  #random: () => number = mulberry32(DEFAULT_SEED);

  /** Replaces the plan; a seed (default fixed) restarts the PRNG. */
  set(rules: readonly FaultRule[], seed: number = DEFAULT_SEED): void {
    this.#rules = rules.map((rule) => ({ rule: { ...rule }, remaining: rule.times ?? Number.POSITIVE_INFINITY }));
    this.#random = mulberry32(seed);
  }

  /** The rule to apply to this request, if any (consumes one of its times). */
  pick(methodAndPath: string): FaultRule | null {
    for (const entry of this.#rules) {
      if (entry.remaining <= 0) continue;
      if (entry.rule.match !== undefined && !methodAndPath.includes(entry.rule.match)) continue;
      if (entry.rule.probability !== undefined && this.#random() >= entry.rule.probability) continue;
      entry.remaining -= 1;
      return entry.rule;
    }
    return null;
  }

  /** Rules with what is left of their times (null = unlimited). */
  list(): { rule: FaultRule; remaining: number | null }[] {
    return this.#rules.map((e) => ({ rule: e.rule, remaining: Number.isFinite(e.remaining) ? e.remaining : null }));
  }
}

/** For `wrong_total`: every receipt in a reply body gets 1.00 RSD more in `totalAmount`. */
export function alterTotals(body: unknown): void {
  if (!body || typeof body !== 'object') return;
  if (Array.isArray(body)) {
    for (const el of body) alterTotals(el);
    return;
  }
  const o = body as Record<string, unknown>;
  if (typeof o['invoiceNumber'] === 'string' && typeof o['totalAmount'] === 'number')
    o['totalAmount'] = o['totalAmount'] + 1;
  for (const key of ['receipt', 'finalReceipt', 'receipts']) alterTotals(o[key]);
}
