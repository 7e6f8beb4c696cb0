/** What the exports' tests share: a catalog product put (made, or its price changed) and a refund, with a PIN. */
import type { ProductView } from '../../shared/contract/catalog.ts';
import type { OrderView } from '../../shared/domain.ts';
import { MANAGER_PIN, ok } from '../support/session.ts';
import type { startCore } from '../support/session.ts';

type Core = Awaited<ReturnType<typeof startCore>>;

/** Makes the product (label A, a piece) or sets its price. */
export function putProduct(c: Core, code: string, name: string, price: number, create = false): Promise<ProductView> {
  return ok<ProductView>(c, 'catalog.put', {
    code,
    ...(create ? { create: true } : {}),
    name,
    price,
    label: 'A',
    unit: 'piece',
    group: null,
    favourite: false,
    barcodes: [],
    approval: { managerPin: MANAGER_PIN },
  });
}

/** Refunds an order in cash (its first line's one unit, or all of it), a private buyer. */
export function refund(c: Core, orderId: number, full = false): Promise<OrderView> {
  return ok<OrderView>(c, 'refunds.create', {
    managerPin: MANAGER_PIN,
    orderId,
    ...(full ? { full: true } : { lines: [{ index: 0, quantity: 1 }] }),
    buyerId: '20:008123456',
    paymentType: 'cash',
  });
}
