/**
 * Transports: how print bytes reach a printer. Each `send` is one connection (one job) and resolves only
 * once every byte was handed over and acknowledged as far as the medium allows:
 * - tcp: `socket.end(bytes)`, then the 'finish' of the write side and the printer's close (raw port 9100
 *   printers close after the client's FIN); a reset or error before that rejects. If the printer keeps
 *   the connection open, `send` resolves `closeWaitMs` after every byte was flushed.
 * - file/device: written, fsync'd where the device supports it, closed.
 * - cups: `lp -d QUEUE -o raw` with the bytes on stdin, resolved on exit code 0.
 * No retries here: the print queue owns retries.
 *
 * Status (tcp only, status.ts): `printAsking` asks the printer before the job's bytes and after them on the
 * same connection (a raw port takes one client at a time; Kasa never opens a second one during a job), and
 * `ask` asks it alone (the idle poll). The answer after a job is read as the LAST answer bytes once as many
 * arrived as the job's own bytes can bring (a `DLE EOT n` inside image or QR data is answered too) plus
 * the final request's: what arrives meanwhile is drained and ignored, never misread as the answer.
 * Device files are not asked: a read on a character device cannot be given a timeout from Node without
 * blocking a thread-pool thread, and could not be tested here (docs/printing.md).
 */
import net from 'node:net';
import fs from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { childEnv } from '../auth/child-env.ts';
import type { PrinterTarget } from '../../shared/contract/printer.ts';
import type { StatusExchange } from './status.ts';

/** What a job sent with status requests found out. */
export interface AskedJob {
  /** The answer before the job's bytes (null: none in time). */
  before: Buffer | null;
  /** The job's bytes were sent (false: `proceed` said no, e.g. paper out). */
  sent: boolean;
  /** The answer after the job's bytes (null: none in time, or not asked because none came before). */
  after: Buffer | null;
}

/** Sends one job's bytes to one printer. */
export interface Transport {
  send(bytes: Buffer): Promise<void>;
  /** Bidirectional transports: asks before and after the job (see the head of this file). */
  printAsking?(bytes: Buffer, exchange: StatusExchange, proceed: (before: Buffer | null) => boolean): Promise<AskedJob>;
  /** Bidirectional transports: asks alone; null when nothing answered in time. */
  ask?(exchange: StatusExchange): Promise<Buffer | null>;
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
  /** How long a status answer may take (real-time requests are answered within milliseconds). */
  statusTimeoutMs?: number;
}

/** An error from a transport, with a short machine-readable reason. */
export class TransportError extends Error {
  readonly reason: 'offline' | 'timeout' | 'reset' | 'io';
  /** Some of the job's bytes had been written when it happened: the printer may have printed part or all. */
  readonly midJob: boolean;
  constructor(reason: TransportError['reason'], message: string, midJob = false) {
    super(message);
    this.name = 'TransportError';
    this.reason = reason;
    this.midJob = midJob;
  }
}

