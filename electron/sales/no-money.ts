/**
 * Proforma and training receipts take no money at the counter.
 *
 * The gateway still requires payments on a sale whose sum equals the items' sum (spec: "Rule: the sum of
 * item totals must equal the sum of payment amounts, otherwise ERR_00701"), so such a receipt carries one
 * nominal payment of type `other` for the whole total: no change, no cash, so no drawer kick. Why `other`
 * and not `cash` is in docs/gateway.md ("Proforma and training: a nominal payment").
 */
import type { InvoiceType, OrderPayment } from '../../shared/domain.ts';

/** The payment type of the nominal payment (the Tax Administration's code 0, "Друго безготовинско плаћање"). */
export const NOMINAL_PAYMENT_TYPE = 'other' as const;

/** True for a document that never takes money: proforma and training (in training mode every document is training). */
export function takesNoMoney(invoiceType: InvoiceType | undefined, trainingMode: boolean): boolean {
  return trainingMode || invoiceType === 'proforma' || invoiceType === 'training';
}

/** The one nominal payment of a proforma or training receipt: the whole total, type `other`. */
export function nominalPayments(totalPara: number): OrderPayment[] {
  return [{ type: NOMINAL_PAYMENT_TYPE, amountPara: totalPara }];
}
