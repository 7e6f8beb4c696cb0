/**
 * Conformance of the sandbox's item-arithmetic check, on BOTH sandbox variants (spec and sdk),
 * over real HTTP through the lead's GatewayClient: `quantity × unitPrice − discount = totalAmount` to the
 * para (the product rounded, halves away from zero), `discount` an amount with `totalAmount` after it.
 * What does not add up is refused as a PFR refuses it: 400 ERR_00202 with
 * `details.validationErrors [{field: 'items[N].totalAmount', message}]`, and nothing is issued.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../electron/gateway/client.ts';
import type { GatewayError } from '../../electron/gateway/errors.ts';
import type { GatewayItem, ReceiptRequest } from '../../electron/gateway/types.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { SANDBOX_VARIANTS } from '../../electron/sandbox/variant.ts';
import { receiptItems } from '../../shared/receipt-items.ts';
import { failure } from '../support/gateway.ts';

const s = (b: unknown) => JSON.stringify(b);

describe.each(SANDBOX_VARIANTS)('item arithmetic, %s variant', (variant) => {
  let sb: Sandbox;
  let client: GatewayClient;
  let seq = 0;

  beforeAll(async () => {
    sb = await startSandbox({ variant });
    client = new GatewayClient({ baseUrl: sb.url, apiKey: 'demo-key', timeoutMs: 5_000 });
  });
  afterAll(async () => {
    await sb.close();
  });
  beforeEach(() => {
    sb.controls.reset();
  });

  function body(items: GatewayItem[], over: Partial<ReceiptRequest> = {}): ReceiptRequest {
    seq += 1;
    const total = items.reduce((sum, i) => sum + Math.round(i.totalAmount * 100), 0) / 100;
    return { orderNumber: `IA-${variant}-${seq}`, items, payments: [{ type: 'cash', amount: total }], ...over };
  }
  const item = (quantity: number, unitPrice: number, totalAmount: number, discount?: number): GatewayItem => ({
    name: 'Сир',
    quantity,
    unitPrice,
    totalAmount,
    labels: ['A'],
    ...(discount !== undefined ? { discount } : {}),
  });

  async function refused(b: ReceiptRequest, path = 'sale', fields = ['items[0].totalAmount']): Promise<GatewayError> {
    const before = sb.controls.ledger().receipts.length;
    const e = await failure(path === 'sale' ? client.issueSale('normal', s(b)) : client.issueRefund('normal', s(b)));
    expect(e.status).toBe(400);
    expect(e.code).toBe('ERR_00202');
    const errors = (e.details?.['validationErrors'] ?? []) as { field: string; message: string }[];
    expect(errors.map((v) => v.field)).toEqual(fields);
    for (const v of errors) expect(v.message).toMatch(/must equal totalAmount/);
    expect(sb.controls.ledger().receipts.length).toBe(before);
    return e;
  }

  it('accepts items that multiply out: counted, weighed (rounded half away from zero), free', async () => {
    const ok = await client.issueSale(
      'normal',
      s(body([item(3, 100, 300), item(0.501, 89.99, 45.08), item(0.5, 0.01, 0.01), item(1, 0, 0)])),
    );
    expect(ok.receipt.totalAmount).toBe(345.09);
  });

  it('refuses 0,501 × 89,99 sent as 45,09 (issue case 5), naming the item and the right amount', async () => {
    const e = await refused(body([item(0.501, 89.99, 45.09)]));
    const [v] = (e.details?.['validationErrors'] ?? []) as { message: string }[];
    expect(v?.message).toContain('0.501 × 89.99 = 45.08, not 45.09');
  });

  it('refuses every item that does not add up, each at its own index', async () => {
    await refused(body([item(0.45, 1299, 534.55), item(2, 10, 20), item(3, 99.67, 299)]), 'sale', [
      'items[0].totalAmount',
      'items[2].totalAmount',
    ]);
  });

  it('reads discount as an amount taken off: 3 × 100,00 − 1,00 = 299,00 is accepted, 300,00 or a per-unit reading is not', async () => {
    const ok = await client.issueSale('normal', s(body([item(3, 100, 299, 1)])));
    expect(ok.receipt.totalAmount).toBe(299);
    // The journal prints the gross on the item's line and the discount under it: each line's arithmetic holds.
    const journal = ok.receipt.journal ?? '';
    expect(journal).toMatch(/ {2}3 x 100,00 = +300,00\n {2}Попуст: +-1,00\n/);
    // The issue's example: 0,45 × 1.299,00 less 50,00 printed as "0,45 x 1.299,00 = 534,55" (0,45 × 1.299,00 is
    // 584,55).
    const salmon = await client.issueSale('normal', s(body([item(0.45, 1299, 534.55, 50)])));
    expect(salmon.receipt.journal).toMatch(/ {2}0,45 x 1\.299,00 = +584,55\n {2}Попуст: +-50,00\n/);
    expect(salmon.receipt.journal).not.toMatch(/1\.299,00 = +534,55/);
    await refused(body([item(3, 100, 300, 1)]));
    await refused(body([item(3, 100, 297, 1)]));
  });

  it('accepts the encoding Kasa sends (no discount field, split where no para unit price fits) and prints it as sent', async () => {
    const items = receiptItems([
      { name: 'Шоља', quantityMilli: 3000, unitPricePara: 10000, discountPara: 100, totalPara: 29900, labels: ['A'] },
    ]);
    expect(items.map((i) => [i.quantity, i.unitPrice, i.totalAmount])).toEqual([
      [2, 99.67, 199.34],
      [1, 99.66, 99.66],
    ]);
    const ok = await client.issueSale('normal', s(body(items)));
    expect(ok.receipt.totalAmount).toBe(299);
    expect(ok.receipt.journal).toContain('Шоља, попуст 0,66 (A)\n  2 x 99,67 =');
    expect(ok.receipt.journal).not.toContain('Попуст:');
  });

  it('checks refunds and advance finalize the same way', async () => {
    const sale = await client.issueSale('normal', s(body([item(1.002, 89.99, 90.17)])));
    const ref = {
      referentDocumentNumber: sale.receipt.invoiceNumber,
      referentDocumentDt: sale.receipt.sdcDateTime,
      settings: { skipBuyerIdValidation: true },
    };
    await refused(body([item(0.501, 89.99, 45.09)], ref), 'refund');
    const refunded = await client.issueRefund('normal', s(body([item(0.501, 90, 45.09)], ref)));
    expect(refunded.receipt.totalAmount).toBe(45.09);
    const advance = await client.issueSale('advance', s(body([item(2, 150, 300)])));
    const fin = await failure(
      client.finalizeAdvance(
        s(
          body([item(2, 150, 299)], {
            referentDocumentNumber: advance.receipt.invoiceNumber,
            payments: [{ type: 'cash', amount: 0, advanceAmount: 299 }],
          }),
        ),
      ),
    );
    expect([fin.status, fin.code]).toEqual([400, 'ERR_00202']);
    expect(((fin.details?.['validationErrors'] ?? []) as { field: string }[]).map((v) => v.field)).toEqual([
      'items[0].totalAmount',
    ]);
  });
});
