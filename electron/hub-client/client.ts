/**
 * The till's HTTP client for the store hub. The credential goes only into the Authorization header of
 * requests to the hub: never into a log line, an error message or the renderer.
 *
 * Every request goes through one transport (#25): HTTPS to the hub's pinned certificate (its SHA-256, taken
 * at enrolment), checked on every new connection before anything is sent; or plain HTTP to a hub on this
 * machine's loopback. Plain HTTP to any other address, or HTTPS without a pin, is refused: never a
 * fallback.
 */
import { HubError } from '../../shared/hub/protocol.ts';
import { normalizeFingerprint } from '../../shared/hub/fingerprint.ts';
import { isLoopbackUrl, pinnedFetch, type PinnedFetch } from '../../shared/node/pinned-fetch.ts';
import type {
  HubPerson,
  TillPerson,
  ChangesResult,
  HubEvent,
  HubOrder,
  HubParkedCart,
  HubParkedSummary,
  LookupInput,
  ParkInput,
  ParkTakeInput,
  ProductInput,
  PushResult,
  RefundHoldInput,
  RefundHoldResult,
  TillPinAnswer,
  TillPinInput,
  TillStatus,
} from '../../shared/hub/protocol.ts';

/** The hub's refusal as the till reads it: the same class the hub throws. */
export { HubError };

export interface HubClientOptions {
  baseUrl: string;
  credential?: string | null;
  /** The SHA-256 of the hub's certificate (any accepted form); required for an https URL. */
  fingerprint?: string | null;
  /** Plain HTTP on loopback only (tests): the transport for an http URL; default the global fetch. */
  fetch?: PinnedFetch;
  timeoutMs?: number;
}

/** Why a hub URL cannot be used: plain HTTP off loopback, or https without a pinned certificate. */
export class HubTransportError extends Error {
  readonly reason: 'plain_http' | 'no_pin';
  constructor(reason: 'plain_http' | 'no_pin') {
    super(
      reason === 'plain_http'
        ? 'the hub is reached over https only (plain http only on this machine: 127.0.0.1, ::1, localhost)'
        : "the hub's certificate fingerprint is not known: enrol again or pin it on the Hub tab",
    );
    this.name = 'HubTransportError';
    this.reason = reason;
  }
}

/** The transport for a hub URL (see the header), or the refusal of it. */
export function hubTransport(
  baseUrl: string,
  fingerprint: string | null | undefined,
  plain?: PinnedFetch,
): PinnedFetch {
  if (/^https:/i.test(baseUrl)) {
    const pin = normalizeFingerprint(fingerprint ?? '');
    if (!pin) throw new HubTransportError('no_pin');
    return pinnedFetch(pin);
  }
  if (!isLoopbackUrl(baseUrl)) throw new HubTransportError('plain_http');
  return plain ?? ((url, init) => fetch(url, init));
}

export class HubClient {
  readonly baseUrl: string;
  readonly #credential: string | null;
  readonly #fetch: PinnedFetch;
  readonly #timeoutMs: number;

  /** Throws {@link HubTransportError} for a URL the till may not use. */
  constructor(o: HubClientOptions) {
    this.baseUrl = o.baseUrl.replace(/\/+$/, '');
    this.#credential = o.credential ?? null;
    this.#fetch = hubTransport(this.baseUrl, o.fingerprint, o.fetch);
    this.#timeoutMs = o.timeoutMs ?? 10_000;
  }

