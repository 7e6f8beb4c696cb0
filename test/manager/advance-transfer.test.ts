/**
 * An advance paid earlier by bank transfer is issued with the payment's date as its ESIR time (docs/advances.md,
 * "An advance paid by bank transfer"): the manager enters the date; a date in the future, beyond the allowed
 * delay, or on an advance not paid by transfer is refused at the field, in words, and nothing is saved. Whole core
 * on a real SQLite file, the sandbox gateway over HTTP (its journal prints the ESIR time).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckoutResult } from '../../shared/contract/sales.ts';
import type { OrderView } from '../../shared/domain.ts';
import { TRANSFER_MAX_DAYS } from '../../electron/sales/receipt-stamp.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { closeCores, ok, startCore } from '../support/session.ts';

afterEach(closeCores);

const DAY = 86_400_000;
const advance = (paidOn: string | undefined, type = 'wireTransfer') => ({
  invoiceType: 'advance',
  lines: [{ name: 'Аванс за кухињу', quantity: 1, unitPrice: 30_000, labels: ['A'] }],
  payments: [{ type, amount: 30_000 }],
  ...(paidOn ? { paidOn } : {}),
});

describe('an advance paid earlier by bank transfer', () => {
  it('carries the payment date as its ESIR time, printed on the receipt; other days are refused at the field', async () => {
    const core = await startCore({ prefix: 'kasa-adv-transfer-' });
    const count = () => core.db.prepare('SELECT count(*) FROM orders').pluck().get() as number;
    const twoDaysAgo = dayIn(new Date(Date.now() - 2 * DAY));

    const refused: [unknown, string][] = [
      [advance(dayIn(new Date(Date.now() + 2 * DAY))), 'будућности'],
      [advance(dayIn(new Date(Date.now() - (TRANSFER_MAX_DAYS + 2) * DAY))), `${TRANSFER_MAX_DAYS} дана`],
      [advance(twoDaysAgo, 'cash'), 'преносом на рачун'],
      [{ ...advance(twoDaysAgo), invoiceType: 'normal' }, 'преносом на рачун'],
      [advance('2026-02-30'), 'Датум уплате'],
    ];
    for (const [input, words] of refused) {
      const r = await core.dispatch('sales.checkout', input);
      expect(r.ok, JSON.stringify(input)).toBe(false);
      if (!r.ok) {
        expect(r.error).toMatchObject({ code: 'invalid_input', field: 'paidOn' });
        expect(r.error.message).toContain(words);
        expect(r.error.message).not.toContain('paidOn');
      }
    }
    expect(count()).toBe(0);

    const sale = await ok<CheckoutResult>(core, 'sales.checkout', advance(twoDaysAgo));
    const request = JSON.parse(
      core.db.prepare('SELECT request FROM orders WHERE id = ?').pluck().get(sale.orderId) as string,
    ) as { dateTimeOfIssue?: string };
    expect(request.dateTimeOfIssue).toBe(`${twoDaysAgo}T10:00:00.000Z`);
    const order = await ok<OrderView>(core, 'orders.get', { orderId: sale.orderId });
    expect(order.state).toBe('fiscalized');
    const [y, m, d] = twoDaysAgo.split('-');
    expect(order.receipt?.journal).toMatch(new RegExp(`ЕСИР време: +${d}\\.${m}\\.${y}\\. 1[12]:00:00`));

    // A further advance by transfer too; without a date, the capture time as before.
    const yesterday = dayIn(new Date(Date.now() - DAY));
    const further = await ok<OrderView>(core, 'advances.add', {
      orderId: sale.orderId,
      lines: [{ name: 'Аванс за кухињу', quantity: 1, unitPrice: 10_000, labels: ['A'] }],
      payments: [{ type: 'wireTransfer', amount: 10_000 }],
      paidOn: yesterday,
    });
    const furtherRequest = JSON.parse(
      core.db.prepare('SELECT request FROM orders WHERE id = ?').pluck().get(further.orderId) as string,
    ) as { dateTimeOfIssue?: string };
    expect(furtherRequest.dateTimeOfIssue).toBe(`${yesterday}T10:00:00.000Z`);
    const cash = await ok<CheckoutResult>(core, 'sales.checkout', advance(undefined, 'cash'));
    const cashRequest = JSON.parse(
      core.db.prepare('SELECT request FROM orders WHERE id = ?').pluck().get(cash.orderId) as string,
    ) as { dateTimeOfIssue?: string };
    expect(Math.abs(Date.parse(cashRequest.dateTimeOfIssue ?? '') - Date.now())).toBeLessThan(60_000);
  });
});
