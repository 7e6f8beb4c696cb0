/**
 * The printer goes away and comes back. Real TCP on ephemeral ports; the retry delay is shortened.
 * A connection reset mid-job on a printer that can be asked for status (this Epson profile) makes the job
 * `unconfirmed`: the cashier says whether it came out; "no" prints it whole once more (the partial first
 * attempt may show on paper). On a profile that cannot be asked it is retried whole (printer-truth.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { journalLines } from '../../electron/printer/layout.ts';
import { makeReceipt } from './fixtures.ts';
import { startCaptureServer, tcpPrintService, until } from './helpers.ts';
import { cleanupAfterEach } from '../support/cleanups.ts';
import { freePort } from '../support/ports.ts';

const later = cleanupAfterEach();

const profile = findPreset('epson-tm-t88v')!;
const receipt = makeReceipt({ seed: 'offline' });

function setup(port: number) {
  const { service, db, log } = tcpPrintService(port, later, {
    profile,
    getReceipt: (id) => (id === 1 ? { receipt, cash: false } : null),
  });
  const job = (id: number) =>
    db.prepare('SELECT state, attempts, last_error FROM print_jobs WHERE id = ?').get(id) as {
      state: string;
      attempts: number;
      last_error: string | null;
    };
  return { service, log, job };
}

function expectWholeReceipt(bytes: Buffer) {
  const d = decodeEscPos(bytes, { codePages: codePageNumbers(profile) });
  expect(d.problems).toEqual([]);
  expect(d.lines.filter((l) => l !== '')).toEqual(journalLines(receipt.journal));
  expect(d.qr.map((q) => q.data)).toEqual([receipt.verificationUrl]);
  expect(d.cuts).toBe(1);
}

describe('printer offline', () => {
  it('waits while the printer refuses connections, then prints exactly once when it is back', async () => {
    const port = await freePort();
    const { service, log, job } = setup(port);
    service.start();
    const id = service.enqueueReceipt(1);
    await until(() => log.events.some((e) => e.state === 'offline'));
    // The job waits (queued between its retries, never failed or held); a retry may be under way at any instant,
    // so the queued state is awaited rather than sampled (a loaded machine once sampled it mid-retry).
    await until(() => job(id).state === 'queued' && /ECONNREFUSED/.test(job(id).last_error ?? ''));
    expect(['queued', 'printing']).toContain(job(id).state);
    await until(() => job(id).attempts >= 2); // still retrying

    const server = await startCaptureServer({ port });
    later(() => server.close());
    await until(() => job(id).state === 'printed');
    expect(server.jobs).toHaveLength(1);
    expectWholeReceipt(server.jobs[0]!);
    expect(service.status()).toMatchObject({ state: 'idle', queued: 0, lastError: null });
    expect(log.events.map((e) => e.state)).toEqual(expect.arrayContaining(['printing', 'offline', 'idle']));
    // Nothing more is sent later.
    await service.stop();
    expect(server.connections).toBe(1);
  });

  it('a connection reset mid-job: the cashier is asked; "did not come out" prints it whole once more', async () => {
    const server = await startCaptureServer({ resetAfterBytes: (n) => (n === 1 ? 300 : null) });
    later(() => server.close());
    const { service, job } = setup(server.port);
    service.start();
    const id = service.enqueueReceipt(1);
    // A printer that can be asked for status: part of it may be on paper, so it is never reprinted unasked.
    await until(() => job(id).state === 'unconfirmed');
    expect(service.status().confirm).toMatchObject({ jobId: id, invoiceNumber: receipt.invoiceNumber });
    service.confirm(id, false);
    await until(() => job(id).state === 'printed');
    expect(server.resets).toHaveLength(1);
    // The printer dropped the connection without the client's FIN being acknowledged: not printed.
    expect(server.resets[0]!.length).toBeGreaterThanOrEqual(300);
    expect(server.jobs).toHaveLength(1);
    expectWholeReceipt(server.jobs[0]!);
    expect(job(id).attempts).toBe(1); // the print the cashier asked for, counted afresh
  });

  it('a job survives a restart: queued in SQLite, printed by the next service', async () => {
    const port = await freePort();
    const first = setup(port);
    const id = first.service.enqueueReceipt(1); // never started: the app quit
    await first.service.stop();
    const server = await startCaptureServer({ port });
    later(() => server.close());
    first.service.start();
    await until(() => first.job(id).state === 'printed');
    expect(server.jobs).toHaveLength(1);
  });
});
