/**
 * The one rule for the tax of a report (docs/manager.md, "Tax in reports"): the till's report, its CSVs and shift
 * report, and the store hub's report all take gross and VAT by label from here. Pure, integer para.
 *
 * - VAT is what the signed receipts state: the sum of their `taxItems` per label and rate, never recomputed from
 *   rates. A refund (an advance refund too) subtracts. A finalize counts its final sale (ПП, whose taxItems cover
 *   the whole sale) and subtracts its advance refund (АР, which cancels the advances' VAT, counted on the days
 *   they were paid), so a chain's VAT is counted once, each part on its day.
 * - A receipt's gross (its total) is split over its labels so that the split adds up to the total exactly:
 *   1. when the receipt's items are known and add up to its total (the order's lines: a sale, an advance, a
 *      refund, a final sale), each item's gross goes to its label; an item with several labels is split over
 *      them in equal parts (the para left over to the first labels);
 *   2. otherwise (an advance refund, lines that do not add up), each label with a rate above 0 gets the gross its
 *      VAT implies, VAT × (100 + rate) / rate rounded to the para (halves away from 0); what is left of the total
 *      goes to the receipt's first 0 % label; where there is none, or the implied gross exceeds the total, the
 *      total is shared in proportion to those amounts by largest remainder (ties: the earlier label);
 *   3. a receipt that states no tax items and has no items: its gross goes to the label '' (none).
 * - A label's rate is the one the receipt states for it; a label a receipt does not state (an order not signed
 *   yet, a receipt without taxItems) has rate null: the report names it from the period or the tax rates.
 */
import { roundDiv } from './money.ts';

/** A receipt's VAT line as stored (read tolerantly: amounts and rates as numbers or decimal strings). */
export interface TaxItemInput {
  label?: unknown;
  rate?: unknown;
  amount?: unknown;
}

/** One receipt as a report sums it. */
export interface TaxReceipt {
  /** −1 for a refund (an advance refund too), +1 otherwise. */
  sign: 1 | -1;
  /** The receipt's total in para (≥ 0). */
  totalPara: number;
  /** The VAT the receipt states; null or absent for an order not signed yet. */
  taxItems?: readonly TaxItemInput[] | null | undefined;
  /** The receipt's items (label codes and gross in para), when known. */
  items?: readonly { labels: readonly string[]; totalPara: number }[] | undefined;
}

/** Gross and VAT of one label at one rate (null: not stated by a receipt), signed (refunds negative). */
export interface LabelTax {
  label: string;
  rate: number | null;
  grossPara: number;
  taxPara: number;
}

export interface TaxSummary {
  /** Σ of the receipts' signed totals: Σ `byLabel[].grossPara`. */
  grossPara: number;
  /** Σ of the receipts' signed taxItems: Σ `byLabel[].taxPara`. */
  taxPara: number;
  /** Per label and rate, in the order first met. */
  byLabel: LabelTax[];
}

const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN);

/** `-0` is `0`: a signed zero would survive in sums but not in JSON, and prints as "-0,00". */
const z = (n: number): number => (n === 0 ? 0 : n);

/** The tax items of a receipt merged per label and rate (first-seen order), VAT in para (≥ 0). */
function statedTaxes(
  items: readonly TaxItemInput[] | null | undefined,
): { label: string; rate: number; para: number }[] {
  const out: { label: string; rate: number; para: number }[] = [];
  for (const item of items ?? []) {
    const amount = num(item.amount);
    const rate = num(item.rate);
    if (typeof item.label !== 'string' || !Number.isFinite(amount) || !Number.isFinite(rate)) continue;
    const para = Math.round(Math.abs(amount) * 100);
    const e = out.find((x) => x.label === item.label && x.rate === rate);
    if (e) e.para += para;
    else out.push({ label: item.label, rate, para });
  }
  return out;
}

