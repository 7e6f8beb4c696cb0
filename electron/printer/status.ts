/**
 * ESC/POS status: the requests Kasa sends and what the answers mean (Epson's ESC/POS command reference,
 * `DLE EOT n` and `GS r n`; see docs/printing.md for the sources).
 *
 * - `DLE EOT 1…4` (10 04 n) are real-time: the printer answers each with one byte as soon as it receives
 *   it, even while stopped with data in its buffer. Each answer has fixed bits (bit 1 and bit 4 on, bits 0
 *   and 7 off), which tells an answer from noise. A printer matches those three bytes anywhere in what it
 *   receives, also inside image or QR data, and answers them too: see `strayRequests`.
 * - `GS r 1` (1D 72 01) is processed in order with the data: a printer stopped by paper end does not
 *   answer it until it prints again. It reports the paper sensors only.
 */
import type { PrinterCondition, PrinterProfile } from '../../shared/contract/printer.ts';

/** One status exchange: the bytes to send and how many answer bytes they bring. */
export interface StatusExchange {
  request: Buffer;
  answerLength: number;
  /** How many extra answers the job's own bytes will bring (real-time requests matched inside its data). */
  strays(job: Buffer): number;
  /**
   * After a job, how long an answer may take: real-time requests are answered at once; `GS r` only once
   * the data before it has been printed.
   */
  afterJobTimeoutMs: number;
}

export const DLE_EOT_REQUEST = Buffer.from([0x10, 0x04, 0x01, 0x10, 0x04, 0x02, 0x10, 0x04, 0x03, 0x10, 0x04, 0x04]);
export const GS_R_REQUEST = Buffer.from([0x1d, 0x72, 0x01]);

/** Occurrences of `DLE EOT n` (n = 1…4) in `bytes`: a printer answers each, wherever it is. */
export function strayRequests(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf(0x10); i >= 0 && i + 2 < bytes.length; i = bytes.indexOf(0x10, i + 1)) {
    const x = bytes[i + 2]!;
    if (bytes[i + 1] === 0x04 && x >= 1 && x <= 4) n++;
  }
  return n;
}

/** The exchange for a profile's `status` capability, or null for `none`. */
export function statusExchange(kind: PrinterProfile['status']): StatusExchange | null {
  switch (kind) {
    case 'dle-eot':
      return { request: DLE_EOT_REQUEST, answerLength: 4, strays: strayRequests, afterJobTimeoutMs: 1500 };
    case 'gs-r':
      // Not real-time: the answer comes after the job printed, and never while paper is out.
      return { request: GS_R_REQUEST, answerLength: 1, strays: () => 0, afterJobTimeoutMs: 15_000 };
    case 'none':
      return null;
  }
}

/** A `DLE EOT n` answer: bit 1 and bit 4 on, bits 0 and 7 off. */
const validEot = (b: number | undefined): b is number => b !== undefined && (b & 0x93) === 0x12;

/**
 * The answers to `DLE EOT 1, 2, 3, 4` (in that order) as a condition; null when they are not valid
 * answers (noise, a clone answering something else).
 */
export function parseDleEot(answers: Uint8Array, checkedAt: string): PrinterCondition | null {
  const [printer, offline, error, paper] = answers;
  if (answers.length !== 4 || !validEot(printer) || !validEot(offline) || !validEot(error) || !validEot(paper))
    return null;
  // Error cause, the gravest first: unrecoverable (bit 5), autocutter (bit 3), mechanical (bit 2),
  // automatically recoverable (bit 6: head too hot, cover opened while printing).
  const cause: PrinterCondition['error'] =
    error & 0x20
      ? 'unrecoverable'
      : error & 0x08
        ? 'cutter'
        : error & 0x04
          ? 'mechanical'
          : error & 0x40 || offline & 0x40
            ? 'recoverable'
            : 'none';
  return {
    source: 'printer',
    online: (printer & 0x08) === 0,
    // Paper end: the end sensor (DLE EOT 4 bits 5, 6) or printing stopped by a paper end (DLE EOT 2 bit 5).
    paper: paper & 0x60 || offline & 0x20 ? 'out' : paper & 0x0c ? 'near_end' : 'ok',
    coverOpen: (offline & 0x04) !== 0,
    // Drawer kick connector pin 3 HIGH. Most drawers close the switch when open; some are wired the
    // other way round (docs/printing.md).
    drawerOpen: (printer & 0x04) !== 0,
    error: cause,
    checkedAt,
  };
}

/** The answer to `GS r 1` (paper sensors only: bits 0–1 near end, bits 2–3 end; bits 4 and 7 off). */
export function parseGsR(answers: Uint8Array, checkedAt: string): PrinterCondition | null {
  const b = answers[0];
  if (answers.length !== 1 || b === undefined || (b & 0x90) !== 0) return null;
  return {
    source: 'printer',
    online: null,
    paper: b & 0x0c ? 'out' : b & 0x03 ? 'near_end' : 'ok',
    coverOpen: null,
    drawerOpen: null,
    error: null,
    checkedAt,
  };
}

/** Parses the answers to a profile's exchange. */
export function parseStatus(
  kind: PrinterProfile['status'],
  answers: Uint8Array,
  checkedAt: string,
): PrinterCondition | null {
  if (kind === 'dle-eot') return parseDleEot(answers, checkedAt);
  if (kind === 'gs-r') return parseGsR(answers, checkedAt);
  return null;
}

/** The printer reports a condition that stops printing: offline, paper out, cover open, an error. */
export function isStopped(c: PrinterCondition): boolean {
  return (
    c.source === 'printer' &&
    (c.online === false || c.paper === 'out' || c.coverOpen === true || (c.error !== null && c.error !== 'none'))
  );
}

/** A short text for `lastError` (the UI shows the fields, in the user's language). */
export function describeStop(c: PrinterCondition): string {
  const parts: string[] = [];
  if (c.paper === 'out') parts.push('paper out');
  if (c.coverOpen) parts.push('cover open');
  if (c.error && c.error !== 'none') parts.push(`${c.error} error`);
  if (parts.length === 0 && c.online === false) parts.push('offline');
  return `printer stopped: ${parts.join(', ')}`;
}
