/**
 * A refund the L-PFR signed that paid money back gets a fiscal copy (КОПИЈА РЕФУНДАЦИЈА) for the buyer's signature,
 * signed on that L-PFR and printed after the refund, instead of Kasa's non-fiscal slip (docs/printing.md, "Signed
 * refund slip"), exactly once. Whole core on a real SQLite file, the L-PFR sandbox over HTTP, a TCP printer.
 */
import { untilValue as until } from '../support/poll.ts';
import { describe, expect, it } from 'vitest';
import { captureRefundCopy } from '../../electron/orders/refund-copy.ts';
import { OrderStore } from '../../electron/orders/store.ts';
import type { CheckoutResult } from '../../shared/contract/sales.ts';
import { attachPrinter, EPSON, decoderFor } from '../printer/helpers.ts';
import { makeRefund, BREAD_AND_MILK, ok } from '../support/session.ts';
import { fiscalized, lpfrCoreSuite, lpfrTill, offlineWithLpfrReady } from './helpers.ts';

const { kit, later } = lpfrCoreSuite();

const decode = decoderFor(EPSON);

describe('the copy of a refund the L-PFR signed', () => {
  it('is a fiscal Copy/Refund on the L-PFR with the signature line, printed after the refund, once', async () => {
    const lpfr = await kit.sandbox({ dataDir: kit.dir() });
    const core = await lpfrTill(lpfr, 'kasa-refund-copy-', { KASA_PRINTER_ALLOW_LOOPBACK: '1' });
    const printer = await attachPrinter(core, later, { autoPrint: true });
    await offlineWithLpfrReady(core);
    const sale = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(sale.processor).toBe('lpfr');
    const refund = await makeRefund(core, {
      orderId: sale.orderId,
      lines: [{ index: 0, quantity: 2 }],
      buyerId: '11:1234567890125',
    });
    await fiscalized(core, refund.orderId, 'refund signed');
    const copyRow = () =>
      core.db
        .prepare<[number], { id: number; state: string; processor: string | null; transaction_type: string }>(
          "SELECT id, state, processor, transaction_type FROM orders WHERE kind = 'copy' AND depends_on = ?",
        )
        .all(refund.orderId);
    const copies = await until(
      'the copy signed',
      () => copyRow(),
      (r) => r.length === 1 && r[0]?.state === 'fiscalized',
    );
    expect(copies[0]).toMatchObject({ processor: 'lpfr', transaction_type: 'refund' });
    const ledger = lpfr.controls.ledger().invoices;
    const refundInvoice = ledger.find((e) => e.transactionType === 'Refund' && e.invoiceType === 'Normal');
    const copyInvoice = ledger.find((e) => e.invoiceType === 'Copy');
    expect(copyInvoice).toMatchObject({
      transactionType: 'Refund',
      referentDocumentNumber: refundInvoice?.invoiceNumber,
    });

    // On paper: the sale, the refund, then its fiscal copy ending with the signature line; no non-fiscal slip.
    const printed = await until(
      'three receipts printed',
      () => printer.jobs.map((j) => decode(j).lines.join('\n')).filter((t) => t.trim() !== ''),
      (texts) => texts.length >= 3,
    );
    await new Promise((r) => setTimeout(r, 300));
    // (The printer's connections that carried no text, its status queries, are left out.)
    const texts = printer.jobs.map((j) => decode(j).lines.join('\n')).filter((t) => t.trim() !== '');
    expect(texts).toHaveLength(3);
    expect(printed[1]).toContain('РЕФУНДАЦИЈА');
    expect(texts[2]).toContain('КОПИЈА');
    expect(texts[2]).toContain('Потпис купца:');
    expect(texts.join('\n')).not.toMatch(/ПОТПИСАНА ИСПЛАТА|SIGNED/);

    // Asked again (the start-up sweep after a restart): no second copy.
    const store = new OrderStore(core.db);
    const row = store.get(refund.orderId)!;
    expect(captureRefundCopy(store, core.db, row, { terminalId: 'X', now: Date.now() })).toBeNull();
    expect(copyRow()).toHaveLength(1);
    expect(lpfr.controls.ledger().invoices.filter((e) => e.invoiceType === 'Copy')).toHaveLength(1);
  });
});