/**
 * Splits `total` (≥ 0) in proportion to `weights` (≥ 0, not all 0) by largest remainder: the parts add up to
 * `total`; the para left after flooring go to the largest remainders, ties to the earlier weight.
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum === total) return [...weights];
  // Integer arithmetic (BigInt): exact for any para and weights; floats could break ties differently.
  const t = BigInt(total);
  const s = BigInt(sum);
  const parts = weights.map((w) => (t * BigInt(w)) / s);
  const rems = weights.map((w, i) => ({ i, r: t * BigInt(w) - (parts[i] as bigint) * s }));
  let left = total - parts.reduce((a, p) => a + Number(p), 0);
  rems.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  const out = parts.map(Number);
  for (const { i } of rems) {
    if (left <= 0) break;
    out[i] = (out[i] as number) + 1;
    left--;
  }
  return out;
}

/** Gross per label of one receipt (unsigned), by the rule in the module's comment; adds up to its total. */
function grossByLabel(
  r: TaxReceipt,
  stated: readonly { label: string; rate: number; para: number }[],
): Map<string, number> {
  const out = new Map<string, number>();
  const add = (label: string, para: number): void => {
    out.set(label, (out.get(label) ?? 0) + para);
  };
  const items = r.items ?? [];
  if (
    items.length &&
    items.every((i) => i.labels.length > 0) &&
    items.reduce((s, i) => s + i.totalPara, 0) === r.totalPara
  ) {
    for (const item of items) {
      const labels = [...new Set(item.labels)];
      const parts = apportion(
        item.totalPara,
        labels.map(() => 1),
      );
      labels.forEach((label, i) => add(label, parts[i] as number));
    }
    return out;
  }
  const labels: { label: string; rate: number; para: number }[] = [];
  for (const t of stated) {
    const e = labels.find((x) => x.label === t.label);
    if (e) e.para += t.para;
    else labels.push({ ...t });
  }
  if (!labels.length) {
    // No tax items: the items' labels by their gross where there are any, else no label.
    const weights = new Map<string, number>();
    for (const item of items)
      for (const label of new Set(item.labels)) weights.set(label, (weights.get(label) ?? 0) + item.totalPara);
    const keys = [...weights.keys()];
    const w = keys.map((k) => weights.get(k) as number);
    if (!w.some((x) => x > 0)) return new Map([['', r.totalPara]]);
    apportion(r.totalPara, w).forEach((p, i) => add(keys[i] as string, p));
    return out;
  }
  const weights = labels.map((l) => {
    const rateMilli = Math.round(l.rate * 1000);
    return rateMilli > 0 ? roundDiv(l.para * (100_000 + rateMilli), rateMilli) : 0;
  });
  const implied = weights.reduce((s, w) => s + w, 0);
  const zero = labels.findIndex((l) => Math.round(l.rate * 1000) <= 0);
  if (zero >= 0 && implied < r.totalPara) weights[zero] = r.totalPara - implied;
  if (!weights.some((w) => w > 0)) weights[0] = 1; // only VAT-free labels and no gross to tell: the first one.
  apportion(r.totalPara, weights).forEach((p, i) => add((labels[i] as { label: string }).label, p));
  return out;
}

/** Adds one receipt's signed gross and VAT by label to `into` (in place) and returns it. */
export function addReceiptTax(into: LabelTax[], r: TaxReceipt): LabelTax[] {
  const stated = statedTaxes(r.taxItems);
  const rateOf = (label: string): number | null => stated.findLast((t) => t.label === label)?.rate ?? null;
  const row = (label: string, rate: number | null): LabelTax => {
    let e = into.find((x) => x.label === label && x.rate === rate);
    if (!e) into.push((e = { label, rate, grossPara: 0, taxPara: 0 }));
    return e;
  };
  for (const t of stated) {
    const e = row(t.label, t.rate);
    e.taxPara = z(e.taxPara + r.sign * t.para);
  }
  for (const [label, para] of grossByLabel(r, stated)) {
    const e = row(label, rateOf(label));
    e.grossPara = z(e.grossPara + r.sign * para);
  }
  return into;
}

/** Gross and VAT by label of `receipts`, with the totals (see the module's comment for the rule). */
export function taxSummary(receipts: readonly TaxReceipt[]): TaxSummary {
  const byLabel: LabelTax[] = [];
  for (const r of receipts) addReceiptTax(byLabel, r);
  return {
    grossPara: z(byLabel.reduce((s, x) => s + x.grossPara, 0)),
    taxPara: z(byLabel.reduce((s, x) => s + x.taxPara, 0)),
    byLabel,
  };
}
