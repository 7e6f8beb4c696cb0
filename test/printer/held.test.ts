/**
 * Held jobs: a job that waited longer than the hold time (the printer unreachable) is not printed when the
 * printer comes back; a manager prints it (once) or drops it (never printed), audited. Real SQLite file,
 * real TCP printer stand-in on an ephemeral port; the service's clock (`now`) runs with real time and is
 * moved ahead by the test, so the hold time passes without waiting five minutes.
 */
import { describe, expect, it } from 'vitest';
import { printerHandlers } from '../../electron/printer/handlers.ts';
import { HOLD_AFTER_MS } from '../../electron/printer/held.ts';
import { StaffService } from '../../electron/auth/staff.ts';
import type { Caller } from '../../electron/auth/context.ts';
import type { GatewayClient } from '../../electron/gateway/client.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { makeReceipt } from './fixtures.ts';
import { startCaptureServer, tcpPrintService, until } from './helpers.ts';
import { cleanupAfterEach } from '../support/cleanups.ts';
import { freePort } from '../support/ports.ts';

const later = cleanupAfterEach();

const profile = findPreset('epson-tm-t88v')!;
const receipt = makeReceipt({ seed: 'held' });
const manager: Caller = {
  actor: { id: 2, name: 'Касир Ана', role: 'cashier', mustChangePin: false },
  approver: { id: 1, name: 'Менаџерка Мира', role: 'manager', mustChangePin: false },
};

function setup(port: number) {
  let offset = 0;
  const now = () => Date.now() + offset;
  const { service, db, log } = tcpPrintService(port, later, {
    profile,
    now,
    getReceipt: (id) => (id === 7 ? { receipt, cash: false } : null),
  });
  const staff = new StaffService({ db, now, client: () => ({}) as GatewayClient });
  const handlers = printerHandlers(service, {
    audit: (actor, action, detail, approver) => staff.audit(actor, action, detail, approver),
  });
  const job = (id: number) =>
    db.prepare('SELECT state, released, attempts FROM print_jobs WHERE id = ?').get(id) as {
      state: string;
      released: number;
      attempts: number;
    };
  const audit = () =>
    db.prepare('SELECT actor, action, detail FROM audit_log WHERE action LIKE ? ORDER BY id').all('print.held%') as {
      actor: string;
      action: string;
      detail: string;
    }[];
  return { service, handlers, log, job, audit, advance: (ms: number) => void (offset += ms) };
}

/** The receipt lines in one connection's bytes, decoded with the project's decoder. */
function receiptsIn(bytes: Buffer): number {
  const d = decodeEscPos(bytes, { codePages: codePageNumbers(profile) });
  return d.qr.filter((q) => q.data === receipt.verificationUrl).length;
}

/** The printer unreachable past the hold time, then back: the job is held, nothing printed. */
async function heldWhileAway() {
  const port = await freePort();
  const s = setup(port);
  s.service.start();
  const id = s.service.enqueueReceipt(7);
  await until(() => s.job(id).attempts >= 2); // the printer refuses connections: retried
  s.advance(HOLD_AFTER_MS + 1000);
  await until(() => s.job(id).state === 'held');
  const server = await startCaptureServer({ port });
  later(() => server.close());
  return { ...s, id, server };
}

