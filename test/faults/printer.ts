/**
 * Printer faults mid-job on a real TCP "printer" (ephemeral port): connection resets after part of the
 * job, a printer that is off and comes back, a printer gone long enough for the job to fail (then
 * reprinted), and a printer that stalls forever (a known limitation of raw TCP printing). The print
 * service is wired as the core wires it (receipts from the order store of a till that fiscalized through
 * the real sandbox), with a profile whose printer can be asked for status (this stand-in never answers).
 *
 * Checked: the job ends printed, whole, exactly once on a completed connection (partial prints are the
 * resets); a connection reset mid-job is never reprinted unasked: the job waits `unconfirmed` for the
 * cashier, whose "it did not come out" prints it once more; a failed job stays in the database, is
 * reported (status `failed`, lastError) and can be reprinted; and no print fault makes a single request to
 * the gateway (the sandbox's request count and ledger do not change), so nothing is ever re-fiscalized.
 */
import net from 'node:net';
import { createPrintService, type PrintService } from '../../electron/printer/service.ts';
import { createTransportFactory } from '../../electron/printer/transport.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { journalLines } from '../../electron/printer/layout.ts';
import type { PrintStatus } from '../../shared/contract/printer.ts';
import { memorySettings, startCaptureServer, type CaptureServer } from '../printer/helpers.ts';
import { freePort, listenOnLoopback } from '../support/ports.ts';
import { makeTill, newTally, sale, type FaultTally, type Till } from './harness.ts';

const PROFILE = 'epson-tm-t88v';

