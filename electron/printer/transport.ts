/**
 * Transports: how print bytes reach a printer. Each `send` is one connection (one job) and resolves only
 * once every byte was handed over and acknowledged as far as the medium allows:
 * - tcp: `socket.end(bytes)`, then the 'finish' of the write side and the printer's close (raw port 9100
 *   printers close after the client's FIN); a reset or error before that rejects. If the printer keeps
 *   the connection open, `send` resolves `closeWaitMs` after every byte was flushed.
 * - file/device: written, fsync'd where the device supports it, closed.
 * - cups / winspool: one RAW job handed to the operating system's spooler (electron/printer/spooler.ts:
 *   `lp -d QUEUE -o raw`, the Windows spooler's RAW datatype), resolved once the spooler accepted it.
 * No retries here: the print queue owns retries.
 */
import net from 'node:net';
import fs from 'node:fs/promises';
import type { PrinterTarget } from '../../shared/contract/printer.ts';
import { createCupsSpooler, systemSpooler, type Spooler } from './spooler.ts';

/** Sends one job's bytes to one printer. */
export interface Transport {
  send(bytes: Buffer): Promise<void>;
}

/** Makes the transport for a parsed printer address (injectable: tests pass their own). */
export type TransportFactory = (target: PrinterTarget) => Transport;

export interface TransportOptions {
  connectTimeoutMs?: number;
  /** Longest a job may take once connected. */
  writeTimeoutMs?: number;
  /** How long to wait for the printer to close after all bytes were flushed. */
  closeWaitMs?: number;
  /** The CUPS client command (default `lp`). */
  lpCommand?: string;
  /** The spoolers (tests pass their own; default: CUPS's client tools, the Windows spooler on Windows). */
  spoolers?: { cups?: Spooler; winspool?: Spooler };
}

/** The job name a spooler shows in its queue. */
const JOB_NAME = 'Kasa';

/** An error from a transport, with a short machine-readable reason. */
export class TransportError extends Error {
  readonly reason: 'offline' | 'timeout' | 'reset' | 'io';
  constructor(reason: TransportError['reason'], message: string) {
    super(message);
    this.name = 'TransportError';
    this.reason = reason;
  }
}

/** The default transport factory: real sockets, files and `lp`. */
export function createTransportFactory(options: TransportOptions = {}): TransportFactory {
  return (target) => {
    switch (target.kind) {
      case 'tcp':
        return { send: (bytes) => sendTcp(target.host, target.port, bytes, options) };
      case 'file':
        return { send: (bytes) => sendFile(target.path, bytes) };
      case 'cups': {
        const spooler = options.spoolers?.cups ?? createCupsSpooler({ lp: options.lpCommand ?? 'lp' });
        return { send: async (bytes) => void (await spooler.printRaw(target.queue, bytes, JOB_NAME)) };
      }
      case 'winspool': {
        const spooler = options.spoolers?.winspool ?? systemSpooler('win32');
        return { send: async (bytes) => void (await spooler.printRaw(target.name, bytes, JOB_NAME)) };
      }
    }
  };
}

function sendTcp(host: string, port: number, bytes: Buffer, o: TransportOptions): Promise<void> {
  const connectTimeout = o.connectTimeoutMs ?? 5000;
  const writeTimeout = o.writeTimeoutMs ?? 60_000;
  const closeWait = o.closeWaitMs ?? 2000;
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let flushed = false;
    let timer: NodeJS.Timeout | undefined;
    const socket = net.connect({ host, port });
    const arm = (ms: number, fn: () => void) => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(fn, ms);
      timer.unref();
    };
    const done = (err?: TransportError) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve();
    };
    arm(connectTimeout, () => done(new TransportError('timeout', `printer ${host}:${port}: connect timeout`)));
    socket.once('connect', () => {
      arm(writeTimeout, () => done(new TransportError('timeout', `printer ${host}:${port}: write timeout`)));
      socket.end(bytes);
    });
    socket.once('finish', () => {
      flushed = true;
      arm(closeWait, () => done());
    });
    socket.on('data', () => {}); // some printers send status bytes; read and ignore them
    socket.once('error', (e: NodeJS.ErrnoException) => {
      const reason =
        e.code === 'ECONNREFUSED' || e.code === 'EHOSTUNREACH' || e.code === 'ENETUNREACH' || e.code === 'ENOTFOUND'
          ? 'offline'
          : e.code === 'ECONNRESET' || e.code === 'EPIPE'
            ? 'reset'
            : 'io';
      done(new TransportError(reason, `printer ${host}:${port}: ${e.code ?? e.message}`));
    });
    socket.once('close', (hadError) => {
      if (hadError) return; // 'error' already settled it
      if (flushed) done();
      else done(new TransportError('reset', `printer ${host}:${port}: closed before all bytes were written`));
    });
  });
}

async function sendFile(path: string, bytes: Buffer): Promise<void> {
  let fh: fs.FileHandle | undefined;
  try {
    fh = await fs.open(path, 'a');
    let off = 0;
    while (off < bytes.length) off += (await fh.write(bytes, off, bytes.length - off)).bytesWritten;
    await fh.sync().catch((e: NodeJS.ErrnoException) => {
      // Character devices (e.g. /dev/usb/lp0) may not support fsync.
      if (e.code !== 'EINVAL' && e.code !== 'ENOTSUP' && e.code !== 'EROFS') throw e;
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const reason =
      err.code === 'ENOENT' || err.code === 'ENXIO' || err.code === 'ENODEV' || err.code === 'EBUSY' ? 'offline' : 'io';
    throw new TransportError(reason, `printer ${path}: ${err.code ?? err.message}`);
  } finally {
    await fh?.close().catch(() => {});
  }
}
