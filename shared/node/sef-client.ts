/**
 * SEF's HTTP client (docs/sef.md). The key goes in the `ApiKey` header and nowhere else: not in an error, not in a
 * log line (`onRequest` is given method, path, status and time only). Every failure is a `SefError` with one
 * `kind` the outbox branches on:
 * - `unknown`: no answer, a timeout, a 5xx or an unreadable reply: the request may or may not have been done;
 * - `busy`: 429 (SEF allows 3 calls a second per key), nothing was done;
 * - `auth`: 401/403, the key is refused;
 * - `refused`: SEF's validation refused the request (4xx with its errors);
 * - `not_found`: 404.
 */
import type { z } from 'zod';
import { KasaError } from '../errors.ts';
import {
  CompanySchema,
  ErrorReplySchema,
  PurchaseIdsReplySchema,
  SEF_PATHS,
  SendReplySchema,
  StatusReplySchema,
  type SefCompany,
  type SendReply,
  type StatusReply,
} from '../sef/api.ts';

export type SefErrorKind = 'unknown' | 'busy' | 'auth' | 'refused' | 'not_found';

export interface SefErrorView {
  status: number | null;
  code: string | null;
  message: string;
  fields?: { field: string; message: string }[];
}

export class SefError extends KasaError<string | null, number | null> {
  readonly kind: SefErrorKind;
  readonly fields: { field: string; message: string }[];
  constructor(
    kind: SefErrorKind,
    status: number | null,
    code: string | null,
    message: string,
    fields: SefErrorView['fields'] = [],
  ) {
    super(code, message, { status });
    this.name = 'SefError';
    this.kind = kind;
    this.fields = fields;
  }
  view(): SefErrorView {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      ...(this.fields.length > 0 ? { fields: this.fields } : {}),
    };
  }
}

export interface SefClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  onRequest?: (info: { method: string; path: string; status: number | null; ms: number }) => void;
}

export class SefClient {
  readonly #o: SefClientOptions;
  constructor(options: SefClientOptions) {
    this.#o = options;
  }

  async #call(method: 'GET' | 'POST', path: string, body?: { xml: string } | { json: unknown }): Promise<string> {
    const started = Date.now();
    const url = new URL(path, this.#o.baseUrl);
    const headers: Record<string, string> = { ApiKey: this.#o.apiKey, Accept: 'application/json' };
    let payload: string | undefined;
    if (body && 'xml' in body) {
      headers['Content-Type'] = 'application/xml';
      payload = body.xml;
    } else if (body) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body.json);
    }
    let status: number | null = null;
    try {
      const res = await (this.#o.fetch ?? fetch)(url, {
        method,
        headers,
        ...(payload === undefined ? {} : { body: payload }),
        signal: AbortSignal.timeout(this.#o.timeoutMs ?? 15_000),
      });
      status = res.status;
      const text = await res.text();
      if (res.ok) return text;
      let parsed: z.infer<typeof ErrorReplySchema> = {};
      try {
        const r = ErrorReplySchema.safeParse(JSON.parse(text));
        if (r.success) parsed = r.data;
      } catch {
        // Not JSON: the status says enough.
      }
      const code = parsed.ErrorCode ?? null;
      const message = parsed.Message ?? `HTTP ${res.status}`;
      const fields = (parsed.FieldErrors ?? []).map((f) => ({ field: f.FieldName, message: f.ErrorMessage }));
      if (res.status >= 500) throw new SefError('unknown', res.status, code, message);
      if (res.status === 429) throw new SefError('busy', 429, code, message);
      if (res.status === 401 || res.status === 403) throw new SefError('auth', res.status, code, message);
      if (res.status === 404) throw new SefError('not_found', 404, code, message);
      throw new SefError('refused', res.status, code, message, fields);
    } catch (e) {
      if (e instanceof SefError) throw e;
      const timeout = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
      throw new SefError('unknown', null, null, timeout ? 'SEF did not answer in time' : 'SEF could not be reached');
    } finally {
      this.#o.onRequest?.({ method, path: url.pathname, status, ms: Date.now() - started });
    }
  }

  #parse<T>(schema: z.ZodType<T>, text: string): T {
    try {
      const r = schema.safeParse(JSON.parse(text));
      if (r.success) return r.data;
    } catch {
      // falls through
    }
    throw new SefError('unknown', 200, null, 'SEF answered with an unreadable reply');
  }

  /** Sends one document; the same `requestId` again returns the first result. */
  async send(xml: string, requestId: string, sendToCir: boolean): Promise<SendReply> {
    const q = `?requestId=${encodeURIComponent(requestId)}&sendToCir=${sendToCir ? 'Yes' : 'No'}`;
    return this.#parse(SendReplySchema, await this.#call('POST', `${SEF_PATHS.send}${q}`, { xml }));
  }

  /** The document SEF made for `requestId`, or null when it made none (docs/sef.md, "Unsure"). */
  async lookup(requestId: string): Promise<SendReply | null> {
    try {
      return this.#parse(
        SendReplySchema,
        await this.#call('GET', `${SEF_PATHS.byRequestId}/${encodeURIComponent(requestId)}`),
      );
    } catch (e) {
      if (e instanceof SefError && e.kind === 'not_found') return null;
      throw e;
    }
  }

  async status(invoiceId: number): Promise<StatusReply> {
    return this.#parse(StatusReplySchema, await this.#call('GET', `${SEF_PATHS.status}?invoiceId=${invoiceId}`));
  }

  async cancel(invoiceId: number, comment: string): Promise<void> {
    await this.#call('POST', SEF_PATHS.cancel, { json: { invoiceId, cancelComments: comment } });
  }

  async storno(invoiceId: number, stornoNumber: string, comment: string): Promise<void> {
    await this.#call('POST', SEF_PATHS.storno, { json: { invoiceId, stornoNumber, stornoComment: comment } });
  }

  async purchaseIds(): Promise<number[]> {
    return this.#parse(PurchaseIdsReplySchema, await this.#call('POST', SEF_PATHS.purchaseIds, { json: {} }))
      .PurchaseInvoiceIds;
  }

  async purchaseXml(invoiceId: number): Promise<string> {
    return await this.#call('GET', `${SEF_PATHS.purchaseXml}?invoiceId=${invoiceId}`);
  }

  /** The company registered on SEF under `pib`, or null. */
  async company(pib: string): Promise<SefCompany | null> {
    const text = await this.#call('GET', SEF_PATHS.companies);
    const list = this.#parse(CompanySchema.array(), text);
    return list.find((c) => c.VatRegistrationCode === pib && !c.Deleted) ?? null;
  }
}