describe('held jobs', () => {
  it('a receipt queued while the printer was unreachable longer than the hold time is held, not printed', async () => {
    const { service, handlers, id, server, log, job } = await heldWhileAway();
    await until(() => log.events.some((e) => e.held === 1));
    expect(service.status()).toMatchObject({ held: 1, queued: 0 });
    // The printer is back; a test page asked now prints, the held receipt does not come out with it.
    const test = service.printTest();
    await until(() => job(test).state === 'printed');
    expect(server.jobs).toHaveLength(1);
    expect(receiptsIn(server.jobs[0]!)).toBe(0);
    expect(job(id).state).toBe('held');
    expect(await handlers['print.held']({ managerPin: '1234' }, manager)).toEqual({
      jobs: [
        {
          id,
          orderId: 7,
          kind: 'receipt',
          invoiceNumber: receipt.invoiceNumber,
          totalPara: receipt.totalPara,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
        },
      ],
    });
  });

  it('the manager prints it: it comes out exactly once and is never held again; audited', async () => {
    const { service, handlers, id, server, job, audit, advance } = await heldWhileAway();
    expect(await handlers['print.resolveHeld']({ managerPin: '1234', jobIds: [id], action: 'print' }, manager)).toEqual(
      { printed: [id], dropped: [] },
    );
    await until(() => job(id).state === 'printed');
    expect(job(id).released).toBe(1);
    expect(server.jobs).toHaveLength(1);
    expect(receiptsIn(server.jobs[0]!)).toBe(1);
    expect(audit()).toEqual([
      { actor: 'Менаџерка Мира', action: 'print.heldPrinted', detail: JSON.stringify({ jobIds: [id] }) },
    ]);
    // Resolved already: a second decision on the same job changes nothing and says so.
    await expect(
      handlers['print.resolveHeld']({ managerPin: '1234', jobIds: [id], action: 'drop' }, manager),
    ).rejects.toMatchObject({ code: 'conflict', key: 'held_gone' });
    advance(HOLD_AFTER_MS * 3);
    service.printTest();
    await until(() => server.jobs.length === 2);
    expect(receiptsIn(server.jobs[1]!)).toBe(0);
    expect(service.status()).toMatchObject({ held: 0, queued: 0 });
  });

  it('the manager drops it: it never comes out; audited', async () => {
    const { service, handlers, id, server, job, audit } = await heldWhileAway();
    expect(await handlers['print.resolveHeld']({ managerPin: '1234', jobIds: [id], action: 'drop' }, manager)).toEqual({
      printed: [],
      dropped: [id],
    });
    expect(job(id).state).toBe('dropped');
    expect(await handlers['print.held']({ managerPin: '1234' }, manager)).toEqual({ jobs: [] });
    const test = service.printTest();
    await until(() => job(test).state === 'printed');
    expect(server.jobs).toHaveLength(1);
    expect(receiptsIn(server.jobs[0]!)).toBe(0);
    expect(job(id).state).toBe('dropped');
    expect(audit()).toEqual([
      { actor: 'Менаџерка Мира', action: 'print.heldDropped', detail: JSON.stringify({ jobIds: [id] }) },
    ]);
    expect(service.status().held).toBe(0);
  });

  it('the cashier asking for the held receipt again prints it (once), not a second job', async () => {
    const { service, id, server, job } = await heldWhileAway();
    expect(service.enqueueReceipt(7)).toBe(id);
    await until(() => job(id).state === 'printed');
    expect(server.jobs).toHaveLength(1);
    expect(receiptsIn(server.jobs[0]!)).toBe(1);
  });

  it('a receipt younger than the hold time prints normally when the printer comes back', async () => {
    const port = await freePort();
    const { service, job, advance } = setup(port);
    service.start();
    const id = service.enqueueReceipt(7);
    await until(() => job(id).attempts >= 2);
    advance(HOLD_AFTER_MS - 60_000);
    const server = await startCaptureServer({ port });
    later(() => server.close());
    await until(() => job(id).state === 'printed');
    expect(server.jobs).toHaveLength(1);
    expect(receiptsIn(server.jobs[0]!)).toBe(1);
    expect(service.status().held).toBe(0);
  });

  it('print.resolveHeld without an approving manager is refused and changes nothing', async () => {
    const { handlers, id, job, audit } = await heldWhileAway();
    await expect(
      handlers['print.resolveHeld'](
        { managerPin: '1234', jobIds: [id], action: 'print' },
        { actor: null, approver: null },
      ),
    ).rejects.toMatchObject({ code: 'forbidden' });
    expect(job(id).state).toBe('held');
    expect(audit()).toEqual([]);
  });
});