  async #call<T>(method: string, path: string, body?: unknown, auth = true, timeoutMs = this.#timeoutMs): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (auth && this.#credential) headers.authorization = `Bearer ${this.#credential}`;
    const res = await this.#fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!res.ok) {
      const e = (json ?? {}) as { code?: unknown; message?: unknown; field?: unknown };
      throw new HubError(
        res.status,
        typeof e.code === 'string' ? e.code : 'http_' + res.status,
        typeof e.message === 'string' ? e.message : `hub answered ${res.status}`,
        typeof e.field === 'string' ? e.field : undefined,
      );
    }
    return json as T;
  }

  /** The hub's health; the first request of a re-pin, to see the hub shows the new certificate. */
  health(): Promise<{ ok: boolean }> {
    return this.#call('GET', '/api/health', undefined, false, Math.min(this.#timeoutMs, 5000));
  }

  /** Spends a one-time enrolment code; the answer holds the till's credential (store it, never log it). */
  enrol(code: string, name: string): Promise<{ tillId: number; shopId: number; credential: string }> {
    return this.#call('POST', '/api/enrol', { code, name }, false);
  }

  push(tillId: number, events: HubEvent[], status?: TillStatus): Promise<PushResult> {
    return this.#call('POST', '/api/till/push', { tillId, events, ...(status ? { status } : {}) });
  }

  changes(since: number): Promise<ChangesResult> {
    return this.#call('GET', `/api/till/changes?since=${since}`);
  }

  /**
   * A sale of another till of this shop, or null when the hub knows none (a refund waits at most 3 s for a LAN that is
   * down).
   */
  /**
   * Offers this till's catalog to the hub (at enrolment, or the manager's choice with `replace`); the hub writes it
   * only with `approverPin`, a hub manager's PIN it checks itself.
   */
  adoptCatalog(
    products: ProductInput[],
    replace: boolean,
    approverPin?: string,
  ): Promise<{ adopted: boolean; hubProducts: number }> {
    return this.#call('POST', '/api/till/catalog', {
      products,
      ...(replace ? { replace: true } : {}),
      ...(approverPin !== undefined ? { approverPin } : {}),
    });
  }

  /** Offers the till's people right after enrolment: adopted by a shop without a manager, else the shop's answered. */
  offerStaff(people: TillPerson[]): Promise<{ adopted: boolean; hub: HubPerson[] }> {
    return this.#call('POST', '/api/till/staff', { people });
  }

  /**
   * Whose PIN this is, asked of the hub (issue 39; `id`: the person this till matched), or with `newPin` the person's
   * own PIN change, `pin` being their current PIN. Waits at most `timeoutMs` (a login does not wait for a LAN that is
   * down).
   */
  tillPin(input: TillPinInput, timeoutMs: number): Promise<TillPinAnswer> {
    return this.#call('POST', '/api/till/pin', input, true, timeoutMs);
  }

  /** A staff change approved by a manager's PIN, which the hub checks itself (no people: only the PIN is checked). */
  staffChange(approverPin: string, people: TillPerson[]): Promise<{ changed: number; approver: string }> {
    return this.#call('POST', '/api/till/staff/change', { approverPin, people });
  }

  async lookup(q: LookupInput): Promise<HubOrder | null> {
    try {
      return await this.#call<HubOrder>('POST', '/api/till/lookup', q, true, Math.min(this.#timeoutMs, 3000));
    } catch (err) {
      if (err instanceof HubError && err.status === 404) return null;
      throw err;
    }
  }
  /**
   * Holds the lines of a sale this till is about to refund (hub/refund-holds.ts): held, or refused with what is
   * left when another till holds or refunded them. Waits at most 3 s for a LAN that is down.
   */
  refundHold(input: RefundHoldInput): Promise<RefundHoldResult> {
    return this.#call<RefundHoldResult>('POST', '/api/till/refund-hold', input, true, Math.min(this.#timeoutMs, 3000));
  }

  /** Lets a hold go: the refund was not captured after all. */
  async refundRelease(holdId: string): Promise<void> {
    await this.#call('POST', '/api/till/refund-release', { holdId }, true, Math.min(this.#timeoutMs, 3000));
  }

  /** Parked carts wait at most 3 s for the LAN: a hub that is away leaves the cart on this till. */
  park(input: ParkInput): Promise<{ id: number }> {
    return this.#call('PUT', '/api/till/parked', input, true, Math.min(this.#timeoutMs, 3000));
  }

  parkedList(): Promise<{ carts: HubParkedSummary[] }> {
    return this.#call('GET', '/api/till/parked', undefined, true, Math.min(this.#timeoutMs, 3000));
  }

  /** Takes a cart at the hub (deleted there as it is returned); null when another till took it first. */
  async parkedTake(input: ParkTakeInput): Promise<HubParkedCart | null> {
    try {
      return await this.#call<HubParkedCart>(
        'POST',
        '/api/till/parked/take',
        input,
        true,
        Math.min(this.#timeoutMs, 3000),
      );
    } catch (err) {
      if (err instanceof HubError && err.status === 404) return null;
      throw err;
    }
  }
}
