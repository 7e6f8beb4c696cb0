/**
 * The arithmetic of what a refund of a final sale pays back per type (electron/manager/refund-payments.ts): the
 * advances' payments net of their refunds, merged with the final's own, and the document read back.
 */
import { describe, expect, it } from 'vitest';
import {
  advancePaidBy,
  documentPayments,
  finalSaleFullRefund,
  paidBack,
} from '../../electron/manager/refund-payments.ts';

describe('refund payments of a final sale', () => {
  it('the advances net of their refunds, in the types they were paid in', () => {
    const advances = [[{ type: 'card' as const, amountPara: 300000 }], [{ type: 'cash' as const, amountPara: 100000 }]];
    expect(advancePaidBy(advances, [], 400000, 'cash')).toEqual([
      { type: 'card', amountPara: 300000 },
      { type: 'cash', amountPara: 100000 },
    ]);
    // 500.00 of the cash advance refunded: 500.00 cash left.
    expect(advancePaidBy(advances, [[{ type: 'cash', amountPara: 50000 }]], 350000, 'cash')).toEqual([
      { type: 'card', amountPara: 300000 },
      { type: 'cash', amountPara: 50000 },
    ]);
    // A card advance refunded in cash: the cash refunded lowers the card, never a negative payment.
    expect(
      advancePaidBy([[{ type: 'card', amountPara: 300000 }]], [[{ type: 'cash', amountPara: 100000 }]], 200000, 'cash'),
    ).toEqual([{ type: 'card', amountPara: 200000 }]);
    // An advance stored without payments: the amount in the fallback type.
    expect(advancePaidBy([[]], [], 300000, 'card')).toEqual([{ type: 'card', amountPara: 300000 }]);
  });

  it("merged with the final sale's own payments, per type, summing to the total", () => {
    const own = [{ type: 'cash' as const, amountPara: 500000 }];
    expect(finalSaleFullRefund(own, [{ type: 'card', amountPara: 300000 }])).toEqual([
      { type: 'cash', amountPara: 500000 },
      { type: 'card', amountPara: 300000 },
    ]);
    expect(finalSaleFullRefund(own, [{ type: 'cash', amountPara: 300000 }])).toEqual([
      { type: 'cash', amountPara: 800000 },
    ]);
    // A final fully paid by its advances (amount 0): only the advance's type.
    expect(finalSaleFullRefund([{ type: 'cash', amountPara: 0 }], [{ type: 'card', amountPara: 54000 }])).toEqual([
      { type: 'card', amountPara: 54000 },
    ]);
  });

  it('the record is the document read back; an advanceAmount on a refund is refused', () => {
    const payments = [
      { type: 'cash' as const, amountPara: 500001 },
      { type: 'card' as const, amountPara: 299999 },
    ];
    expect(documentPayments(payments)).toEqual([
      { type: 'cash', amount: 5000.01 },
      { type: 'card', amount: 2999.99 },
    ]);
    expect(paidBack(documentPayments(payments))).toEqual(payments);
    expect(() => paidBack([{ type: 'cash', amount: 5000, advanceAmount: 3000 }])).toThrow(/advanceAmount/);
  });
});
