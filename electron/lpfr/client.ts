/**
 * Client of a local fiscal processor (L-PFR) on the ESIR–PFR local API (/api/v3, plain HTTP on the shop
 * LAN, no authentication). `signInvoice` takes the InvoiceRequest as a string so that a retry sends it byte
 * for byte, with the same RequestId. Every failure is an {@link LpfrError} whose `outcome` says whether the
 * invoice may have been signed (errors.ts). The PIN is sent and forgotten: never kept, logged or echoed.
 */
import { readReplyCapped } from '../../shared/node/http/reply.ts';
import { UpstreamClient, type FetchLike } from '../../shared/node/http/upstream.ts';
import type { z } from 'zod';
import { LpfrError, codeOfGscs, httpFailure, transportFailure } from './errors.ts';
import { GSC } from './protocol.ts';
import {
  InvoiceResultSchema,
  LpfrEnvironmentSchema,
  LpfrStatusSchema,
  type LpfrEnvironment,
  type LpfrInvoiceResult,
  type LpfrStatus,
} from './types.ts';

export interface LpfrClientOptions {
  /** `http://<ip>:<port>` of the L-PFR (without /api/v3). */
  baseUrl: string;
  fetch?: FetchLike;
  /** Per-request timeout; a call may pass its own. Default 10 s. */
  timeoutMs?: number;
  /** Largest answer read, in bytes (a larger one is malformed). Default 2 MiB (a journal and a QR GIF). */
  maxBodyBytes?: number;
  /** Accept-Language of invoices: the journal's language. Default `sr-Cyrl-RS`. */
  language?: string;
  /** Called after every request (for the support log): never with a body, so never with the PIN. */
  onRequest?: (info: { method: string; path: string; status: number | null; ms: number }) => void;
}

export interface LpfrCallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

interface Answer {
  status: number;
  text: string;
}

/** RequestId: at most 32 characters (the guide's MaxLength). */
export const MAX_REQUEST_ID = 32;

export class LpfrClient extends UpstreamClient<NonNullable<LpfrClientOptions['onRequest']>> {
  readonly #language: string;

  constructor(options: LpfrClientOptions) {
    super(options, { timeoutMs: 10_000, maxBodyBytes: 2 * 1024 * 1024 });
    this.#language = options.language ?? 'sr-Cyrl-RS';
  }

  /** GET /attention: resolves when the L-PFR answers 200 (its body is ignored, as the DTI POS does). */
  async attention(opts?: LpfrCallOptions): Promise<void> {
    const a = await this.#send('GET', '/api/v3/attention', opts);
    if (a.status !== 200) throw httpFailure(a.status, gscsOf(a.text), '/api/v3/attention');
  }

  /** GET /status: 200 also without a card (then `gsc` has 1300). */
  status(opts?: LpfrCallOptions): Promise<LpfrStatus> {
    return this.#json('GET', '/api/v3/status', LpfrStatusSchema, opts);
  }

  /** GET /environment-parameters (refused with 1300 without a card). */
  environment(opts?: LpfrCallOptions): Promise<LpfrEnvironment> {
    return this.#json('GET', '/api/v3/environment-parameters', LpfrEnvironmentSchema, opts);
  }

  /**
   * POST /pin with the bare digits. Resolves on 0100; otherwise an LpfrError: `pin_wrong` (2100, HTTP 423),
   * `card_locked` (2110), `card_absent` (1300, which the PFR answers with HTTP 200), `invalid` (2806).
   */
  async enterPin(pin: string, opts?: LpfrCallOptions): Promise<void> {
    const path = '/api/v3/pin';
    if (!/^\d{4}$/.test(pin)) {
      throw new LpfrError({
        code: 'invalid',
        outcome: 'not_signed',
        gscs: [GSC.invalidFormat],
        path,
        message: 'PIN: 4 digits',
      });
    }
    const a = await this.#send('POST', path, { ...opts, body: pin, contentType: 'text/plain; charset=utf-8' });
    const gscs = gscsOf(a.text);
    if (a.status === 200 && gscs[0] === GSC.pinOk) return;
    if (a.status >= 400) throw httpFailure(a.status, gscs, path);
    const code = codeOfGscs(gscs);
    throw new LpfrError({
      code: code ?? 'malformed',
      outcome: 'not_signed',
      status: a.status,
      gscs,
      path,
      message: gscs.length > 0 ? `PIN not accepted (GSC ${gscs.join(', ')})` : 'Unreadable answer to the PIN',
    });
  }

