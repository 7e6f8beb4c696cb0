/**
 * A fake Epson-class network printer (raw TCP on an ephemeral port) that answers ESC/POS status requests
 * the way Epson's command reference describes them (sources in docs/printing.md):
 * - `DLE EOT n` (n = 1…4) is a real-time command: answered as soon as it is received, one byte each,
 *   even while the printer holds data it cannot print (paper out, cover open). Like a real printer it
 *   matches the three bytes anywhere in the stream, also inside image or QR data (a stray answer).
 * - `GS r 1` is not real-time: it is processed in order with the data, so a printer stopped with data in
 *   its buffer answers it only once the data before it has been printed.
 * - Job bytes are "printed" (appended to `paper`) only while paper is in, the cover closed and no error;
 *   otherwise they are held and come out when the condition clears (`loadPaper`, `closeCover`, …).
 * - `powerCycle()` drops every connection and loses what was held (the receive buffer is volatile).
 * Status requests at command positions are not printed: the paper holds only what a receipt shows.
 */
import net from 'node:net';
import { listenOnLoopback } from '../support/ports.ts';

export type FakeError = 'none' | 'cutter' | 'mechanical' | 'unrecoverable' | 'recoverable';

export interface FakeEpsonOptions {
  port?: number;
  /** false: a clone that answers nothing. */
  answersStatus?: boolean;
  /** Sends each status answer this long after the previous one (they arrive apart, as on a slow link). */
  answerGapMs?: number;
  /** Called with the number of bytes received so far on a connection, as each chunk arrives. */
  onBytes?: (received: number, printer: FakeEpson) => void;
}

export interface FakeEpson {
  port: number;
  paperOut: boolean;
  paperNearEnd: boolean;
  coverOpen: boolean;
  drawerOpen: boolean;
  error: FakeError;
  /** false: offline for another reason (waiting for online recovery). */
  online: boolean;
  /** Bytes of paper left on the roll (null: plenty): the paper runs out mid-job once they are printed. */
  paperLeft: number | null;
  answersStatus: boolean;
  /** Every byte that came out on paper, in order, status requests removed. */
  paper(): Buffer;
  /** Bytes received but not printed yet (held while stopped), status requests not counted. */
  held(): number;
  /** Status answers sent, in order (each `DLE EOT n` / `GS r 1` answered). */
  answered: { request: string; value: number }[];
  connections: number;
  loadPaper(): void;
  closeCover(): void;
  clearError(): void;
  /** Drops every connection, loses held data, comes back at once with the same condition. */
  powerCycle(): void;
  /** Switched off: every connection dropped, held data lost, new connections reset until `powerOn`. */
  powerOff(): void;
  powerOn(): void;
  close(): Promise<void>;
}

const DLE = 0x10;
const EOT = 0x04;
const GS = 0x1d;

/** How many bytes the command at `i` takes (mirrors the commands Kasa sends), or null when incomplete. */
function commandLength(b: Buffer, i: number): number | null {
  const c = b[i]!;
  const at = (k: number) => (i + k < b.length ? b[i + k]! : null);
  if (c === 0x1b) {
    const x = at(1);
    if (x === null) return null;
    if (x === 0x40 || x === 0x32) return 2;
    if (x === 0x70) return i + 5 <= b.length ? 5 : null;
    const known = [0x74, 0x61, 0x4d, 0x45, 0x64, 0x21, 0x2d, 0x33, 0x4a, 0x47, 0x52, 0x56, 0x7b, 0x20];
    if (known.includes(x)) return i + 3 <= b.length ? 3 : null;
    return 2;
  }
  if (c === GS) {
    const x = at(1);
    if (x === null) return null;
    if (x === 0x56) {
      const m = at(2);
      if (m === null) return null;
      const n = m === 65 || m === 66 ? 4 : 3;
      return i + n <= b.length ? n : null;
    }
    if (x === 0x28) {
      if (i + 5 > b.length) return null;
      const n = 5 + b[i + 3]! + b[i + 4]! * 256;
      return i + n <= b.length ? n : null;
    }
    if (x === 0x76) {
      if (i + 8 > b.length) return null;
      const n = 8 + (b[i + 4]! + b[i + 5]! * 256) * (b[i + 6]! + b[i + 7]! * 256);
      return i + n <= b.length ? n : null;
    }
    if (x === 0x4c || x === 0x57) return i + 4 <= b.length ? 4 : null;
    return i + 3 <= b.length ? 3 : null; // GS ! / GS B / GS r / GS a / …: one argument
  }
  if (c === DLE) {
    const x = at(1);
    if (x === null) return null;
    return x === EOT ? (i + 3 <= b.length ? 3 : null) : 2;
  }
  return 1;
}

/** `bytes` without the status requests at command positions (what would be printed of them). */
function withoutRequests(bytes: Buffer): Buffer {
  const out: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < bytes.length;) {
    const n = commandLength(bytes, i) ?? bytes.length - i;
    if ((bytes[i] === DLE && bytes[i + 1] === EOT) || (bytes[i] === GS && bytes[i + 1] === 0x72)) {
      out.push(bytes.subarray(from, i));
      from = i + n;
    }
    i += n;
  }
  out.push(bytes.subarray(from));
  return Buffer.concat(out);
}

