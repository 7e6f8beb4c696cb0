/**
 * The till's HTTP client for the store hub. The credential goes only into the Authorization header of
 * requests to the hub: never into a log line, an error message or the renderer.
 *
 * Every call goes through the typed client of the hub's contract (shared/hub/client.ts): no path or wire
 * shape is written here. Every request goes through one transport (#25): HTTPS to the hub's pinned certificate
 * (its SHA-256, taken at enrolment), checked on every new connection before anything is sent; or plain HTTP to
 * a hub on this machine's loopback. Plain HTTP to any other address, or HTTPS without a pin, is refused: never
 * a fallback.
 */
import type { HubGoodsDoc, TillGoodsOpeningAnswer, TillStockAnswer } from '../../shared/hub/goods-protocol.ts';
import type {
  TillCountEntryAnswer,
  TillCountEntryInput,
  TillDraftAnswer,
  TillOpenCount,
  TillReceiptDraftInput,
} from '../../shared/hub/till-goods-protocol.ts';
import { HubError } from '../../shared/hub/protocol.ts';
import { normalizeFingerprint } from '../../shared/hub/fingerprint.ts';
import { isLoopbackUrl, pinnedFetch, type PinnedFetch } from '../../shared/node/pinned-fetch.ts';
import { hubClient, type HubSend, type TypedHubClient } from '../../shared/hub/client.ts';
import type { HubApi } from '../../shared/hub/contract.ts';
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

/**
 * The hub's answer, or null where it answers 404: for a lookup, "none" is an answer the caller acts on, while
 * every other refusal still throws.
 */
