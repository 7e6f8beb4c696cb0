/**
 * Typed client for every endpoint of the Fiscal Receipt Gateway. Receipt-creating calls take the
 * request body as a string so that a retry sends it byte for byte. Every failure is a GatewayError.
 */
import { neverConnectedCode } from '../../shared/node/never-connected.ts';
import { readReplyCapped } from '../../shared/node/http/reply.ts';
import { UpstreamClient, type FetchLike } from '../../shared/node/http/upstream.ts';
import { z } from 'zod';
import { GatewayError } from './errors.ts';
import {
  errorMessageText,
  isGatewayErrorBody,
  normalizeBulkReply,
  normalizeDraft,
  normalizeReceipt,
} from './normalize.ts';
import {
  ApiKeyMeSchema,
  ArchiveRecordSchema,
  BulkResponseSchema,
  FinalizeResponseSchema,
  IssueResponseSchema,
  ListResponseSchema,
  LookupResponseSchema,
  SendEmailResponseSchema,
  TaxRatesResponseSchema,
  VerifyTokenSchema,
  type ApiKeyMe,
  type ArchiveRecord,
  type BulkResponse,
  type FinalizeResponse,
  type IssueResponse,
  type IssuedReceipt,
  type ListResponse,
  type LookupRecord,
  type TaxRatesResponse,
  type VerifyTokenResponse,
} from './types.ts';

export interface GatewayClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: FetchLike;
  /** Per-request timeout; receipt requests may pass their own. Default 15 s. */
  timeoutMs?: number;
  /** Largest response body read, in bytes (a larger one is a malformed reply). Default 4 MiB. */
  maxBodyBytes?: number;
  /** Called after every request with its path, status and correlationId (for the support log). */
  onRequest?: (info: {
    method: string;
    path: string;
    status: number | null;
    correlationId?: string;
    ms: number;
  }) => void;
}

type Query = Record<string, string | number | boolean | string[] | undefined | Record<string, unknown>>;

export interface CallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export class GatewayClient extends UpstreamClient<NonNullable<GatewayClientOptions['onRequest']>> {
  readonly #apiKey: string;

  constructor(options: GatewayClientOptions) {
    super(options, { timeoutMs: 15_000, maxBodyBytes: 4 * 1024 * 1024 });
    this.#apiKey = options.apiKey;
  }

  // ---- receipts -------------------------------------------------------------------------------

  /**
   * POST /receipt/{invoiceType}/sale with a frozen body. A receipt issued without `journal` has it
   * fetched from the archive (see {@link completeJournal}) before it is returned.
   */
  async issueSale(invoiceType: string, body: string, opts?: CallOptions): Promise<IssueResponse> {
    const res = await this.#call('POST', `/receipt/${enc(invoiceType)}/sale`, IssueResponseSchema, { body, ...opts });
    return { ...res, receipt: await this.completeJournal(res.receipt) };
  }

  /** POST /receipt/{invoiceType}/refund with a frozen body (journal completed as for a sale). */
  async issueRefund(invoiceType: string, body: string, opts?: CallOptions): Promise<IssueResponse> {
    const res = await this.#call('POST', `/receipt/${enc(invoiceType)}/refund`, IssueResponseSchema, { body, ...opts });
    return { ...res, receipt: await this.completeJournal(res.receipt) };
  }

