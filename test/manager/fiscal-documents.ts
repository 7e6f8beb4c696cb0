/**
 * The refund and the copy of a fiscalized sale, made and checked as the manager suites check them (manager.test.ts,
 * advances.test.ts, refund-final.test.ts): each is fiscalized at once and refers to the sale's invoice, so what such a
 * document must be is written once.
 */
import { expect } from 'vitest';
import type { Core } from '../../electron/core.ts';
import type { OrderView } from '../../shared/domain.ts';
import { makeCopy, makeRefund } from '../support/session.ts';

/** The sale a refund or a copy is made from: its order and, fiscalized, its invoice. */
export interface FiscalizedSale {
  orderId: number;
  receipt?: { invoiceNumber: string } | undefined;
}

/**
 * A refund of `sale` (`input` names its lines or `full`, and the buyer), expected fiscalized at once, referring to the
 * sale's invoice and as `expected` says besides (its kind or type, its total).
 */
export async function fiscalRefund(
  c: Pick<Core, 'dispatch'>,
  sale: FiscalizedSale,
  input: Record<string, unknown>,
  expected: Record<string, unknown>,
): Promise<OrderView> {
  const refund = await makeRefund(c, { orderId: sale.orderId, ...input });
  expect(refund).toMatchObject({
    ...expected,
    state: 'fiscalized',
    referentDocumentNumber: sale.receipt?.invoiceNumber,
  });
  return refund;
}

/** A fiscal copy of `sale`, expected fiscalized at once as a copy that refers to the sale's invoice. */
export async function fiscalCopy(c: Pick<Core, 'dispatch'>, sale: FiscalizedSale): Promise<OrderView> {
  const copy = await makeCopy(c, { orderId: sale.orderId });
  expect(copy).toMatchObject({
    kind: 'copy',
    invoiceType: 'copy',
    state: 'fiscalized',
    referentDocumentNumber: sale.receipt?.invoiceNumber,
  });
  return copy;
}