async function noneWhenNotFound<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof HubError && err.status === 404) return null;
    throw err;
  }
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
  readonly #api: TypedHubClient<HubApi>;
  readonly #timeoutMs: number;

  /** Throws {@link HubTransportError} for a URL the till may not use. */
  constructor(o: HubClientOptions) {
    this.baseUrl = o.baseUrl.replace(/\/+$/, '');
    const credential = o.credential ?? null;
    const transport = hubTransport(this.baseUrl, o.fingerprint, o.fetch);
    this.#timeoutMs = o.timeoutMs ?? 10_000;
    // The credential goes only into the Authorization header, and only to the endpoints that want a till.
    const send: HubSend = (method, path, body, { auth, timeoutMs }) => {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (auth && credential) headers.authorization = `Bearer ${credential}`;
      return transport(`${this.baseUrl}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(timeoutMs ?? this.#timeoutMs),
      });
    };
    this.#api = hubClient(send);
  }

  /** At most 3 s (a refund, a parked cart: a LAN that is down must not hold the counter). */
  #short(): { timeoutMs: number } {
    return { timeoutMs: Math.min(this.#timeoutMs, 3000) };
  }

  /** The hub's health; the first request of a re-pin, to see the hub shows the new certificate. */
  health(): Promise<{ ok: boolean }> {
    return this.#api.call('health', undefined, { timeoutMs: Math.min(this.#timeoutMs, 5000) });
  }

  /** Spends a one-time enrolment code; the answer holds the till's credential (store it, never log it). */
  enrol(code: string, name: string): Promise<{ tillId: number; shopId: number; credential: string }> {
    return this.#api.call('enrol', { code, name });
  }

  push(tillId: number, events: HubEvent[], status?: TillStatus): Promise<PushResult> {
    return this.#api.call('push', { tillId, events, ...(status ? { status } : {}) });
  }

  changes(since: number): Promise<ChangesResult> {
    return this.#api.call('changes', { since });
  }

  /**
   * Offers this till's catalog to the hub (at enrolment, or the manager's choice with `replace`); the hub writes it
   * only with `approverPin`, a hub manager's PIN it checks itself.
   */
  adoptCatalog(
    products: ProductInput[],
    replace: boolean,
    approverPin?: string,
  ): Promise<{ adopted: boolean; hubProducts: number }> {
    return this.#api.call('adoptCatalog', {
      products,
      ...(replace ? { replace: true } : {}),
      ...(approverPin !== undefined ? { approverPin } : {}),
    });
  }

  /**
   * The till's own goods book as its shop's opening stock, approved by a hub manager's PIN the hub checks; made once
   * per `key` (a resend answers the same document).
   */
  goodsOpening(
    key: string,
    lines: { code: string; qtyMilli: number; purchasePara: number | null }[],
    approverPin: string,
  ): Promise<TillGoodsOpeningAnswer> {
    return this.#api.call('tillGoodsOpening', { key, lines, approverPin });
  }

  /** Offers the till's people right after enrolment: adopted by a shop without a manager, else the shop's answered. */
  offerStaff(people: TillPerson[]): Promise<{ adopted: boolean; hub: HubPerson[] }> {
    return this.#api.call('offerStaff', { people });
  }

  /**
   * Whose PIN this is, asked of the hub (issue 39; `id`: the person this till matched), or with `newPin` the person's
   * own PIN change, `pin` being their current PIN. Waits at most `timeoutMs` (a login does not wait for a LAN that is
   * down).
   */
  tillPin(input: TillPinInput, timeoutMs: number): Promise<TillPinAnswer> {
    return this.#api.call('tillPin', input, { timeoutMs });
  }

  /** A staff change approved by a manager's PIN, which the hub checks itself (no people: only the PIN is checked). */
  staffChange(approverPin: string, people: TillPerson[]): Promise<{ changed: number; approver: string }> {
    return this.#api.call('staffChange', { approverPin, people });
  }

  /**
   * A sale of another till of this shop, or null when the hub knows none (a refund waits at most 3 s for a LAN that
   * is down).
   */
  lookup(q: LookupInput): Promise<HubOrder | null> {
    return noneWhenNotFound(this.#api.call('lookup', q, this.#short()));
  }

  /**
   * Holds the lines of a sale this till is about to refund (hub/refund-holds.ts): held, or refused with what is
   * left when another till holds or refunded them. Waits at most 3 s for a LAN that is down.
   */
  refundHold(input: RefundHoldInput): Promise<RefundHoldResult> {
    return this.#api.call('refundHold', input, this.#short());
  }

  /** The shop's stock of these products as the hub keeps it (waits at most 3 s for a LAN that is down). */
  stock(codes: readonly string[]): Promise<TillStockAnswer> {
    return this.#api.call('tillStock', { codes: codes.join(',') }, this.#short());
  }

  /**
   * One page of the shop's whole stock book, or of the rows changed since `since` (an earlier answer's `cursor`),
   * `after` a code: the counter's snapshot (electron/goods/hub-stock.ts). Waits at most 3 s for a LAN that is down.
   */
  stockPage(since: string | null, after: string): Promise<TillStockAnswer> {
    return this.#api.call(
      'tillStock',
      { ...(since !== null ? { since } : {}), ...(after ? { after } : {}) },
      this.#short(),
    );
  }

  /** Lets a hold go: the refund was not captured after all. */
  async refundRelease(holdId: string): Promise<void> {
    await this.#api.call('refundRelease', { holdId }, this.#short());
  }

  /** Parked carts wait at most 3 s for the LAN: a hub that is away leaves the cart on this till. */
  park(input: ParkInput): Promise<{ id: number }> {
    return this.#api.call('park', input, this.#short());
  }

  parkedList(): Promise<{ carts: HubParkedSummary[] }> {
    return this.#api.call('parkedList', undefined, this.#short());
  }

  /** Takes a cart at the hub (deleted there as it is returned); null when another till took it first. */
  parkedTake(input: ParkTakeInput): Promise<HubParkedCart | null> {
    return noneWhenNotFound(this.#api.call('parkedTake', input, this.#short()));
  }

  /** A receipt draft saved at the hub under (this till, its draft id): sent again, still one draft there. */
  tillReceiptDraft(input: TillReceiptDraftInput): Promise<TillDraftAnswer> {
    return this.#api.call('tillReceiptDraft', input, this.#short());
  }

  /** Posts a draft this till made with a hub manager's PIN, which the hub checks. */
  tillReceiptPost(id: number, approverPin: string, confirmBelowPurchase: boolean): Promise<HubGoodsDoc> {
    return this.#api.call('tillReceiptPost', {
      id,
      approverPin,
      ...(confirmBelowPurchase ? { confirmBelowPurchase: true } : {}),
    });
  }

  /** The shop's open counts (waits at most 3 s for a LAN that is down). */
  tillCounts(): Promise<{ counts: TillOpenCount[] }> {
    return this.#api.call('tillCounts', undefined, this.#short());
  }

  /** One count entry, once per (this till, its entry id). */
  tillCountEntry(input: TillCountEntryInput): Promise<TillCountEntryAnswer> {
    return this.#api.call('tillCountEntry', input, this.#short());
  }
}
