/**
 * The goods ledger's rules (docs/goods.md), shared by the till's book (electron/goods/ledger.ts, SQLite) and the
 * hub's (hub/goods/ledger.ts, PostgreSQL): which fiscal documents move goods and which way, the value of a
 * movement and of a price change. Pure: each book applies them in its own transaction.
 *
 * The invariant both books keep: quantity = Σ movements, and the KEP balance = Σ round(quantity × retail price).
 * It holds exactly because a movement's value is the change of its product's rounded retail value (after −
 * before) and a price change's is round(q × new) − round(q × old): the sums telescope.
 */
import { valueAt } from './calc.ts';

/** Every kind of movement either book writes. */
export type MovementKind =
  'sale' | 'refund' | 'receipt' | 'reversal' | 'writeoff' | 'count' | 'transfer_in' | 'transfer_out' | 'opening';

/**
 * How a fiscalized document moves its catalog lines: a normal sale or final sale takes them out (`sale`), a normal
 * refund puts them back (`refund`); advances, training receipts, copies and pro formas move nothing (null).
 */
export function goodsMoveOf(invoiceType: string, transactionType: string): 'sale' | 'refund' | null {
  if (invoiceType !== 'normal') return null;
  if (transactionType === 'refund') return 'refund';
  if (transactionType === 'sale' || transactionType === 'finalize') return 'sale';
  return null;
}

/** The signed quantity a sold or refunded line moves (out for a sale, back in for a refund). */
export const soldQuantity = (move: 'sale' | 'refund', quantityMilli: number): number =>
  move === 'refund' ? Math.abs(quantityMilli) : -Math.abs(quantityMilli);

/** A day's turnover and payments as the KEP counts them: a refund's are negative. */
export function signedTurnover(
  move: 'sale' | 'refund',
  totalPara: number,
  payments: readonly { type: string; amountPara: number }[],
): { turnoverPara: number; payments: { type: string; amountPara: number }[] } {
  const sign = move === 'refund' ? -1 : 1;
  return {
    turnoverPara: sign * Math.abs(totalPara),
    payments: payments.map((p) => ({ type: p.type, amountPara: sign * Math.abs(p.amountPara) })),
  };
}

/** A movement of `deltaMilli` on `beforeMilli` at `pricePara`: the quantity after it and its value. */
export function movementOf(
  beforeMilli: number,
  deltaMilli: number,
  pricePara: number,
): { afterMilli: number; valuePara: number } {
  const afterMilli = beforeMilli + deltaMilli;
  return { afterMilli, valuePara: valueAt(afterMilli, pricePara) - valueAt(beforeMilli, pricePara) };
}

/** A price change's difference in value on `qtyMilli` on hand (the нивелација's amount). */
export const priceChangeDiff = (qtyMilli: number, oldPara: number, newPara: number): number =>
  valueAt(qtyMilli, newPara) - valueAt(qtyMilli, oldPara);

/** A price change record (нивелација) as either book makes it. */
export interface PriceChangeRecord {
  id: number;
  number: number;
  year: number;
  code: string;
  oldPara: number;
  newPara: number;
  qtyMilli: number;
  diffPara: number;
}

/** A product as either book holds it: quantity on hand and the retail price it is held at (absent: never held). */
export interface HeldStock {
  qty_milli: number;
  price_para: number;
}

/**
 * What a fiscalized document books (both books' sales and refunds): its kind of movement and its signed turnover
 * and payments, or null when it moves no goods (advances, training, copies, pro formas).
 */
export function bookedSale(
  invoiceType: string,
  transactionType: string,
  totalPara: number,
  payments: readonly { type: string; amountPara: number }[],
): ({ move: 'sale' | 'refund' } & ReturnType<typeof signedTurnover>) | null {
  const move = goodsMoveOf(invoiceType, transactionType);
  return move ? { move, ...signedTurnover(move, totalPara, payments) } : null;
}

/**
 * A movement of `deltaMilli` on a product as the book holds it: at the book's price, or `pricePara` for a product it
 * does not hold yet; the quantity after it and its value.
 */
export function heldMove(
  held: HeldStock | undefined,
  deltaMilli: number,
  pricePara: number,
): { pricePara: number; afterMilli: number; valuePara: number } {
  const price = held?.price_para ?? pricePara;
  return { pricePara: price, ...movementOf(held?.qty_milli ?? 0, deltaMilli, price) };
}

/**
 * A product's retail price becoming `newPara`: null when the book does not hold it or holds it at that price
 * (nothing changes); else whether a price change record is due (stock on hand, negative included) with its old and
 * new price, quantity and difference in value.
 */
export function heldPriceChange(
  held: HeldStock | undefined,
  newPara: number,
): { record: Omit<PriceChangeRecord, 'id' | 'number' | 'year' | 'code'> | null } | null {
  if (!held || held.price_para === newPara) return null;
  if (held.qty_milli === 0) return { record: null };
  return {
    record: {
      oldPara: held.price_para,
      newPara,
      qtyMilli: held.qty_milli,
      diffPara: priceChangeDiff(held.qty_milli, held.price_para, newPara),
    },
  };
}
