/**
 * What a refund pays back, per payment type: computed once from the refund's fiscal document and recorded as
 * the refund's `orders.data.payments`, which the drawer and the shift (electron/shifts), the till's and the
 * hub's reports (shared/reports/totals.ts), the hub push and the signed refund slip (electron/printer) all read.
 * So the till's record of a refund is its document's payments, to the para (issue 37, docs/advances.md).
 *
 * The refund of a chain's final sale (ПП) pays back the whole sale: the final's own payments and what the
 * chain's advances paid (net of their refunds), each in the type it was paid in. The advances are not returned
 * by refunding the advance receipts: the finalize's АР already cancelled them (docs/advances.md).
 */
import { PAYMENT_TYPES, type OrderPayment, type PaymentType } from '../../shared/domain.ts';
import { paraToDecimal, toPara } from '../../shared/money.ts';
import type { GatewayPayment } from '../gateway/types.ts';

/** A document's payments as the gateway request carries them (decimals, no `advanceAmount` on a refund). */
export function documentPayments(payments: readonly OrderPayment[]): GatewayPayment[] {
  return payments.map((p) => ({ type: p.type, amount: paraToDecimal(p.amountPara) }));
}

/**
 * What a refund document pays back per payment type (para, one entry per type in the document's order). A
 * refund pays back money only as `amount`: an `advanceAmount` pays nothing back in any type, so a refund
 * document carrying one is refused here rather than recorded as something it does not say.
 */
export function paidBack(payments: readonly GatewayPayment[]): OrderPayment[] {
  const out: OrderPayment[] = [];
  payments.forEach((p, i) => {
    if (p.advanceAmount !== undefined && p.advanceAmount !== 0)
      throw new Error(`refund payments.${i}: advanceAmount on a refund pays nothing back`);
    const type = PAYMENT_TYPES.find((t) => t === p.type);
    const para = toPara(p.amount);
    if (!type || para === null || para < 0) throw new Error(`refund payments.${i}: not a payment (${p.type})`);
    const same = out.find((o) => o.type === type);
    if (same) same.amountPara += para;
    else out.push({ type, amountPara: para });
  });
  return out;
}

/** Sums payments per type, in the order the types first appear; signs as given. */
function perType(
  lists: readonly (readonly OrderPayment[])[],
  sign: 1 | -1,
  into = new Map<PaymentType, number>(),
): Map<PaymentType, number> {
  for (const list of lists) for (const p of list) into.set(p.type, (into.get(p.type) ?? 0) + sign * p.amountPara);
  return into;
}

/**
 * What a chain's advances paid, per payment type, net of the refunds made of them: `netPara` (what the final
 * sale took as `advanceAmount`) in the types the advances were paid in. A type refunded beyond what was paid
 * in it (an advance paid by card, refunded in cash) lowers the other types, first ones first; a difference
 * from `netPara` the payments do not explain (an advance stored without payments) goes to the first type.
 */
export function advancePaidBy(
  advances: readonly (readonly OrderPayment[])[],
  refunds: readonly (readonly OrderPayment[])[],
  netPara: number,
  fallback: PaymentType,
): OrderPayment[] {
  const net = perType(refunds, -1, perType(advances, 1));
  let owed = 0;
  for (const [type, para] of net) {
    if (para >= 0) continue;
    owed -= para;
    net.set(type, 0);
  }
  for (const [type, para] of net) {
    const take = Math.min(para, owed);
    net.set(type, para - take);
    owed -= take;
  }
  const out = [...net].filter(([, para]) => para > 0).map(([type, amountPara]) => ({ type, amountPara }));
  const diff = netPara - out.reduce((s, p) => s + p.amountPara, 0);
  if (diff !== 0) {
    const first = out[0];
    if (first && first.amountPara + diff >= 0) first.amountPara += diff;
    else if (diff > 0) out.push({ type: fallback, amountPara: diff });
  }
  return out.filter((p) => p.amountPara > 0);
}

/**
 * A full refund of a final sale: its own payments and the advances' (from {@link advancePaidBy}), merged per
 * type, the final's own types first. Sums to the final sale's total.
 */
export function finalSaleFullRefund(own: readonly OrderPayment[], advances: readonly OrderPayment[]): OrderPayment[] {
  return [...perType([own, advances], 1)]
    .filter(([, para]) => para > 0)
    .map(([type, amountPara]) => ({ type, amountPara }));
}