/** The default transport factory: real sockets, files and `lp`. */
export function createTransportFactory(options: TransportOptions = {}): TransportFactory {
  return (target) => {
    switch (target.kind) {
      case 'tcp':
        return {
          send: (bytes) => sendTcp(target.host, target.port, bytes, options),
          printAsking: (bytes, exchange, proceed) =>
            askTcp(target.host, target.port, options, exchange, { bytes, proceed }),
          ask: (exchange) => askTcp(target.host, target.port, options, exchange, null).then((r) => r.before),
        };
      case 'file':
        return { send: (bytes) => sendFile(target.path, bytes) };
      case 'cups':
        return { send: (bytes) => sendCups(target.queue, bytes, options.lpCommand ?? 'lp') };
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

const errorReason = (e: NodeJS.ErrnoException): TransportError['reason'] =>
  e.code === 'ECONNREFUSED' || e.code === 'EHOSTUNREACH' || e.code === 'ENETUNREACH' || e.code === 'ENOTFOUND'
    ? 'offline'
    : e.code === 'ECONNRESET' || e.code === 'EPIPE'
      ? 'reset'
      : 'io';

/**
 * One connection: asks, then (with a job) sends the job and asks again. Rejects with a TransportError
 * (`midJob` once the job's first byte was written) when the connection fails.
 */
function askTcp(
  host: string,
  port: number,
  o: TransportOptions,
  exchange: StatusExchange,
  job: { bytes: Buffer; proceed: (before: Buffer | null) => boolean } | null,
): Promise<AskedJob> {
  const who = `printer ${host}:${port}`;
  const statusTimeout = o.statusTimeoutMs ?? 1000;
  const n = exchange.answerLength;
  return new Promise<AskedJob>((resolve, reject) => {
    const socket = net.connect({ host, port });
    let received: Buffer[] = [];
    let total = 0;
    let midJob = false;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    /** The wait under way: resolved when `total` reaches `want`, or with false when its time is up. */
    let waiting: { want: number; done: (ok: boolean) => void } | null = null;
    const fail = (err: TransportError) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    /** What was found out; once set, the connection is being closed and a reset no longer matters… */
    let result: AskedJob | null = null;
    /** …except after a job sent to a printer that never answered: then, as `send`, only its close counts. */
    let strict = false;
    const done = () => {
      if (settled || !result) return;
      settled = true;
      if (timer) clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const finish = (r: AskedJob, strictClose = false) => {
      result = r;
      strict = strictClose;
      if (timer) clearTimeout(timer);
      socket.end(); // half-close: a raw port printer closes after the client's FIN
      timer = setTimeout(done, o.closeWaitMs ?? 2000);
      timer.unref();
    };
    const wait = (want: number, ms: number) =>
      new Promise<boolean>((done) => {
        if (total >= want) return done(true);
        waiting = { want, done };
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => {
          waiting = null;
          done(false);
        }, ms);
        timer.unref();
      });
    const write = (bytes: Buffer, ms: number) =>
      new Promise<void>((done, failed) => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => failed(new TransportError('timeout', `${who}: write timeout`, midJob)), ms);
        timer.unref();
        socket.write(bytes, (err) =>
          err ? failed(new TransportError('reset', `${who}: ${err.message}`, midJob)) : done(),
        );
      });
    /** The last `n` bytes received. */
    const last = () => {
      const all = Buffer.concat(received);
      received = [all];
      return all.subarray(all.length - n);
    };
    socket.on('data', (d: Buffer) => {
      received.push(d);
      total += d.length;
      if (waiting && total >= waiting.want) {
        const w = waiting;
        waiting = null;
        if (timer) clearTimeout(timer);
        w.done(true);
      }
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (result && !strict) return done();
      fail(new TransportError(errorReason(e), `${who}: ${e.code ?? e.message}`, midJob));
    });
    socket.once('close', () => {
      if (result) return done();
      fail(new TransportError('reset', `${who}: closed before the status answer`, midJob));
    });
    timer = setTimeout(
      () => fail(new TransportError('timeout', `${who}: connect timeout`)),
      o.connectTimeoutMs ?? 5000,
    );
    timer.unref();
    socket.once('connect', () => {
      void (async () => {
        await write(exchange.request, o.writeTimeoutMs ?? 60_000);
        const before = (await wait(n, statusTimeout)) ? last() : null;
        if (!job) return finish({ before, sent: false, after: null });
        if (!job.proceed(before)) return finish({ before, sent: false, after: null });
        const base = total;
        midJob = true;
        if (before === null) {
          // It did not answer before: it will not after. Sent as a printer that cannot be asked.
          await write(job.bytes, o.writeTimeoutMs ?? 60_000);
          return finish({ before, sent: true, after: null }, true);
        }
        await write(Buffer.concat([job.bytes, exchange.request]), o.writeTimeoutMs ?? 60_000);
        const want = base + exchange.strays(job.bytes) + n;
        const after = (await wait(want, Math.max(statusTimeout, exchange.afterJobTimeoutMs))) ? last() : null;
        finish({ before, sent: true, after });
      })().catch((e: unknown) =>
        fail(e instanceof TransportError ? e : new TransportError('io', `${who}: ${String(e)}`, midJob)),
      );
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

function sendCups(queue: string, bytes: Buffer, lp: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(lp, ['-d', queue, '-o', 'raw'], { stdio: ['pipe', 'ignore', 'pipe'], env: childEnv() });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    child.stdin.on('error', () => {}); // reported through the exit code
    child.once('error', (e: NodeJS.ErrnoException) =>
      reject(new TransportError('offline', `cups ${queue}: ${e.code === 'ENOENT' ? `${lp} not found` : e.message}`)),
    );
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new TransportError('offline', `cups ${queue}: ${lp} exited ${code}: ${stderr.trim().slice(0, 200)}`));
    });
    child.stdin.end(bytes);
  });
}