  /**
   * POST /invoices with the frozen InvoiceRequest `bodyJson` and its `requestId` (≤ 32 characters; the same
   * on every retry of the same invoice). Resolves with the signed invoice; an LpfrError says whether it may
   * have been signed all the same (`outcome`).
   */
  async signInvoice(bodyJson: string, requestId: string, opts?: LpfrCallOptions): Promise<LpfrInvoiceResult> {
    const path = '/api/v3/invoices';
    if (requestId === '' || requestId.length > MAX_REQUEST_ID || !/^[\x21-\x7e]+$/.test(requestId)) {
      throw new LpfrError({
        code: 'invalid',
        outcome: 'not_signed',
        path,
        message: `RequestId: 1 to ${MAX_REQUEST_ID} printable ASCII characters`,
      });
    }
    const a = await this.#send('POST', path, {
      ...opts,
      body: bodyJson,
      contentType: 'application/json; charset=utf-8',
      headers: { RequestId: requestId, 'Accept-Language': this.#language },
    });
    if (a.status !== 200) throw httpFailure(a.status, gscsOf(a.text), path);
    // A 200 the client cannot read may still be a signed invoice: unknown, to be looked up.
    return parseResult(a.text, InvoiceResultSchema, path, 'unknown');
  }

  /**
   * GET /invoices/{requestId}: the invoice the L-PFR signed for that RequestId, or null when it answers 404
   * (it never signed one under it). Any other failure is an LpfrError with outcome `unknown`: a failed
   * lookup says nothing about the invoice.
   */
  async findInvoice(requestId: string, opts?: LpfrCallOptions): Promise<LpfrInvoiceResult | null> {
    const path = `/api/v3/invoices/${encodeURIComponent(requestId)}`;
    let a: Answer;
    try {
      a = await this.#send('GET', path, opts);
    } catch (e) {
      throw asUnknown(e);
    }
    if (a.status === 404) return null;
    if (a.status !== 200) throw asUnknown(httpFailure(a.status, gscsOf(a.text), path));
    return parseResult(a.text, InvoiceResultSchema, path, 'unknown');
  }

  // ---- transport ------------------------------------------------------------------------------

  async #json<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    opts?: LpfrCallOptions,
  ): Promise<z.output<S>> {
    const a = await this.#send(method, path, opts);
    if (a.status !== 200) throw httpFailure(a.status, gscsOf(a.text), path);
    return parseResult(a.text, schema, path, 'not_signed');
  }

  async #send(
    method: string,
    path: string,
    opts: LpfrCallOptions & { body?: string; contentType?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const signal = this.signal(opts);
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    if (opts.contentType) headers['Content-Type'] = opts.contentType;
    const started = Date.now();
    let response: Response;
    try {
      response = await this.fetch(this.baseUrl + path, { method, headers, body: opts.body, signal });
    } catch (err) {
      this.onRequest?.({ method, path, status: null, ms: Date.now() - started });
      throw transportFailure(err, path);
    }
    try {
      const text = await readCapped(response, this.maxBodyBytes, path);
      this.onRequest?.({ method, path, status: response.status, ms: Date.now() - started });
      return { status: response.status, text };
    } catch (err) {
      this.onRequest?.({ method, path, status: response.status, ms: Date.now() - started });
      if (err instanceof LpfrError) throw err;
      // The status line came, the body broke off: a 200 may be a signed invoice.
      throw transportFailure(err, path);
    }
  }
}

function asUnknown(e: unknown): unknown {
  if (!(e instanceof LpfrError) || e.outcome === 'unknown') return e;
  return new LpfrError({
    code: e.code,
    outcome: 'unknown',
    status: e.status,
    gscs: e.gscs,
    ...(e.path !== undefined ? { path: e.path } : {}),
    message: e.message,
  });
}

function parseResult<S extends z.ZodType>(
  text: string,
  schema: S,
  path: string,
  outcome: 'unknown' | 'not_signed',
): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LpfrError({ code: 'malformed', outcome, status: 200, path, message: `Reply to ${path} is not JSON` });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new LpfrError({
      code: 'malformed',
      outcome,
      status: 200,
      path,
      message: `Reply to ${path} is missing or has a wrong field: ${first?.path.join('.') ?? '?'}`,
    });
  }
  return parsed.data;
}

/**
 * The GSCs of an answer, in order, whatever its shape: a bare code (`1300`, `"2100"`, text/plain), a
 * `modelState` list of `{property, errors: [codes]}`, or `gsc`/`code`/`errors` fields.
 */
export function gscsOf(text: string): string[] {
  const out: string[] = [];
  const push = (v: unknown) => {
    const s = typeof v === 'number' && Number.isInteger(v) ? String(v).padStart(4, '0') : v;
    if (typeof s === 'string' && /^\d{4}$/.test(s.trim()) && !out.includes(s.trim())) out.push(s.trim());
  };
  const walk = (v: unknown, depth: number) => {
    if (depth > 4) return;
    if (Array.isArray(v)) return v.forEach((x) => walk(x, depth + 1));
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const key of ['gsc', 'code', 'errors', 'modelState', 'ModelState', 'Errors', 'GSC']) {
        if (key in o) walk(o[key], depth + 1);
      }
      return;
    }
    push(v);
  };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    for (const m of text.matchAll(/\b\d{4}\b/g)) push(m[0]);
    return out;
  }
  walk(json, 0);
  return out;
}

async function readCapped(response: Response, maxBytes: number, path: string): Promise<string> {
  const text = await readReplyCapped(response, maxBytes);
  if (text !== null) return text;
  throw new LpfrError({
    code: 'malformed',
    outcome: response.status === 200 || response.status >= 500 ? 'unknown' : 'not_signed',
    status: response.status,
    path,
    message: `Reply larger than ${maxBytes} bytes`,
  });
}
