/**
 * A job is printed only when the printer says so. The real print service (real SQLite file, real TCP)
 * against the fake Epson-class printer (fake-epson.ts), which answers DLE EOT 1–4 and holds a job while
 * the paper is out. What came out is counted on the fake's paper, decoded with the project's decoder.
 */
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../support/cleanups.ts';
import { createPrintService, type PrintService } from '../../electron/printer/service.ts';
import { printerHandlers } from '../../electron/printer/handlers.ts';
import { createTransportFactory } from '../../electron/printer/transport.ts';
import { parseDleEot, statusExchange } from '../../electron/printer/status.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { journalLines } from '../../electron/printer/layout.ts';
import type { ReceiptView } from '../../shared/domain.ts';
import { makeReceipt } from './fixtures.ts';
import { startFakeEpson, type FakeEpsonOptions } from './fake-epson.ts';
import { memorySettings, startCaptureServer, statusLog, tempDb, testPrintService, until } from './helpers.ts';

const later = cleanupAfterEach();

const EPSON = 'epson-tm-t88v';
const receipts = new Map<number, ReceiptView>([
  [1, makeReceipt({ seed: 'truth-1' })],
  [2, makeReceipt({ seed: 'truth-2' })],
]);

/** How many times each receipt came out whole on paper (every journal line, and its QR where native). */
function copiesOnPaper(paper: Buffer, profileId = EPSON): Map<number, number> {
  const d = decodeEscPos(paper, { codePages: codePageNumbers(findPreset(profileId)!) });
  const out = new Map<number, number>();
  for (const [id, r] of receipts) {
    const journal = journalLines(r.journal);
    let n = 0;
    for (let i = d.lines.indexOf(journal[0]!); i >= 0; i = d.lines.indexOf(journal[0]!, i + 1)) {
      if (JSON.stringify(d.lines.slice(i, i + journal.length)) === JSON.stringify(journal)) n++;
    }
    const qrs = d.qr.filter((q) => q.data === r.verificationUrl).length;
    out.set(id, findPreset(profileId)!.qr === 'native' ? Math.min(n, qrs) : n);
  }
  return out;
}

async function rig(options: { printer?: FakeEpsonOptions; profile?: string } = {}) {
  const printer = await startFakeEpson(options.printer);
  const t = tempDb();
  const log = statusLog();
  const audits: { actor: string | null; action: string; detail: Record<string, unknown> }[] = [];
  const service: PrintService = createPrintService({
    db: t.db,
    settings: memorySettings({
      'printer.uri': `tcp://127.0.0.1:${printer.port}`,
      'printer.profile': options.profile ?? EPSON,
    }),
    emit: log.emit,
    env: {},
    getReceipt: (id) => {
      const receipt = receipts.get(id);
      return receipt ? { receipt, cash: false } : null;
    },
    retry: { baseMs: 20, capMs: 50 },
    pollMs: 50,
    settleMs: 0,
    transport: createTransportFactory({ statusTimeoutMs: 300, closeWaitMs: 200 }),
  });
  const handlers = printerHandlers(service, {
    audit: (actor, action, detail) => audits.push({ actor, action, detail }),
  });
  later(() => printer.close());
  later(() => t.cleanup());
  later(() => service.stop());
  const job = (id: number) =>
    t.db.prepare('SELECT state, sent_at, released, attempts FROM print_jobs WHERE id = ?').get(id) as {
      state: string;
      sent_at: number | null;
      released: number;
      attempts: number;
    };
  const cashier = { actor: { id: 2, name: 'Ана', role: 'cashier' as const, mustChangePin: false }, approver: null };
  return { printer, service, log, job, handlers, audits, cashier, db: t.db };
}

/** The rig with one receipt sent to a printer whose paper runs out part-way (400 bytes left); the job's id. */
async function sentAsPaperRunsOut() {
  const r = await rig();
  r.printer.paperLeft = 400;
  r.service.start();
  const id = r.service.enqueueReceipt(1);
  await until(() => r.job(id).state === 'sent');
  return { ...r, id };
}

