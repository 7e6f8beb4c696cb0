/**
 * What the customer display shows, from the counter's state (docs/payments.md, "The customer display"): the counter
 * tells the core after every change that the customer would see (`display.show`); the core builds the frame.
 */
import type { CommandInput, IpsRequestView } from '../../../shared/contract/index.ts';
import { lineTotal, milliToDecimal, paraToDecimal } from '../../../shared/money.ts';
import { cartTotal, type CartLine } from './cart.ts';
import type { Screen } from './counter.ts';
import type { LastSale } from './payment.ts';

export type DisplayInput = CommandInput<'display.show'>;

/** The part of the counter's state the customer sees. */
export interface DisplaySource {
  screen: Screen;
  lines: readonly CartLine[];
  lastSale: LastSale | null;
  /** The IPS code the cashier's dialog shows now. */
  ipsShown: IpsRequestView | null;
}

export function displayInput(s: DisplaySource): DisplayInput {
  if (s.screen === 'receipt' && s.lastSale) {
    const { result, paidPara } = s.lastSale;
    return { phase: 'thanks', lines: [], total: paraToDecimal(result.totalPara), paid: paraToDecimal(paidPara) };
  }
  const lines = s.lines.map((l) => ({
    // The contract's bound; a longer name is cut on the customer's screen only.
    name: l.name.slice(0, 200),
    quantity: milliToDecimal(l.quantityMilli),
    // The promotion's own unit price, as the customer knows it from the shelf (the cashier sees the regular one).
    unitPrice: paraToDecimal(
      Math.max(0, Math.round(l.unitPricePara - ((l.rule?.discountPara ?? 0) * 1000) / l.quantityMilli)),
    ),
    total: paraToDecimal(Math.max(0, lineTotal(l.unitPricePara, l.quantityMilli, l.discountPara))),
    ...(l.rule ? { promotion: l.rule.name } : {}),
  }));
  const total = paraToDecimal(Math.max(0, cartTotal(s.lines)));
  if (s.ipsShown && s.screen === 'payment')
    return {
      phase: 'ips',
      lines,
      total,
      ips: { amount: paraToDecimal(s.ipsShown.amountPara), reference: s.ipsShown.reference },
    };
  if (s.screen === 'payment' && lines.length > 0) return { phase: 'payment', lines, total };
  return lines.length > 0 ? { phase: 'cart', lines, total } : { phase: 'idle', lines: [], total: 0 };
}
