/**
 * The goods receipt of the property suites' models (exports.property, ledger.property): the step both take when
 * their generated actions bring goods in.
 */
import type { Core } from '../../electron/core.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { MANAGER_PIN, ok, saveReceipt } from './session.ts';

/**
 * One line, `quantity` of `code` bought at half `price` with a 25 % margin, from `supplierId` on invoice
 * `invoiceNumber` dated today, posted at once (a purchase price above the selling one confirmed).
 */
export async function postOneLineReceipt(
  c: Pick<Core, 'dispatch'>,
  supplierId: number,
  invoiceNumber: string,
  line: { code: string; quantity: number; price: number },
): Promise<void> {
  const draft = await saveReceipt(c, {
    supplierId,
    invoiceNumber,
    invoiceDate: dayIn(new Date()),
    lines: [{ code: line.code, quantity: line.quantity, purchasePrice: line.price / 2, marginPercent: 25 }],
  });
  await ok(c, 'goods.receiptPost', { managerPin: MANAGER_PIN, id: draft.id, confirmBelowPurchase: true });
}
