/** The copies area's handler (shared/contract/copies.ts): a fiscal copy of an issued receipt, audited. */
import { cashierOf } from '../../auth/context.ts';
import { areaHandlers, type AreaHandlers } from '../../dispatch.ts';
import type { StaffService } from '../../auth/staff.ts';
import type { BackOfficeOrders } from '../orders.ts';

export function copiesHandlers(orders: BackOfficeOrders, staff: StaffService): AreaHandlers<'copies'> {
  return areaHandlers('copies', {
    'copies.create': async ({ orderId, invoiceNumber }, caller) => {
      // The copy names the person logged in who issues it; the approving manager is in the audit row.
      const view = await orders.copy({ orderId, invoiceNumber }, cashierOf(caller));
      staff.audit(null, 'receipt.copy', { orderId: view.orderId, of: orderId ?? invoiceNumber });
      return view;
    },
  });
}
