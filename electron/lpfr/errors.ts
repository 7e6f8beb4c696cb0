/**
 * The one error type of the L-PFR client, and the one place that decides what a failure means for the
 * invoice: `not_signed` (the PFR certainly did not sign it: resending the same body cannot make a second
 * receipt) or `unknown` (it may have been signed: look it up by RequestId before anything else).
 */
import { causeCodes, neverConnectedCode } from '../../shared/node/never-connected.ts';
import { KasaError } from '../../shared/errors.ts';
import { GSC } from './protocol.ts';

/** Whether the invoice a failed call carried may exist. */
export type LpfrOutcome = 'not_signed' | 'unknown';

export type LpfrErrorCode =
  /** 1500: the card is locked until the PIN is entered (POST /pin, then retry). */
  | 'pin_required'
  /** 2100: the PIN entered is wrong. */
  | 'pin_wrong'
  /** 2110: 5 wrong PINs, the card is locked for good (it goes back to the Tax Administration). */
  | 'card_locked'
  /** 1300: no smart card in the L-PFR. */
  | 'card_absent'
  /** 2210: the secure element is over its audit limit; no signing until the audit is done. */
  | 'audit_locked'
  /** 2310: a tax label the L-PFR's current rates do not have. */
  | 'invalid_labels'
  /** 28xx, or another refusal of the request's content. */
  | 'invalid'
  /** 2220, 2230, 2400: the L-PFR cannot sign (secure element unreachable, not configured). */
  | 'device'
  /** 406: none of the languages asked for is supported. */
  | 'language'
  /** Another 4xx, without a code Kasa knows. */
  | 'rejected'
  /** No connection could be made (refused, no route, no such host): nothing was sent. */
  | 'unreachable'
  /** No answer in time after the request was (or may have been) sent. */
  | 'timeout'
  /** The connection broke after the request was (or may have been) sent. */
  | 'connection_lost'
  /** 5xx. */
  | 'server_error'
  /** A 200 whose body is not a readable InvoiceResult (or status, …). */
  | 'malformed'
  /** Anything else. */
  | 'unknown';

export interface LpfrErrorInit {
  code: LpfrErrorCode;
  outcome: LpfrOutcome;
  message: string;
  status?: number | null;
  /** Every GSC the answer carried, in order. */
  gscs?: string[];
  path?: string;
}

/** A failed L-PFR call. `status` is the HTTP status, null when no answer arrived. */
export class LpfrError extends KasaError<LpfrErrorCode, number | null> {
  readonly outcome: LpfrOutcome;
  /** The first (most telling) GSC of the answer, null when it carried none. */
  readonly gsc: string | null;
  readonly gscs: string[];
  readonly path: string | undefined;

  constructor(init: LpfrErrorInit) {
    super(init.code, init.message, { status: init.status ?? null });
    this.name = 'LpfrError';
    this.outcome = init.outcome;
    this.gscs = init.gscs ?? [];
    this.gsc = this.gscs[0] ?? null;
    this.path = init.path;
  }
}

/** The error code of each GSC Kasa knows by itself (28xx, a refusal of the request's content, is `invalid`). */
const CODE_OF_GSC: ReadonlyMap<string, LpfrErrorCode> = new Map<string, LpfrErrorCode>([
  [GSC.cardAbsent, 'card_absent'],
  [GSC.pinRequired, 'pin_required'],
  [GSC.pinWrong, 'pin_wrong'],
  [GSC.cardLocked, 'card_locked'],
  [GSC.auditLocked, 'audit_locked'],
  [GSC.invalidLabels, 'invalid_labels'],
  [GSC.seFailure, 'device'],
  [GSC.protocolUnsupported, 'device'],
  [GSC.notConfigured, 'device'],
]);

/** The error code for a set of GSCs (the first one Kasa knows wins), or null when none is known. */
export function codeOfGscs(gscs: readonly string[]): LpfrErrorCode | null {
  for (const g of gscs) {
    const code = CODE_OF_GSC.get(g) ?? (/^28\d\d$/.test(g) ? 'invalid' : undefined);
    if (code) return code;
  }
  return null;
}

/**
 * An HTTP answer that is not a success, classified. Every 4xx is `not_signed`: a PFR signs only when it
 * answers 200, and a refusal is given before the secure element is asked (the codes say why). A 5xx is
 * `unknown`: the PFR may have failed after signing.
 */
export function httpFailure(status: number, gscs: string[], path: string): LpfrError {
  if (status >= 500) {
    return new LpfrError({ code: 'server_error', outcome: 'unknown', status, gscs, path, message: `HTTP ${status}` });
  }
  const known = codeOfGscs(gscs);
  const code: LpfrErrorCode =
    known ??
    (status === 406 ? 'language' : status === 400 || status === 413 || status === 415 ? 'invalid' : 'rejected');
  const text = gscs.length > 0 ? ` (GSC ${gscs.join(', ')})` : '';
  return new LpfrError({ code, outcome: 'not_signed', status, gscs, path, message: `HTTP ${status}${text}` });
}

/**
 * A fetch that threw. Only a connection that was never made is `not_signed`; a timeout or a broken
 * connection may come after the PFR read the request (and signed it), so it is `unknown`.
 */
export function transportFailure(err: unknown, path: string): LpfrError {
  const e = err as { name?: string; message?: string } | null;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
    return new LpfrError({ code: 'timeout', outcome: 'unknown', path, message: `Timed out: ${path}` });
  }
  const never = neverConnectedCode(err);
  if (never) {
    return new LpfrError({
      code: 'unreachable',
      outcome: 'not_signed',
      path,
      message: `No connection to the L-PFR (${never}): ${path}`,
    });
  }
  const codes = causeCodes(err);
  return new LpfrError({
    code: 'connection_lost',
    outcome: 'unknown',
    path,
    message: `Connection lost on ${path}: ${codes[0] ?? e?.message ?? 'unknown'}`,
  });
}
