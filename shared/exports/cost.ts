/**
 * The purchase value of the goods ledger's movements (docs/exports.md, "The purchase value"): each product's
 * weighted average purchase price (пондерисана просечна набавна цена, MRS 2 par. 25 and 27), kept per unit to the
 * para and moved by every goods receipt and reversal, prices every movement that takes goods out or puts them back
 * (sales, refunds, write-offs, stock-taking differences, transfers). A movement's purchase value is its quantity ×
 * its purchase price, rounded to the para, so the journal's purchase-value totals are Σ movements × their price.
 *
 * - A receipt line (qty > 0 at net price p): the average becomes round((q₀ × a + q × p) / (q₀ + q)); with nothing
 *   on hand before (q₀ ≤ 0) it becomes p.
 * - A reversal line (qty < 0 at the reversed line's net price p) takes the goods out at p, and the average of
 *   what stays becomes round((q₀ × a + q × p) / (q₀ + q)) while some stays; else it is kept.
 * - Any other movement is priced at the average, which it does not change. A product never received is priced at
 *   `fallback` (the book's last purchase price), else 0.
 *
 * Pure: no database. The movements must come in the ledger's order (their ids).
 */
import { roundDiv } from '../money.ts';
import { valueAt, vatIn } from '../goods/calc.ts';
import type { JournalGoodsOut } from './journal.ts';

export interface CostMovement {
  code: string;
  kind: string;
  qtyMilli: number;
  /** A receipt's or reversal's line: its net purchase price per unit (para); else undefined. */
  linePurchasePara?: number | undefined;
}

export interface Costed {
  /** The purchase price per unit the movement went at (para). */
  unitPara: number;
  /** Its purchase value: round(qty × unit / 1000), signed like the quantity. */
  purchasePara: number;
}

/** Each product's quantity on hand and weighted average purchase price (undefined before its first receipt). */
export type CostState = Map<string, { qty: number; avg: number | undefined }>;

/** `held`: the state before the first movement (empty for a book's start), moved on by every movement. */
export function costMovements<M extends CostMovement>(
  movements: readonly M[],
  fallback: (code: string) => number | undefined = () => undefined,
  held: CostState = new Map(),
): (M & Costed)[] {
  return movements.map((m) => {
    let h = held.get(m.code);
    if (!h) held.set(m.code, (h = { qty: 0, avg: undefined }));
    const p = m.linePurchasePara;
    let unit: number;
    if (p !== undefined && m.qtyMilli > 0) {
      unit = p;
      h.avg = h.qty <= 0 || h.avg === undefined ? p : roundDiv(h.qty * h.avg + m.qtyMilli * p, h.qty + m.qtyMilli);
    } else if (p !== undefined) {
      unit = p;
      const left = h.qty + m.qtyMilli;
      if (left > 0 && h.avg !== undefined) h.avg = Math.max(0, roundDiv(h.qty * h.avg + m.qtyMilli * p, left));
    } else {
      unit = h.avg ?? fallback(m.code) ?? 0;
    }
    h.qty += m.qtyMilli;
    return { ...m, unitPara: unit, purchasePara: valueAt(m.qtyMilli, unit) };
  });
}

/** A goods ledger's movement as the till and the hub read it for costing, in the ledger's order (`id`). */
export interface LedgerRow {
  id: number;
  code: string;
  day: string;
  kind: string;
  source: string;
  qtyMilli: number;
  valuePara: number;
  label: string | null;
}

export interface LedgerMovement extends CostMovement {
  day: string;
  /** The document: `order:12`, `writeoff:7`, `count:3` … */
  source: string;
  /** The change of the product's retail value (the KEP's), signed like the quantity. */
  valuePara: number;
  label: string | null;
}

const KEY_OF = { sale: 'costOfGoods', refund: 'costOfGoods', writeoff: 'writeOffs' } as const;
export type OutKey = JournalGoodsOut['lines'][number]['key'];

/**
 * Where a movement goes in the goods out: its document (`sales:<day>` for a day's sales and refunds, else its
 * source), the document's kind and the line's account key; undefined for a movement that is not goods out (a
 * receipt, a reversal, a transfer, an opening).
 */
export function goodsOutPlace(
  m: Pick<LedgerMovement, 'kind' | 'qtyMilli' | 'day' | 'source'>,
): { id: string; kind: JournalGoodsOut['kind']; key: OutKey } | undefined {
  const key: OutKey | undefined =
    m.kind === 'count' ? (m.qtyMilli < 0 ? 'shortages' : 'surpluses') : KEY_OF[m.kind as keyof typeof KEY_OF];
  if (!key) return undefined;
  const kind: JournalGoodsOut['kind'] = m.kind === 'count' ? 'count' : m.kind === 'writeoff' ? 'writeoff' : 'sales';
  return { id: kind === 'sales' ? `sales:${m.day}` : m.source, kind, key };
}

/**
 * The goods out of the shop from `from` on at purchase value (costed movements, in order): one document per day's
 * sales and refunds, per write-off and per count (its shortages and surpluses), by tax label; the VAT within the
 * retail value at the label's rate. `number` names a write-off or count by its source.
 */
export function goodsOutOf(
  movements: readonly (LedgerMovement & Costed)[],
  from: string,
  number: (source: string) => string | undefined,
  rateOf: (label: string) => number,
): JournalGoodsOut[] {
  const docs = new Map<string, { doc: JournalGoodsOut; byLine: Map<string, { retail: number; purchase: number }> }>();
  for (const m of movements) {
    if (m.day < from) continue;
    const out = goodsOutPlace(m);
    if (!out) continue;
    const { id, kind, key } = out;
    let d = docs.get(id);
    if (!d) {
      const doc: JournalGoodsOut = {
        day: m.day,
        kind,
        number: kind === 'sales' ? m.day : (number(m.source) ?? m.source),
        lines: [],
      };
      docs.set(id, (d = { doc, byLine: new Map() }));
    }
    const lineKey = `${key}\u0000${m.label ?? ''}`;
    const l = d.byLine.get(lineKey) ?? { retail: 0, purchase: 0 };
    // Out of the shop is positive: a movement's value and purchase value are signed like its quantity.
    l.retail -= m.valuePara;
    l.purchase -= m.purchasePara;
    d.byLine.set(lineKey, l);
  }
  return [...docs.values()]
    .map(({ doc, byLine }) => ({
      ...doc,
      lines: [...byLine].map(([k, l]) => {
        const [key, label] = k.split('\u0000') as [OutKey, string];
        return { key, retailPara: l.retail, vatPara: vatIn(l.retail, rateOf(label)), purchasePara: l.purchase };
      }),
    }))
    .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}