/** Waits for `cond`, yielding to the event loop; gives up after `max` turns (then the check fails). */
async function until(cond: () => boolean, max = 2000): Promise<boolean> {
  for (let i = 0; i < max && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  return cond();
}

interface Scenario {
  fault: string;
  /** Starts the printer for this scenario on `port` (null: nothing listens yet). */
  printer(port: number): Promise<CaptureServer | null>;
  /** After the first attempts: what changes (the printer comes back, or is replaced). */
  then?(port: number, current: CaptureServer | null, service: PrintService): Promise<CaptureServer | null>;
  maxAttempts?: number;
  /** The cashier is asked this many times whether the receipt came out, and answers "no" each time. */
  asks?: number;
}

const SCENARIOS: Scenario[] = [
  {
    // Part of the receipt may be on paper: the cashier is asked each time, never a silent reprint.
    fault: 'connection reset mid-job (twice), the cashier says it did not come out',
    printer: (port) => startCaptureServer({ port, resetAfterBytes: (n) => (n <= 2 ? 200 * n : null) }),
    asks: 2,
  },
  {
    fault: 'printer off (connection refused), then back',
    printer: async () => null,
    then: async (port) => startCaptureServer({ port }),
  },
  {
    fault: 'printer gone until the job fails (3 attempts), then reprinted',
    maxAttempts: 3,
    printer: async () => null,
    async then(port, _current, service) {
      const server = await startCaptureServer({ port });
      service.reprintLast();
      return server;
    },
  },
];

/**
 * A printer that accepts the connection and never reads: the bytes fit in the socket buffers, the
 * transport sees them flushed and, after its close wait, marks the job printed. A raw TCP (9100) printer
 * sends no acknowledgement, so Kasa cannot tell; recorded as a known limitation (see the report).
 */
async function stalledPrinter(tally: FaultTally, log: (line: string) => void): Promise<void> {
  tally.cases++;
  const till = await makeTill();
  const sockets = new Set<net.Socket>();
  let read = 0;
  const server = net.createServer((sock) => {
    sockets.add(sock);
    sock.pause();
    sock.on('data', (d: Buffer) => (read += d.length));
    sock.on('error', () => undefined);
  });
  const port = await listenOnLoopback(server);
  let service: PrintService | null = null;
  try {
    const { orderId } = await till.sales.checkout(sale(12));
    await till.settle();
    const ledgerBefore = till.sandbox.controls.ledger().receipts.length;
    service = createPrintService({
      db: till.db,
      getReceipt: (id) => {
        const row = till.store.get(id);
        const view = row && row.state === 'fiscalized' ? till.store.view(row) : null;
        return view?.receipt ? { receipt: view.receipt, cash: false } : null;
      },
      settings: memorySettings({ 'printer.uri': `tcp://127.0.0.1:${port}`, 'printer.profile': PROFILE }),
      emit: () => undefined,
      env: {},
      transport: createTransportFactory({
        connectTimeoutMs: 500,
        writeTimeoutMs: 2000,
        closeWaitMs: 200,
        statusTimeoutMs: 200,
      }),
      retry: { baseMs: 20, capMs: 80 },
    });
    service.start();
    const jobId = service.enqueueReceipt(orderId);
    const state = () =>
      (till.db.prepare('SELECT state FROM print_jobs WHERE id = ?').get(jobId) as { state: string } | undefined)?.state;
    await until(() => state() === 'printed' || state() === 'failed');
    const ledgerAfter = till.sandbox.controls.ledger().receipts.length;
    const ok = ledgerAfter === ledgerBefore && state() !== undefined;
    const result = `job marked ${state() ?? 'missing'} while the printer read ${read} bytes (raw TCP has no acknowledgement); ledger ${ledgerAfter === ledgerBefore ? 'unchanged' : 'CHANGED'}`;
    tally.rows.push({
      area: 'printer',
      fault: 'printer stalls forever after accepting the connection (never reads)',
      result,
      ok,
      known: true,
    });
    if (ledgerAfter !== ledgerBefore) tally.duplicates += ledgerAfter - ledgerBefore;
    log(`${ok ? 'known' : 'FAIL'} printer: stalled printer: ${result}`);
  } finally {
    await service?.stop();
    for (const sock of sockets) sock.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await till.close();
  }
}

export async function runPrinterFaults(log: (line: string) => void = () => undefined): Promise<FaultTally> {
  const tally = newTally();
  await stalledPrinter(tally, log);
  const profile = findPreset(PROFILE);
  if (!profile) throw new Error(`printer preset ${PROFILE} is missing`);
  for (const s of SCENARIOS) {
    tally.cases++;
    let till: Till | null = null;
    let service: PrintService | null = null;
    let server: CaptureServer | null = null;
    const problems: string[] = [];
    try {
      till = await makeTill();
      const t = till;
      const { orderNumber, orderId } = await t.sales.checkout(sale(321.5));
      await t.settle();
      const ledgerBefore = t.sandbox.controls.ledger().receipts.length;
      const requestsBefore = t.sandbox.controls.stats().total;
      const port = await freePort();
      const statuses: PrintStatus[] = [];
      service = createPrintService({
        db: t.db,
        getReceipt: (id) => {
          const row = t.store.get(id);
          if (!row || row.state !== 'fiscalized') return null;
          const view = t.store.view(row);
          return view.receipt ? { receipt: view.receipt, cash: false } : null;
        },
        settings: memorySettings({ 'printer.uri': `tcp://127.0.0.1:${port}`, 'printer.profile': PROFILE }),
        emit: (_n, st) => void statuses.push(st),
        env: {},
        transport: createTransportFactory({
          connectTimeoutMs: 500,
          writeTimeoutMs: 2000,
          closeWaitMs: 1000,
          statusTimeoutMs: 200,
        }),
        retry: { baseMs: 20, capMs: 80, maxAttempts: s.maxAttempts ?? 60 },
      });
      const svc = service;
      server = await s.printer(port);
      svc.start();
      const jobId = svc.enqueueReceipt(orderId);
      const job = () =>
        t.db.prepare('SELECT state, attempts, last_error FROM print_jobs WHERE id = ?').get(jobId) as
          { state: string; attempts: number; last_error: string | null } | undefined;
      if (s.then) {
        const failedFirst = s.maxAttempts !== undefined;
        await until(() => (failedFirst ? job()?.state === 'failed' : (job()?.attempts ?? 0) >= 2));
        const j = job();
        if (!j) problems.push('job lost');
        else if (failedFirst) {
          if (j.state !== 'failed')
            problems.push(`job is ${j.state}, expected failed after ${s.maxAttempts ?? 0} attempts`);
          if (svc.status().failed !== 1 || !j.last_error) problems.push('failure not reported');
        } else if (!j.last_error) problems.push('no error reported while failing');
        server = await s.then(port, server, svc);
      }
      let asked = 0;
      const done = await until(() => {
        if (job()?.state === 'unconfirmed') {
          asked++;
          svc.confirm(jobId, false);
        }
        return job()?.state === 'printed' && (server?.jobs.length ?? 0) >= 1;
      });
      if (asked !== (s.asks ?? 0)) problems.push(`the cashier was asked ${asked} time(s), expected ${s.asks ?? 0}`);
      if (!done) problems.push(`job is ${job()?.state ?? 'missing'} (${job()?.last_error ?? ''})`);
      const complete = server?.jobs ?? [];
      if (complete.length !== 1) problems.push(`${complete.length} complete prints (expected 1)`);
      const bytes = complete[0];
      if (bytes) {
        const receipt = t.store.view(t.store.get(orderId) as NonNullable<ReturnType<Till['store']['get']>>).receipt;
        const d = decodeEscPos(bytes, { codePages: codePageNumbers(profile) });
        const want = journalLines(receipt?.journal ?? '');
        const got = d.lines.filter((l) => l !== '');
        if (JSON.stringify(got) !== JSON.stringify(want)) problems.push('printed journal differs from the receipt');
        if (d.qr[0]?.data !== receipt?.verificationUrl) problems.push('QR payload differs');
      }
      const ledgerAfter = t.sandbox.controls.ledger().receipts.length;
      const requestsAfter = t.sandbox.controls.stats().total;
      if (ledgerAfter !== ledgerBefore) {
        tally.duplicates += ledgerAfter - ledgerBefore;
        problems.push(`ledger grew by ${ledgerAfter - ledgerBefore}`);
      }
      if (requestsAfter !== requestsBefore)
        problems.push(`${requestsAfter - requestsBefore} gateway request(s) during printing`);
      const row = t.store.getByNumber(orderNumber);
      if (row?.state !== 'fiscalized') {
        tally.lost++;
        problems.push(`order is ${row?.state ?? 'missing'}`);
      }
      if (!done) tally.lost++;
      const attempts = job()?.attempts ?? 0;
      const result = problems.length
        ? problems.join('; ')
        : `printed whole once after ${attempts} attempt(s) (${server?.resets.length ?? 0} partial${
            asked ? `, the cashier asked ${asked} time(s)` : ''
          }), ledger unchanged`;
      tally.rows.push({ area: 'printer', fault: s.fault, result, ok: problems.length === 0 });
      log(`${problems.length ? 'FAIL' : 'ok  '} printer: ${s.fault}: ${result}`);
    } catch (err) {
      tally.crashes++;
      tally.rows.push({
        area: 'printer',
        fault: s.fault,
        result: `crash: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
        ok: false,
      });
      log(`FAIL printer: ${s.fault}: ${String(err)}`);
    } finally {
      await service?.stop();
      await server?.close();
      await till?.close();
    }
  }
  return tally;
}