  /** POST /receipt/{invoiceNumber}/refund/full (no invoiceType segment; journal completed as for a sale). */
  async refundFull(invoiceNumber: string, body: string, opts?: CallOptions): Promise<IssueResponse> {
    const res = await this.#call('POST', `/receipt/${enc(invoiceNumber)}/refund/full`, IssueResponseSchema, {
      body,
      ...opts,
    });
    return { ...res, receipt: await this.completeJournal(res.receipt) };
  }

  /** POST /receipt/advance/finalize: returns the advance refund and the final receipt (journals completed). */
  async finalizeAdvance(body: string, opts?: CallOptions): Promise<FinalizeResponse> {
    const res = await this.#call('POST', '/receipt/advance/finalize', FinalizeResponseSchema, { body, ...opts });
    return {
      ...res,
      refundReceipt: await this.completeJournal(res.refundReceipt),
      finalReceipt: await this.completeJournal(res.finalReceipt),
    };
  }

  /**
   * A receipt without `journal` gets it (and the archive's QR link) from `GET /archive/receipts/{n}`.
   * Never throws: the receipt is issued whatever happens here; when no journal can be had it is
   * returned without one and Kasa prints nothing for it until the journal arrives (journal.ts).
   */
  async completeJournal(receipt: IssuedReceipt, opts: CallOptions = { timeoutMs: 5000 }): Promise<IssuedReceipt> {
    if (receipt.journal) return receipt;
    try {
      const archived = (await this.archiveGet(receipt.invoiceNumber, opts)).receipt;
      if (archived.invoiceNumber !== receipt.invoiceNumber || !archived.journal) return receipt;
      return {
        ...receipt,
        journal: archived.journal,
        ...(archived.qrCodeFileUrl && !receipt.qrCodeFileUrl ? { qrCodeFileUrl: archived.qrCodeFileUrl } : {}),
      };
    } catch {
      return receipt;
    }
  }

  /** POST /receipt/{invoiceType}/{sale|refund}/async. The acknowledgement's shape is not shown: kept raw. */
  issueAsync(
    invoiceType: string,
    transactionType: 'sale' | 'refund',
    body: string,
    opts?: CallOptions,
  ): Promise<unknown> {
    return this.#call('POST', `/receipt/${enc(invoiceType)}/${transactionType}/async`, null, { body, ...opts });
  }

  /**
   * POST /receipt/{invoiceType}/{transactionType}/bulk with `{receipts:[…]}` (at most 30). The bodies are
   * frozen strings and are joined verbatim.
   */
  bulk(
    invoiceType: string,
    transactionType: string,
    bodies: readonly string[],
    opts?: CallOptions,
  ): Promise<BulkResponse> {
    if (bodies.length === 0 || bodies.length > 30) throw new RangeError('bulk takes 1 to 30 receipts');
    const body = `{"receipts":[${bodies.join(',')}]}`;
    const sent = bodies.flatMap((b) => {
      try {
        const on = (JSON.parse(b) as { orderNumber?: unknown }).orderNumber;
        return typeof on === 'string' ? [on] : [];
      } catch {
        return [];
      }
    });
    const schema = z.preprocess((raw) => normalizeBulkReply(raw, sent), BulkResponseSchema);
    return this.#call('POST', `/receipt/${enc(invoiceType)}/${enc(transactionType)}/bulk`, schema, {
      body,
      ...opts,
    });
  }

  // ---- lookups --------------------------------------------------------------------------------

  taxRates(opts?: CallOptions): Promise<TaxRatesResponse> {
    return this.#call('GET', '/receipt/tax-rates', TaxRatesResponseSchema, opts);
  }

  /** POST /archive/receipts/fiscalization-lookup. */
  async fiscalizationLookup(orderNumbers: string[], opts?: CallOptions): Promise<LookupRecord[]> {
    const res = await this.#call('POST', '/archive/receipts/fiscalization-lookup', LookupResponseSchema, {
      body: JSON.stringify({ orderNumbers }),
      ...opts,
    });
    return res.records;
  }

  /** GET /archive/receipts/{invoiceNumber}; 404 is a GatewayError with status 404. */
  archiveGet(invoiceNumber: string, opts?: CallOptions): Promise<ArchiveRecord> {
    return this.#call('GET', `/archive/receipts/${enc(invoiceNumber)}`, ArchiveRecordSchema, opts);
  }

  /** GET /archive/receipts: each element a normalised receipt (flat, payment types in the spec's spelling). */
  async archiveList(query: Query = {}, opts?: CallOptions): Promise<ListResponse> {
    const res = await this.#call('GET', '/archive/receipts', ListResponseSchema, { query, ...opts });
    return { ...res, items: res.items.map(normalizeReceipt) };
  }

  // ---- drafts ---------------------------------------------------------------------------------

  /** Drafts are returned as the draft record with its `id`, whether the reply wraps it (`{id, draft}`) or not. */
  async createDraft(draft: Record<string, unknown>, opts?: CallOptions): Promise<Record<string, unknown>> {
    return normalizeDraft(await this.#call('POST', '/receipt/drafts', null, { body: JSON.stringify(draft), ...opts }));
  }
  async listDrafts(query: Query = {}, opts?: CallOptions): Promise<ListResponse> {
    const res = await this.#call('GET', '/receipt/drafts', ListResponseSchema, { query, ...opts });
    return { ...res, items: res.items.map(normalizeDraft) };
  }
  async getDraft(id: number, opts?: CallOptions): Promise<Record<string, unknown>> {
    return normalizeDraft(await this.#call('GET', `/receipt/drafts/${id}`, null, opts));
  }
  async updateDraft(id: number, patch: Record<string, unknown>, opts?: CallOptions): Promise<Record<string, unknown>> {
    return normalizeDraft(
      await this.#call('PUT', `/receipt/drafts/${id}`, null, { body: JSON.stringify(patch), ...opts }),
    );
  }
  deleteDraft(id: number, opts?: CallOptions): Promise<unknown> {
    return this.#call('DELETE', `/receipt/drafts/${id}`, null, opts);
  }

  // ---- e-mail, auth, cashiers -----------------------------------------------------------------

  sendEmail(
    input: { invoiceNumber: string; email: string; cc?: string[]; bcc?: string[] },
    opts?: CallOptions,
  ): Promise<{ success: boolean; correlationId?: string }> {
    return this.#call('POST', '/receipt/send-email', SendEmailResponseSchema, { body: JSON.stringify(input), ...opts });
  }

  verifyApiToken(opts?: CallOptions): Promise<VerifyTokenResponse> {
    return this.#call('POST', '/auth/verify-api-token', VerifyTokenSchema, opts);
  }

  apiKeyMe(opts?: CallOptions): Promise<ApiKeyMe> {
    return this.#call('GET', '/auth/api-key/me', ApiKeyMeSchema, opts);
  }

  listCashiers(query: Query = {}, opts?: CallOptions): Promise<ListResponse> {
    return this.#call('GET', '/cashiers', ListResponseSchema, { query, ...opts });
  }
  getCashier(id: number, opts?: CallOptions): Promise<Record<string, unknown>> {
    return this.#call('GET', `/cashiers/${id}`, null, opts) as Promise<Record<string, unknown>>;
  }
  createCashier(cashier: Record<string, unknown>, opts?: CallOptions): Promise<Record<string, unknown>> {
    return this.#call('POST', '/cashiers', null, { body: JSON.stringify(cashier), ...opts }) as Promise<
      Record<string, unknown>
    >;
  }
  updateCashier(id: number, patch: Record<string, unknown>, opts?: CallOptions): Promise<Record<string, unknown>> {
    return this.#call('PUT', `/cashiers/${id}`, null, { body: JSON.stringify(patch), ...opts }) as Promise<
      Record<string, unknown>
    >;
  }

  // ---- transport ------------------------------------------------------------------------------

  async #call<S extends z.ZodType | null>(
    method: string,
    path: string,
    schema: S,
    opts: CallOptions & { body?: string; query?: Query } = {},
  ): Promise<S extends z.ZodType ? z.output<S> : unknown> {
    const url = this.baseUrl + path + toQueryString(opts.query);
    const signal = this.signal(opts);
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#apiKey}`,
      Accept: 'application/json',
    };
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json; charset=utf-8';
    const started = Date.now();
    let response: Response;
    try {
      response = await this.fetch(url, { method, headers, body: opts.body, signal });
    } catch (err) {
      this.onRequest?.({ method, path, status: null, ms: Date.now() - started });
      throw transportError(err, path);
    }
    let text: string;
    try {
      text = await readCapped(response, this.maxBodyBytes);
    } catch (err) {
      this.onRequest?.({ method, path, status: response.status, ms: Date.now() - started });
      if (err instanceof GatewayError) throw err;
      throw transportError(err, path);
    }
    let json: unknown = undefined;
    let parsedOk = false;
    if (text.length > 0) {
      try {
        json = JSON.parse(text);
        parsedOk = true;
      } catch {
        parsedOk = false;
      }
    }
    const correlationId = pickString(json, 'correlationId') ?? response.headers.get('x-correlation-id') ?? undefined;
    this.onRequest?.({ method, path, status: response.status, correlationId, ms: Date.now() - started });

    if (!response.ok) {
      const body = (parsedOk && json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
      throw new GatewayError({
        kind: 'http',
        status: response.status,
        code: typeof body['code'] === 'string' ? body['code'] : null,
        // The gateway's words, also when `message` is an array or an object (normalize.ts).
        message:
          errorMessageText(body['message']) ?? `HTTP ${response.status}${parsedOk ? '' : ' (no JSON error body)'}`,
        userMessage: typeof body['userMessage'] === 'string' ? body['userMessage'] : undefined,
        details:
          body['details'] && typeof body['details'] === 'object'
            ? (body['details'] as Record<string, unknown>)
            : undefined,
        correlationId,
        path,
        fromGateway: parsedOk && isGatewayErrorBody(body),
      });
    }
    if (schema === null) return (parsedOk ? json : text) as never;
    if (!parsedOk) {
      throw new GatewayError({
        kind: 'malformed',
        status: response.status,
        message: `Reply to ${method} ${path} is not JSON`,
        correlationId,
        path,
      });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new GatewayError({
        kind: 'malformed',
        status: response.status,
        message: `Reply to ${method} ${path} is missing or has a wrong field: ${first?.path.join('.') ?? '?'}`,
        correlationId,
        path,
      });
    }
    return parsed.data as never;
  }
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}

function toQueryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, v));
    else if (typeof value === 'object') params.append(key, JSON.stringify(value));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

function pickString(json: unknown, key: string): string | undefined {
  if (json && typeof json === 'object' && key in json) {
    const v = (json as Record<string, unknown>)[key];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

function transportError(err: unknown, path: string): GatewayError {
  const e = err as { name?: string; message?: string; cause?: { code?: string } };
  const timeout = e?.name === 'TimeoutError' || e?.name === 'AbortError';
  const never = neverConnectedCode(err);
  return new GatewayError({
    kind: timeout ? 'timeout' : 'network',
    message: timeout
      ? `Timed out: ${path}`
      : `Network error on ${path}: ${never ?? e?.cause?.code ?? e?.message ?? 'unknown'}`,
    path,
    ...(never ? { neverSent: never } : {}),
  });
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const text = await readReplyCapped(response, maxBytes);
  if (text !== null) return text;
  throw new GatewayError({
    kind: 'malformed',
    status: response.status,
    message: `Reply larger than ${maxBytes} bytes`,
  });
}
