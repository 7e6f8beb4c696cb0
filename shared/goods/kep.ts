/**
 * The KEP book's entries (docs/goods.md), shared by the till's book and the hub's: the documents of a period and
 * each day's fiscal turnover by payment type, sorted into the rulebook's columns (number, date, description,
 * debit, credit) with the running balance from the opening balance. Pure: each book reads its own rows.
 */
import type { KepEntry } from '../contract/goods.ts';
import { kepWords } from '../i18n/goods.ts';

/** One change of the balance before it is numbered: its day, its place among the day's kinds, its time. */
export interface KepRaw {
  day: string;
  /** 1 receipts, 2 price changes, 3 write-offs, counts and transfers, 4 turnover, 5 the day's difference. */
  order: number;
  at: string;
  description: string;
  value: number;
}

/**
 * Each day's fiscal turnover by payment type (refunds reduce it) as credits, and one difference entry where it
 * differs from the retail value of the goods the day's sales and refunds moved (discounts, prices changed at the
 * counter, hand-typed items outside the book), so the balance stays the value of the stock at retail price.
 */
export function turnoverEntries(
  turnover: ReadonlyMap<string, ReadonlyMap<string, number>>,
  soldValue: ReadonlyMap<string, number>,
  w: ReturnType<typeof kepWords>,
): KepRaw[] {
  const raw: KepRaw[] = [];
  for (const day of new Set([...turnover.keys(), ...soldValue.keys()])) {
    let total = 0;
    for (const [type, amount] of turnover.get(day) ?? []) {
      total += amount;
      if (amount !== 0)
        raw.push({
          day,
          order: 4,
          at: '',
          description: w.turnover.replace('{payment}', w.payment(type)),
          value: -amount,
        });
    }
    const difference = total + (soldValue.get(day) ?? 0);
    if (difference !== 0) raw.push({ day, order: 5, at: '', description: w.difference, value: difference });
  }
  return raw;
}

/** The entries in the book's order, numbered, each debit or credit with the running balance from `opening`. */
export function kepBook(opening: number, raw: KepRaw[]): { entries: KepEntry[]; closingPara: number } {
  const sorted = [...raw].sort((a, b) =>
    a.day < b.day ? -1 : a.day > b.day ? 1 : a.order - b.order || (a.at < b.at ? -1 : a.at > b.at ? 1 : 0),
  );
  let balance = opening;
  const entries = sorted.map((r, i) => {
    balance += r.value;
    return {
      number: i + 1,
      day: r.day,
      description: r.description,
      debitPara: r.value > 0 ? r.value : 0,
      creditPara: r.value < 0 ? -r.value : 0,
      balancePara: balance,
    };
  });
  return { entries, closingPara: balance };
}
