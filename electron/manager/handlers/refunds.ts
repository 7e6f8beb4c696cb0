/** The refunds area's handlers (shared/contract/refunds.ts): what is left to refund, and the refund. */
import { approverOf, cashierOf } from '../../auth/context.ts';
import { areaHandlers, type AreaHandlers } from '../../dispatch.ts';
import type { StaffService } from '../../auth/staff.ts';
import type { BackOfficeOrders } from '../orders.ts';

export function refundsHandlers(orders: BackOfficeOrders, staff: StaffService): AreaHandlers<'refunds'> {
  return areaHandlers('refunds', {
    'refunds.source': async (q) => orders.refundSource(q),
    'refunds.create': async (input, caller) => {
      const approvedBy = approverOf(caller).name;
      // Issued by the person logged in at the till; the approving manager is kept as `approvedBy` and audited.
      const view = await orders.refund(input, approvedBy, cashierOf(caller));
      staff.audit(approvedBy, input.full ? 'refund.full' : 'refund.partial', {
        orderId: view.orderId,
        orderNumber: view.orderNumber,
        original: input.orderId ?? input.invoiceNumber,
        totalPara: view.totalPara,
        lines: input.lines ?? 'all',
      });
      return view;
    },
  });
}
