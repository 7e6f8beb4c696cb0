/** The one error type of the gateway client, and the one place that decides what a failure means. */
import { KasaError } from '../../shared/errors.ts';

export type GatewayErrorKind = 'http' | 'network' | 'timeout' | 'malformed';

export interface GatewayErrorInit {
  kind: GatewayErrorKind;
  message: string;
  status?: number | null;
  code?: string | null;
  userMessage?: string;
  details?: Record<string, unknown>;
  correlationId?: string;
  path?: string;
  /** False when an HTTP error's body was not the gateway's error object (a proxy's HTML page, say). */
  fromGateway?: boolean;
  /** The code proving no connection was made (shared/node/never-connected.ts): nothing reached the gateway. */
  neverSent?: string;
}

/**
 * A failure of a gateway call. `status` is the HTTP status, or null when no response arrived; `code` the
 * gateway's error code (`ERR_00202` …), null when absent (403 and 429 carry none). A subclass of the one
 * error type because the outbox branches on it to decide retries.
 */
export class GatewayError extends KasaError<string | null, number | null> {
  readonly kind: GatewayErrorKind;
  readonly userMessage: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly correlationId: string | undefined;
  readonly path: string | undefined;
  readonly fromGateway: boolean;
  /** Set when the request provably never left (connection refused, no such host, no route, connect timeout). */
  readonly neverSent: string | undefined;

  constructor(init: GatewayErrorInit) {
    super(init.code ?? null, init.message, { status: init.status ?? null });
    this.name = 'GatewayError';
    this.kind = init.kind;
    this.userMessage = init.userMessage;
    this.details = init.details;
    this.correlationId = init.correlationId;
    this.path = init.path;
    this.fromGateway = init.fromGateway ?? true;
    this.neverSent = init.neverSent;
  }

  /** Validation errors from `details.validationErrors`, when the gateway sent them. */
  get validationErrors(): { field: string; message: string }[] {
    const list = this.details?.['validationErrors'];
    if (!Array.isArray(list)) return [];
    return list.flatMap((e: unknown) => {
      if (e && typeof e === 'object') {
        const o = e as Record<string, unknown>;
        return [{ field: String(o['field'] ?? ''), message: String(o['message'] ?? '') }];
      }
      return [];
    });
  }

  /** The Tax Administration reason code (e.g. "2310") from `details.pursRawResponse`, if present. */
  get taxAdministrationReason(): string | undefined {
    const raw = this.details?.['pursRawResponse'];
    if (raw === undefined || raw === null) return undefined;
    const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
    const m = /\b(\d{4})\b/.exec(text);
    return m?.[1];
  }

  /**
   * The items (by index) whose labels the Tax Administration refused (2310): `details.pursRawResponse.modelState`
   * entries `Items[n].Labels` carrying 2310. Empty when the reply does not name them.
   */
  get refusedLabelItems(): number[] {
    const raw = this.details?.['pursRawResponse'];
    const state = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)['modelState'] : undefined;
    if (!Array.isArray(state)) return [];
    return state.flatMap((e: unknown) => {
      if (!e || typeof e !== 'object') return [];
      const o = e as Record<string, unknown>;
      const at = /^Items\[(\d+)\]\.Labels$/i.exec(String(o['property'] ?? ''));
      const errors = Array.isArray(o['errors']) ? o['errors'].map(String) : [];
      return at?.[1] !== undefined && errors.includes('2310') ? [Number(at[1])] : [];
    });
  }
}

/**
 * What to do about a failure:
 * - `retry`: transient (network, timeout, 5xx, 429, malformed reply): back off and try again.
 * - `blocked`: the key is missing, invalid or has no access (401/403): pause everything, alert.
 * - `exists`: the order number is already used (ERR_00603): reconcile through the archive.
 * - `rejected`: the gateway or the Tax Administration refused this request; it needs a person.
 */
export type Classification =
  { type: 'retry' } | { type: 'blocked'; reason: 'auth' } | { type: 'exists' } | { type: 'rejected'; reason: string };

export const REJECTION_CODES = ['ERR_00202', 'ERR_00701', 'ERR_01010', 'ERR_00302', 'ERR_00201'] as const;

export function classify(error: unknown): Classification {
  if (!(error instanceof GatewayError)) return { type: 'retry' };
  if (error.kind !== 'http' || error.status === null) return { type: 'retry' };
  const { status, code } = error;
  if (status === 401 || status === 403) return { type: 'blocked', reason: 'auth' };
  if (status === 429 || status >= 500) return { type: 'retry' };
  if (code === 'ERR_00603') return { type: 'exists' };
  if (status === 408) return { type: 'retry' };
  // A 4xx that is not the gateway's own error object came from something in between (a captive portal, a
  // proxy's HTML 404): the gateway never judged the request, so it is retried, not parked.
  if (!error.fromGateway) return { type: 'retry' };
  return { type: 'rejected', reason: code ?? `HTTP ${status}` };
}