export async function startFakeEpson(options: FakeEpsonOptions = {}): Promise<FakeEpson> {
  const sockets = new Set<net.Socket>();
  const printed: Buffer[] = [];
  /** Received bytes waiting to be processed (and the connection they came on, for `GS r` answers). */
  let pending: { bytes: Buffer; socket: net.Socket }[] = [];

  const stopped = () => printer.paperOut || printer.coverOpen || printer.error !== 'none' || !printer.online;

  const statusByte = (n: number): number => {
    const p = printer;
    switch (n) {
      case 1:
        return 0x12 | (p.drawerOpen ? 0x04 : 0) | (stopped() ? 0x08 : 0);
      case 2:
        return 0x12 | (p.coverOpen ? 0x04 : 0) | (p.paperOut ? 0x20 : 0) | (p.error !== 'none' ? 0x40 : 0);
      case 3: {
        const bits = { none: 0, mechanical: 0x04, cutter: 0x08, unrecoverable: 0x20, recoverable: 0x40 } as const;
        return 0x12 | bits[p.error];
      }
      default:
        return 0x12 | (p.paperNearEnd || p.paperOut ? 0x0c : 0) | (p.paperOut ? 0x60 : 0);
    }
  };

  /** With `answerGapMs`: the answers leave one by one, each in its own TCP segment. */
  let answers: Promise<void> = Promise.resolve();
  const answer = (socket: net.Socket, request: string, value: number) => {
    if (!printer.answersStatus || socket.destroyed) return;
    printer.answered.push({ request, value });
    const gap = options.answerGapMs ?? 0;
    if (gap === 0) socket.write(Buffer.from([value]));
    else
      answers = answers
        .then(() => new Promise((r) => setTimeout(r, gap)))
        .then(() => void (socket.destroyed || socket.write(Buffer.from([value]))));
  };

  /** Prints what can be printed: complete commands, while the printer is not stopped. */
  const process = () => {
    while (pending.length > 0 && !stopped()) {
      const head = pending[0]!;
      const b = head.bytes;
      let i = 0;
      const out: Buffer[] = [];
      let from = 0;
      while (i < b.length && !stopped()) {
        const n = commandLength(b, i);
        if (n === null) break; // incomplete: wait for the rest of the command
        if (printer.paperLeft !== null) {
          if (printer.paperLeft < n) {
            printer.paperOut = true; // the roll ends here: the rest stays in the buffer
            printer.paperLeft = null;
            break;
          }
          printer.paperLeft -= n;
        }
        const isEot = b[i] === DLE && b[i + 1] === EOT;
        const isGsR = b[i] === GS && b[i + 1] === 0x72;
        if (isEot || isGsR) {
          out.push(b.subarray(from, i));
          from = i + n;
          // DLE EOT was answered on receipt; GS r is answered now, in order with the data.
          if (isGsR && b[i + 2] === 1) {
            const p = printer;
            answer(head.socket, 'GS r 1', (p.paperNearEnd || p.paperOut ? 0x03 : 0) | (p.paperOut ? 0x0c : 0));
          }
        }
        i += n;
      }
      out.push(b.subarray(from, i));
      const chunk = Buffer.concat(out);
      if (chunk.length > 0) printed.push(chunk);
      if (i >= b.length) pending.shift();
      else if (pending.length > 1 && !stopped()) {
        // An incomplete command followed by more data from the same stream: join and go on.
        const next = pending[1]!;
        pending.splice(0, 2, { bytes: Buffer.concat([b.subarray(i), next.bytes]), socket: next.socket });
      } else {
        head.bytes = b.subarray(i);
        break;
      }
    }
  };

  const printer: FakeEpson = {
    port: 0,
    paperOut: false,
    paperNearEnd: false,
    coverOpen: false,
    drawerOpen: false,
    error: 'none',
    online: true,
    paperLeft: null,
    answersStatus: options.answersStatus ?? true,
    answered: [],
    connections: 0,
    paper: () => Buffer.concat(printed),
    held: () => pending.reduce((n, p) => n + withoutRequests(p.bytes).length, 0),
    loadPaper() {
      printer.paperOut = false;
      printer.paperNearEnd = false;
      process();
    },
    closeCover() {
      printer.coverOpen = false;
      process();
    },
    clearError() {
      printer.error = 'none';
      process();
    },
    powerCycle() {
      for (const s of sockets) s.resetAndDestroy();
      sockets.clear();
      pending = [];
    },
    powerOff() {
      off = true;
      printer.powerCycle();
    },
    powerOn() {
      off = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };

  let off = false;
  const server = net.createServer((socket) => {
    if (off) {
      socket.on('error', () => {});
      socket.resetAndDestroy();
      return;
    }
    sockets.add(socket);
    printer.connections++;
    let received = 0;
    let tail = Buffer.alloc(0); // the last two bytes, for a DLE EOT split across chunks
    socket.on('data', (d: Buffer) => {
      if (!sockets.has(socket)) return; // power-cycled
      received += d.length;
      options.onBytes?.(received, printer);
      if (!sockets.has(socket)) return; // the callback cut the power
      // Real-time requests are acted on as they arrive, wherever they are in the stream; what came before
      // one is printed first (this printer prints instantly), so the answer reflects it.
      const scan = Buffer.concat([tail, d]);
      let cut = 0;
      for (let i = 0; i + 2 < scan.length; i++) {
        const n = scan[i + 2]!;
        if (scan[i] === DLE && scan[i + 1] === EOT && n >= 1 && n <= 4 && i + 2 >= tail.length) {
          const end = i + 3 - tail.length;
          pending.push({ bytes: d.subarray(cut, end), socket });
          cut = end;
          process();
          answer(socket, `DLE EOT ${n}`, statusByte(n));
        }
      }
      tail = scan.subarray(Math.max(0, scan.length - 2));
      if (cut < d.length) pending.push({ bytes: d.subarray(cut), socket });
      process();
    });
    socket.on('end', () => socket.end()); // like a raw 9100 printer: close after the client's FIN
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  printer.port = await listenOnLoopback(server, options.port);
  return printer;
}
