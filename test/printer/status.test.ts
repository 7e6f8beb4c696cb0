/**
 * ESC/POS status answers mapped to the contract's printer condition (bit values from Epson's DLE EOT and
 * GS r reference), and the fake Epson printer answering them over real TCP.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../support/cleanups.ts';
import { DLE_EOT_REQUEST, isStopped, parseDleEot, parseGsR, strayRequests } from '../../electron/printer/status.ts';
import { startFakeEpson, type FakeEpson } from './fake-epson.ts';
import { printerFine } from '../../renderer/src/testing/fixtures.ts';

const AT = '2026-01-01T00:00:00.000Z';
const later = cleanupAfterEach();

describe('DLE EOT answers', () => {
  it('all fine: fixed bits only', () => {
    expect(parseDleEot(Uint8Array.from([0x12, 0x12, 0x12, 0x12]), AT)).toEqual(printerFine(AT));
  });

  it('paper out: offline, paper-end stop, end sensor', () => {
    const c = parseDleEot(Uint8Array.from([0x1a, 0x32, 0x12, 0x7e]), AT)!;
    expect(c).toMatchObject({ online: false, paper: 'out', coverOpen: false, error: 'none' });
    expect(isStopped(c)).toBe(true);
  });

  it('paper near end only: still printing', () => {
    const c = parseDleEot(Uint8Array.from([0x12, 0x12, 0x12, 0x1e]), AT)!;
    expect(c.paper).toBe('near_end');
    expect(isStopped(c)).toBe(false);
  });

  it('cover open, drawer open', () => {
    const c = parseDleEot(Uint8Array.from([0x1e, 0x16, 0x12, 0x12]), AT)!;
    expect(c).toMatchObject({ online: false, coverOpen: true, drawerOpen: true, paper: 'ok' });
    expect(isStopped(c)).toBe(true);
  });

  it('error causes, the gravest first', () => {
    const cause = (b3: number) => parseDleEot(Uint8Array.from([0x1a, 0x52, b3, 0x12]), AT)!.error;
    expect(cause(0x12 | 0x08)).toBe('cutter');
    expect(cause(0x12 | 0x04)).toBe('mechanical');
    expect(cause(0x12 | 0x20 | 0x08)).toBe('unrecoverable');
    expect(cause(0x12 | 0x40)).toBe('recoverable');
  });

  it('bytes without the fixed bits are not answers', () => {
    expect(parseDleEot(Uint8Array.from([0x00, 0x12, 0x12, 0x12]), AT)).toBeNull();
    expect(parseDleEot(Uint8Array.from([0x12, 0x12, 0x12, 0x92]), AT)).toBeNull();
    expect(parseDleEot(Uint8Array.from([0x12, 0x12, 0x12]), AT)).toBeNull();
  });

  it('stray requests inside data are counted', () => {
    expect(strayRequests(Buffer.from([0x1d, 0x76, 0x30, 0, 1, 0, 3, 0, 0x10, 0x04, 0x02]))).toBe(1);
    expect(strayRequests(Buffer.from([0x10, 0x04, 0x05, 0x10, 0x04]))).toBe(0);
    expect(strayRequests(DLE_EOT_REQUEST)).toBe(4);
  });
});

describe('GS r 1 answers', () => {
  it('paper sensors', () => {
    expect(parseGsR(Uint8Array.from([0x00]), AT)).toMatchObject({ paper: 'ok', online: null, coverOpen: null });
    expect(parseGsR(Uint8Array.from([0x03]), AT)?.paper).toBe('near_end');
    expect(parseGsR(Uint8Array.from([0x0f]), AT)?.paper).toBe('out');
    expect(parseGsR(Uint8Array.from([0x10]), AT)).toBeNull();
  });
});

/** Sends `bytes` to the fake and collects `n` answer bytes. */
async function exchange(printer: FakeEpson, bytes: Buffer, n: number): Promise<Buffer> {
  const socket = net.connect({ host: '127.0.0.1', port: printer.port });
  later(() => void socket.destroy());
  const got: Buffer[] = [];
  await new Promise<void>((resolve) => {
    socket.on('data', (d: Buffer) => {
      got.push(d);
      if (Buffer.concat(got).length >= n) resolve();
    });
    socket.write(bytes);
  });
  return Buffer.concat(got);
}

describe('the fake Epson printer', () => {
  it('answers DLE EOT 1-4 at once, even while it holds a job; prints it once paper is loaded', async () => {
    const printer = await startFakeEpson();
    later(() => printer.close());
    printer.paperOut = true;
    const job = Buffer.from('HELLO\n', 'latin1');
    const answers = await exchange(printer, Buffer.concat([job, DLE_EOT_REQUEST]), 4);
    expect(parseDleEot(answers, AT)).toMatchObject({ paper: 'out', online: false });
    expect(printer.paper().length).toBe(0);
    expect(printer.held()).toBeGreaterThan(0);
    printer.loadPaper();
    // The request bytes at command positions are not printed.
    expect(printer.paper().toString('latin1')).toBe('HELLO\n');
  });

  it('answers GS r 1 only once the data before it is printed', async () => {
    const printer = await startFakeEpson();
    later(() => printer.close());
    printer.coverOpen = true;
    const pending = exchange(printer, Buffer.from([0x41, 0x0a, 0x1d, 0x72, 0x01]), 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(printer.answered).toEqual([]);
    printer.closeCover();
    expect([...(await pending)]).toEqual([0x00]);
  });

  it('a clone answers nothing', async () => {
    const printer = await startFakeEpson({ answersStatus: false });
    later(() => printer.close());
    const socket = net.connect({ host: '127.0.0.1', port: printer.port });
    later(() => void socket.destroy());
    let got = 0;
    socket.on('data', (d: Buffer) => (got += d.length));
    socket.write(Buffer.concat([DLE_EOT_REQUEST, Buffer.from('X\n')]));
    await new Promise<void>((r) => {
      const check = () => (printer.paper().length > 0 ? r() : setTimeout(check, 5));
      check();
    });
    expect(got).toBe(0);
    expect(printer.paper().toString('latin1')).toBe('X\n');
  });
});