describe('a job is printed only when the printer says so', () => {
  it('paper out before a sale: shown within a poll, not printed; after loading paper it comes out once', async () => {
    const { printer, service, log, job } = await rig();
    printer.paperOut = true;
    service.start();
    await until(() => log.events.some((e) => e.state === 'stopped'));
    const stopped = log.events.find((e) => e.state === 'stopped')!;
    expect(stopped.printer).toMatchObject({ source: 'printer', paper: 'out', online: false, coverOpen: false });
    expect((await service.check()).printer.paper).toBe('out');

    const id = service.enqueueReceipt(1);
    // The job is asked about and held back: never sent to a printer that reports no paper.
    await until(() => printer.connections >= 3 && job(id).state === 'queued');
    expect(job(id)).toMatchObject({ state: 'queued', sent_at: null, attempts: 0 });
    expect(printer.held()).toBe(0);
    expect(printer.paper().length).toBe(0);
    expect(service.status()).toMatchObject({ state: 'stopped', queued: 1 });

    printer.loadPaper();
    await until(() => job(id).state === 'printed');
    expect(copiesOnPaper(printer.paper()).get(1)).toBe(1);
    await until(() => service.status().state === 'idle');
    expect(service.status().printer).toMatchObject({ source: 'printer', paper: 'ok', online: true });
    // Later polls print nothing more.
    const polls = printer.connections;
    await until(() => printer.connections >= polls + 3);
    expect(copiesOnPaper(printer.paper()).get(1)).toBe(1);
  });

  it('paper runs out mid-job: sent, never sent again; printed once the paper is loaded', async () => {
    const { printer, service, job, id } = await sentAsPaperRunsOut();
    expect(job(id).sent_at).not.toBeNull();
    expect(service.status()).toMatchObject({ state: 'stopped', printer: { paper: 'out' }, queued: 0 });
    expect(printer.held()).toBeGreaterThan(0);
    expect(copiesOnPaper(printer.paper()).get(1)).toBe(0);
    // Polls keep seeing the paper out; the job stays sent, nothing is sent again.
    const polls = printer.connections;
    await until(() => printer.connections >= polls + 3);
    expect(job(id).state).toBe('sent');

    printer.loadPaper();
    await until(() => job(id).state === 'printed');
    expect(copiesOnPaper(printer.paper()).get(1)).toBe(1);
    expect(service.status().state).toBe('idle');
  });

  it('a printer switched off while it holds a sent job (its buffer lost): the cashier is asked', async () => {
    const { printer, service, job, id } = await sentAsPaperRunsOut();
    printer.powerOff();
    await until(() => job(id).state === 'unconfirmed');
    printer.powerOn();
    printer.loadPaper();
    const polls = printer.connections;
    await until(() => printer.connections >= polls + 3);
    // Never settled as printed by a printer that says "fine" after losing what it held.
    expect(job(id).state).toBe('unconfirmed');
    expect(copiesOnPaper(printer.paper()).get(1)).toBe(0);
    expect(service.status().confirm?.jobId).toBe(id);
    service.confirm(id, false);
    await until(() => job(id).state === 'printed');
    expect(copiesOnPaper(printer.paper()).get(1)).toBe(1);
  });

  it('cover open: nothing sent until it is closed', async () => {
    const { printer, service, job } = await rig();
    printer.coverOpen = true;
    service.start();
    const id = service.enqueueReceipt(2);
    await until(() => service.status().printer.coverOpen === true);
    expect(service.status().state).toBe('stopped');
    expect(job(id).state).toBe('queued');
    printer.closeCover();
    await until(() => job(id).state === 'printed');
    expect(copiesOnPaper(printer.paper()).get(2)).toBe(1);
    expect(service.status().printer.coverOpen).toBe(false);
  });

  it('a printer that does not answer status prints, with its state unknown', async () => {
    const { printer, service, job } = await rig({ printer: { answersStatus: false } });
    service.start();
    const id = service.enqueueReceipt(1);
    await until(() => job(id).state === 'printed');
    expect(copiesOnPaper(printer.paper()).get(1)).toBe(1);
    expect(service.status()).toMatchObject({
      state: 'idle',
      confirm: null,
      printer: { source: 'unknown', paper: null },
    });
    expect((await service.check()).printer.source).toBe('unknown');
  });

  /** A printer that loses power once, after `bytes` bytes of the first job it receives. */
  const powerCutAfter = (bytes: number): FakeEpsonOptions => {
    let cut = false;
    return {
      onBytes: (n, p) => {
        if (!cut && n > bytes) {
          cut = true;
          p.powerCycle();
        }
      },
    };
  };

  it('power cycle during a job: unconfirmed, the cashier is asked; "no" prints it once, audited', async () => {
    const { printer, service, job, handlers, audits, cashier } = await rig({ printer: powerCutAfter(100) });
    service.start();
    const id = service.enqueueReceipt(1);
    await until(() => job(id).state === 'unconfirmed');
    expect(service.status().confirm).toEqual({
      jobId: id,
      orderId: 1,
      kind: 'receipt',
      invoiceNumber: receipts.get(1)!.invoiceNumber,
    });
    // Not printed again unasked.
    const polls = printer.connections;
    await until(() => printer.connections >= polls + 3);
    expect(job(id).state).toBe('unconfirmed');
    expect(copiesOnPaper(printer.paper()).get(1)).toBe(0);

    await expect(handlers['print.confirm']({ jobId: id, cameOut: false }, cashier)).resolves.toEqual({ jobId: id });
    await until(() => job(id).state === 'printed');
    expect(job(id).released).toBe(1);
    expect(copiesOnPaper(printer.paper()).get(1)).toBe(1);
    expect(service.status().confirm).toBeNull();
    expect(audits).toEqual([{ actor: 'Ана', action: 'print.notCameOut', detail: { jobId: id, orderId: 1 } }]);
    // Answered: asking again is a conflict.
    await expect(handlers['print.confirm']({ jobId: id, cameOut: true }, cashier)).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('power cycle during a job; "yes, it came out": printed, nothing more on paper, audited', async () => {
    const { printer, service, job, handlers, audits, cashier } = await rig({ printer: powerCutAfter(100) });
    service.start();
    const id = service.enqueueReceipt(2);
    await until(() => job(id).state === 'unconfirmed');
    const before = printer.paper().length;
    await expect(handlers['print.confirm']({ jobId: id, cameOut: true }, cashier)).resolves.toEqual({ jobId: null });
    expect(job(id).state).toBe('printed');
    const polls = printer.connections;
    await until(() => printer.connections >= polls + 3);
    expect(printer.paper().length).toBe(before);
    expect(audits).toEqual([{ actor: 'Ана', action: 'print.confirmed', detail: { jobId: id, orderId: 2 } }]);
  });

  it('a job a crash left printing is asked about, not printed again', async () => {
    const { printer, service, job, db } = await rig();
    const id = service.enqueueReceipt(1);
    db.prepare(`UPDATE print_jobs SET state = 'printing' WHERE id = ?`).run(id);
    service.start();
    expect(job(id).state).toBe('unconfirmed');
    expect(service.status().confirm?.jobId).toBe(id);
    const polls = printer.connections;
    await until(() => printer.connections >= polls + 2);
    expect(printer.paper().length).toBe(0);
  });

  it('a status request inside image data is answered too, and never read as the answer', async () => {
    const printer = await startFakeEpson({ answerGapMs: 10 });
    later(() => printer.close());
    printer.paperNearEnd = true;
    printer.drawerOpen = true;
    // A 16×2 dot image whose data holds DLE EOT 2 and DLE EOT 4, then a line of text.
    const image = Buffer.from([0x1d, 0x76, 0x30, 0, 2, 0, 2, 0, 0x10, 0x04, 0x02, 0x10, 0x04, 0x04, 0x41, 0x0a]);
    const transport = createTransportFactory({ statusTimeoutMs: 300 })({
      kind: 'tcp',
      host: '127.0.0.1',
      port: printer.port,
    });
    const exchange = statusExchange('dle-eot')!;
    const r = await transport.printAsking!(image, exchange, () => true);
    // Four answers before, two strays, four after: only the last four are the answer.
    expect(printer.answered.map((a) => a.request)).toEqual([
      ...['DLE EOT 1', 'DLE EOT 2', 'DLE EOT 3', 'DLE EOT 4'],
      ...['DLE EOT 2', 'DLE EOT 4'],
      ...['DLE EOT 1', 'DLE EOT 2', 'DLE EOT 3', 'DLE EOT 4'],
    ]);
    const after = parseDleEot(r.after!, 'now');
    expect(after).toMatchObject({ paper: 'near_end', drawerOpen: true, online: true, coverOpen: false });
    // The image came out whole: its data is not a command.
    const d = decodeEscPos(printer.paper());
    expect(d.rasterImages).toHaveLength(1);
    expect([...d.rasterImages[0]!.bits]).toEqual([0x10, 0x04, 0x02, 0x10]);
  });

  it('nothing is asked with no printer set, or of a CUPS queue: the state is unknown', async () => {
    const t = tempDb();
    const settings = memorySettings({ 'printer.profile': EPSON });
    let asked = 0;
    const service = createPrintService({
      db: t.db,
      settings,
      emit: () => undefined,
      env: {},
      getReceipt: () => null,
      pollMs: 20,
      transport: () => ({
        send: async () => undefined,
        ask: async () => {
          asked++;
          return null;
        },
      }),
    });
    later(() => t.cleanup());
    later(() => service.stop());
    service.start();
    expect((await service.check()).printer.source).toBe('unknown');
    settings.set('printer.uri', 'cups://Kasa');
    expect((await service.check()).printer.source).toBe('unknown');
    settings.set('printer.uri', 'tcp://127.0.0.1:9');
    await service.check();
    // The same service asks a network printer: the two above were not asked, not merely unanswered.
    expect(asked).toBe(1);
  });

  it('a profile that cannot be asked: a reset mid-job is retried and printed whole once more', async () => {
    const server = await startCaptureServer({ resetAfterBytes: (n) => (n === 1 ? 300 : null) });
    later(() => server.close());
    const { service, db, close } = testPrintService(
      { 'printer.uri': `tcp://127.0.0.1:${server.port}`, 'printer.profile': 'pos-5890' },
      {
        emit: () => undefined,
        getReceipt: (id) => ({ receipt: receipts.get(id)!, cash: false }),
        retry: { baseMs: 20, capMs: 50 },
        pollMs: 50,
      },
    );
    later(close);
    service.start();
    const id = service.enqueueReceipt(1);
    const state = () => db.prepare('SELECT state FROM print_jobs WHERE id = ?').pluck().get(id);
    await until(() => state() === 'printed');
    expect(server.resets).toHaveLength(1);
    expect(server.jobs).toHaveLength(1);
    expect(copiesOnPaper(server.jobs[0]!, 'pos-5890').get(1)).toBe(1);
    // Never asked: no poll connection either.
    expect(server.connections).toBe(2);
    expect(service.status().printer.source).toBe('unknown');
  });
});
