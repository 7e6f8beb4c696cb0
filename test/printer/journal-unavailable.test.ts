/**
 * Never a blank fiscal receipt, end to end: the whole core (createCore) on a real SQLite file, the
 * embedded sandbox in its `sdk` variant (issued receipts carry no journal) over HTTP, a real TCP printer
 * on an ephemeral port, and the bytes decoded with the project's ESC/POS decoder.
 *
 * While the gateway gives no journal at all (neither in the reply nor in the archive), the sale is
 * fiscalized — it has its invoice number and is never sent again — but printing it is refused with a
 * clear "journal unavailable" message and nothing reaches the printer. Once the archive has the journal,
 * the retry fetches it and the receipt prints with every journal line and its QR. A journal that never
 * comes spends its retry budget and waits in the manager's list (`retries.list`) until a person resumes it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { journalLines } from '../../electron/printer/layout.ts';
import type { OrderView } from '../../shared/domain.ts';
import { startCaptureServer, until, type CaptureServer, EPSON } from './helpers.ts';
import { closeCores, control, MANAGER_PIN, ok, startCore as startTestCore } from '../support/session.ts';
import { cleanupAfterEach } from '../support/cleanups.ts';

const later = cleanupAfterEach();
afterEach(closeCores);

const SALE = {
  lines: [{ name: 'Хлеб', quantity: 2, unitPrice: 80, labels: ['A'] }],
  payments: [{ type: 'cash', amount: 160 }],
};

/** The whole core on the sdk sandbox, on a clock the test moves, signed in; closed after the test. */
async function startCore(): Promise<{ core: Core; clock: { now: number } }> {
  const clock = { now: Date.now() };
  const core = await startTestCore({
    prefix: 'kasa-journal-',
    now: () => clock.now,
    env: {
      KASA_LANG: 'en',
      KASA_ONLINE_BUDGET_MS: '5000',
      KASA_SANDBOX_VARIANT: 'sdk',
      KASA_PRINTER_ALLOW_LOOPBACK: '1',
    },
    engine: false,
  });
  return { core, clock };
}

describe('a receipt issued without its journal', () => {
  it('is fiscalized but never printed blank; once the journal can be had it prints in full', async () => {
    const { core, clock } = await startCore();
    const printer: CaptureServer = await startCaptureServer();
    later(() => printer.close());
    const profile = findPreset('epson-tm-t88v')!;
    await ok(core, 'printer.configure', {
      uri: `tcp://127.0.0.1:${printer.port}`,
      profileId: EPSON.id,
      autoPrint: true,
      approval: { managerPin: MANAGER_PIN },
    });

    // The gateway gives no journal anywhere.
    await control(core, 'journal', { withheld: true });
    const res = await ok<{ orderId: number; state: string; receipt?: { invoiceNumber: string; journal: string } }>(
      core,
      'sales.checkout',
      SALE,
    );
    expect(res.state).toBe('fiscalized');
    expect(res.receipt?.invoiceNumber).toMatch(/^[^-]+-[^-]+-\d+$/);
    expect(res.receipt?.journal).toBe('');

    // Printing is refused with a clear message; no job, no bytes at the printer.
    const refused = await core.dispatch('print.receipt', { orderId: res.orderId });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('conflict');
      expect(refused.error.message).toContain('print it from the archive later');
    }
    expect(core.db.prepare('SELECT count(*) FROM print_jobs WHERE order_id = ?').pluck().get(res.orderId)).toBe(0);
    expect(printer.connections).toBe(0);
    // It has its invoice number and is never sent again: one receipt at the gateway.
    const order = await ok<OrderView>(core, 'orders.get', { orderId: res.orderId });
    expect(order.state).toBe('fiscalized');
    const ledger = (await control(core, 'ledger')) as { receipts: { orderNumber: string }[] };
    expect(ledger.receipts.filter((r) => r.orderNumber === order.orderNumber)).toHaveLength(1);

    // The archive has the journal again; the fetch is retried (its backoff passed) and the receipt prints.
    await control(core, 'journal', { withheld: false });
    clock.now += 60_000;
    const second = await ok<{ orderId: number; state: string }>(core, 'sales.checkout', SALE); // a fiscalization runs the fetch
    expect(second.state).toBe('fiscalized');
    await until(() => printer.jobs.length === 2);
    const completed = await ok<OrderView>(core, 'orders.get', { orderId: res.orderId });
    const journal = completed.receipt?.journal ?? '';
    expect(journal).toContain(completed.receipt?.invoiceNumber ?? '?');
    const decoded = printer.jobs.map((raw) => decodeEscPos(raw, { codePages: codePageNumbers(profile) }));
    const first = decoded.find((d) => d.lines.some((l) => l.includes(completed.receipt?.invoiceNumber ?? '?')));
    expect(first).toBeDefined();
    expect(first?.problems).toEqual([]);
    const lines = journalLines(journal);
    const start = first?.lines.indexOf(lines[0] ?? '') ?? -1;
    expect(start).toBeGreaterThanOrEqual(0);
    expect(first?.lines.slice(start, start + lines.length)).toEqual(lines);
    expect(first?.qr.map((q) => q.data)).toEqual([completed.receipt?.verificationUrl]);
    if (process.env['KASA_SHOW_DECODED']) process.stdout.write(`${first?.lines.join('\n')}\n`);
  });

  it("a journal that never comes ends in the manager's list with the gateway's words; a person resumes it", async () => {
    const { core, clock } = await startCore();
    await control(core, 'journal', { withheld: true });
    const first = await ok<{ orderId: number; orderNumber: string; receipt?: { invoiceNumber: string } }>(
      core,
      'sales.checkout',
      SALE,
    );
    // Every later fiscalization runs the fetch again; an hour apart, past every backoff.
    const tries = () =>
      (core.db
        .prepare("SELECT tries FROM retry_budgets WHERE loop = 'journal' AND item = ?")
        .pluck()
        .get(String(first.orderId)) as number | undefined) ?? 0;
    await until(() => tries() === 1);
    for (let n = 2; n <= 8; n++) {
      clock.now += 3600_000;
      await ok(core, 'sales.checkout', SALE);
      await until(() => tries() === n);
    }
    const list = await ok<{
      items: { loop: string; item: string; label: string; tries: number; lastError: string | null }[];
    }>(core, 'retries.list');
    const mine = list.items.find((i) => i.loop === 'journal' && i.item === String(first.orderId));
    expect(mine).toMatchObject({ tries: 8, lastError: 'the archive record has no journal either' });
    expect(mine?.label).toContain(first.receipt?.invoiceNumber ?? '?');
    const before = await ok<OrderView>(core, 'orders.get', { orderId: first.orderId });
    expect(before.receipt?.journal).toBe('');

    // The gateway has the journal again; a manager resumes: fetched at once, gone from the list.
    await control(core, 'journal', { withheld: false });
    const resumed = await ok<{ resumed: boolean }>(core, 'retries.resume', {
      loop: 'journal',
      item: String(first.orderId),
    });
    expect(resumed.resumed).toBe(true);
    await until(
      () =>
        (core.db
          .prepare("SELECT json_extract(receipt, '$.journal') FROM orders WHERE id = ?")
          .pluck()
          .get(first.orderId) ?? '') !== '',
    );
    const after = await ok<OrderView>(core, 'orders.get', { orderId: first.orderId });
    expect(after.receipt?.journal).toContain('ФИСКАЛНИ РАЧУН');
    const left = await ok<{ items: { item: string }[] }>(core, 'retries.list');
    expect(left.items.map((i) => i.item)).not.toContain(String(first.orderId));
  });
});
