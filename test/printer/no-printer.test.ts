/**
 * A till with no printer set says so instead of "sent", through the whole core (createCore) on a real
 * SQLite file, the embedded sandbox over HTTP and, once one is set, a real TCP printer on an ephemeral port
 * decoded with the project's ESC/POS decoder. Every print command is refused with where to set a printer;
 * a sale fiscalized meanwhile queues nothing, so setting the printer later prints only what is asked for.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import type { PrintStatus } from '../../shared/contract/printer.ts';
import { startCaptureServer, until, attachPrinter, EPSON, decoderFor } from './helpers.ts';
import { BREAD_AND_MILK, closeCore, closeCores, fails, MANAGER_PIN, ok, startCore } from '../support/session.ts';
import { cleanupAfterEach } from '../support/cleanups.ts';

const later = cleanupAfterEach();
afterEach(closeCores);

const decode = decoderFor(EPSON);
const NOT_CONFIGURED = 'Штампач није подешен — Менаџер → Подешавања → Штампач';

const jobsOf = (core: Core) =>
  core.db.prepare<[], { kind: string; order_id: number | null }>('SELECT kind, order_id FROM print_jobs').all();

describe('a till with no printer set', () => {
  it('refuses every print action with where to set one, queues nothing, and later prints only what is asked', async () => {
    const core = await startCore({
      prefix: 'kasa-noprinter-',
      env: { KASA_LANG: 'sr-Cyrl', KASA_ONLINE_BUDGET_MS: '5000', KASA_PRINTER_ALLOW_LOOPBACK: '1' },
    });
    const before = await ok<PrintStatus>(core, 'print.status');
    expect(before).toMatchObject({ configured: false, state: 'unconfigured', autoPrint: true, queued: 0 });

    // A sale is fiscalized with auto-print on: nothing is queued for a printer nobody has set.
    const sale = await ok<{ orderId: number; state: string; receipt?: { invoiceNumber: string } }>(
      core,
      'sales.checkout',
      BREAD_AND_MILK,
    );
    expect(sale.state).toBe('fiscalized');
    const refusal = { code: 'unavailable', message: NOT_CONFIGURED };
    expect(await fails(core, 'print.test', {})).toMatchObject(refusal);
    expect(await fails(core, 'print.receipt', { orderId: sale.orderId })).toMatchObject(refusal);
    expect(await fails(core, 'print.reprintLast', {})).toMatchObject(refusal);
    expect(await fails(core, 'reports.print', {})).toMatchObject(refusal);
    // An unknown order is still not_found: the printer is not the first thing wrong with it.
    expect(await fails(core, 'print.receipt', { orderId: 999 })).toMatchObject({ code: 'not_found' });
    expect(jobsOf(core)).toEqual([]);
    expect(await ok<PrintStatus>(core, 'print.status')).toMatchObject({ configured: false, queued: 0, failed: 0 });

    // A printer is set: the test page prints, and the earlier sale's receipt does not come out unasked.
    const printer = await startCaptureServer();
    later(() => printer.close());
    const configured = await ok<PrintStatus>(core, 'printer.configure', {
      uri: `tcp://127.0.0.1:${printer.port}`,
      profileId: EPSON.id,
      approval: { managerPin: MANAGER_PIN },
    });
    expect(configured).toMatchObject({ configured: true, autoPrint: true, queued: 0 });
    await ok<{ jobId: number }>(core, 'print.test');
    await until(() => printer.jobs.length === 1);
    const page = decode(printer.jobs[0]!);
    expect(page.problems).toEqual([]);
    expect(page.lines).toContain('Ђ Ј Љ Њ Ћ Џ ђ ј љ њ ћ џ');
    expect(page.lines.join('\n')).not.toContain(sale.receipt?.invoiceNumber ?? '?');
    await expect.poll(async () => (await ok<PrintStatus>(core, 'print.status')).queued).toBe(0);
    expect(jobsOf(core)).toEqual([{ kind: 'test', order_id: null }]);
    // The worker has nothing else to send, even after the till stops.
    await closeCore(core);
    expect(printer.connections).toBe(1);
    expect(printer.jobs).toHaveLength(1);
  });

  it('prints the earlier receipt once it is asked for, after a printer is set', async () => {
    const core = await startCore({
      prefix: 'kasa-noprinter-',
      env: { KASA_LANG: 'en', KASA_ONLINE_BUDGET_MS: '5000', KASA_PRINTER_ALLOW_LOOPBACK: '1' },
    });
    const sale = await ok<{ orderId: number; receipt?: { invoiceNumber: string } }>(
      core,
      'sales.checkout',
      BREAD_AND_MILK,
    );
    expect(await fails(core, 'print.receipt', { orderId: sale.orderId })).toMatchObject({
      code: 'unavailable',
      message: 'No printer configured — Manager → Settings → Printer',
    });
    const printer = await attachPrinter(core, later);
    await ok<{ jobId: number }>(core, 'print.receipt', { orderId: sale.orderId });
    await until(() => printer.jobs.length === 1);
    expect(decode(printer.jobs[0]!).lines.join('\n')).toContain(sale.receipt?.invoiceNumber ?? '?');
  });
});
