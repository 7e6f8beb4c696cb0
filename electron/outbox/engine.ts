/**
 * The sync engine: sends every queued order to the gateway exactly once.
 *
 * - Every send is journaled before it leaves and after it returns (OrderStore.startAttempts/finishAttempt).
 * - Bodies are frozen at capture and resent byte for byte with `returnIfOrderNumberExists: true`.
 * - An order whose first attempt is older than the dedupe safety margin is never resent blindly: it is
 *   looked up with fiscalization-lookup (and its receipt fetched from the archive) first.
 * - Failures are classified once (gateway/errors.ts classify): retry with capped exponential backoff and
 *   full jitter; auth pauses the engine; rejections park the order in needs_attention.
 * - A backlog drains through the bulk endpoint (30 per request, one bulk at a time, 429 = wait) while a
 *   few single sends run beside it.
 * - The L-PFR lane (docs/lpfr.md, "Routing"): while the gateway is unreachable, orders never sent to it are
 *   signed on the shop's local processor at once. Each order is pinned to the processor of its first attempt
 *   that may have signed it (OrderStore.startAttempts, in the attempt's own transaction): an order whose gateway
 *   outcome is unknown stays with the gateway, one whose L-PFR outcome is unknown stays with the L-PFR until its
 *   look-up by RequestId answers. So no order is ever signed by both.
 */
import { GatewayError, classify } from '../gateway/errors.ts';
import type { GatewayClient } from '../gateway/client.ts';
import { IssuedReceiptSchema, type IssuedReceipt } from '../gateway/types.ts';
import type { BulkFailure } from '../gateway/normalize.ts';
import type { DueLane, LpfrSnapshot, OrderRow, OrderStore, OutboxRow } from '../orders/store.ts';
import type { GatewayErrorView, LpfrState, SyncStatus } from '../../shared/domain.ts';
import { LpfrFailure, type LpfrPort } from './lpfr-port.ts';
import { message } from '../../shared/messages.ts';
import { DEFAULT_MAX_LOOKUP_TRIES, LPFR_UNPROVEN, reconcileLimitView } from './reconcile-budget.ts';
import { resolveLookupHit } from './chain.ts';
import { createSyncLoop, type SyncLoop } from '../retry/loop.ts';
import { POLICIES, backoffMs, type BackoffPolicy } from '../retry/policy.ts';

export interface EngineOptions {
  /** Single requests in flight at once. Default 4. */
  concurrency: number;
  /** Due orders above this count switch on the bulk lane. Default 5. */
  bulkThreshold: number;
  /** Receipts per bulk request (gateway maximum 30). */
  bulkSize: number;
  /** Resend an order with an unknown outcome only while its first attempt is younger than this. Default 10 days. */
  dedupeSafeMs: number;
  /** Bounds of the send backoff (policy `gatewaySend`). */
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** Probe interval bounds while offline (policy `gatewayProbe`). */
  probeMinMs: number;
  probeMaxMs: number;
  /** Timeout of one receipt request. */
  requestTimeoutMs: number;
  /** Failed look-ups of one order before it is parked for a person (reconcile-budget.ts). */
  maxLookupTries: number;
  /**
   * While online with nothing to send, the gateway is asked this often whether it is still there (GET
   * /auth/api-key/me, the cheapest call it has; the spec sets no general rate limit), so the counter's
   * online chip turns red within this time of an outage, not at the next failed sale. 0: never. Default 10 s.
   */
  idleProbeMs: number;
  /** How often the L-PFR's state is asked while nothing waits for it (status bar, checkout). Default 10 s. */
  lpfrProbeMs: number;
}

export const DEFAULT_ENGINE_OPTIONS: EngineOptions = {
  concurrency: 4,
  bulkThreshold: 5,
  bulkSize: 30,
  dedupeSafeMs: 10 * 24 * 3600_000,
  baseBackoffMs: POLICIES.gatewaySend.baseMs,
  maxBackoffMs: POLICIES.gatewaySend.capMs,
  probeMinMs: POLICIES.gatewayProbe.baseMs / 2,
  probeMaxMs: POLICIES.gatewayProbe.capMs,
  requestTimeoutMs: 20_000,
  maxLookupTries: DEFAULT_MAX_LOOKUP_TRIES,
  idleProbeMs: 10_000,
  lpfrProbeMs: 10_000,
};

export interface EngineDeps {
  store: OrderStore;
  /** The client to use now (it changes when the API key or URL changes); null = not configured. */
  client: () => GatewayClient | null;
  /** The shop's local fiscal processor, when one is set up (electron/lpfr/route.ts); null = none. */
  lpfr?: () => LpfrPort | null;
  now?: () => number;
  random?: () => number;
  options?: Partial<EngineOptions>;
  onOrderUpdated?: (order: { orderId: number; orderNumber: string; state: OrderRow['state'] }) => void;
  onStatus?: (status: SyncStatus) => void;
  log?: (line: string) => void;
  /**
   * Largest tolerated difference between the till's clock and the gateway's (`sdcDateTime`), in ms.
   * Default: the `clockDriftMaxMs` setting, else 5 minutes.
   */
  clockDriftMaxMs?: () => number;
  /** The warning shown when the drift is over the limit. Default: `clock_drift` in the settings' language. */
  clockWarning?: (driftMs: number) => string;
  /** The Tax Administration refused these labels of a sent order (2310): the tax-rate cache learns them. */
  onLabelsRefused?: (labels: string[]) => void;
}

export const DEFAULT_CLOCK_DRIFT_MAX_MS = 5 * 60_000;

type Due = OrderRow & OutboxRow;

export class SyncEngine {
  readonly options: EngineOptions;
  readonly #store: OrderStore;
  readonly #client: () => GatewayClient | null;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #deps: EngineDeps;
  readonly #claimed = new Set<number>();
  readonly #waiters = new Map<number, Set<() => void>>();

  #online = true;
  /** When the gateway last answered (epoch ms; the idle probe's clock). */
  #lastContactAt = Number.NEGATIVE_INFINITY;
  #paused: 'auth' | null = null;
  #lastError: string | null = null;
  #lastSuccessAt: string | null = null;
  #clockDriftMs: number | null = null;
  /** The L-PFR's clock minus the till's (its status read before a signing); null until then. */
  #lpfrClockDriftMs: number | null = null;
  /** Failed probes since the gateway went unreachable. */
  #probeFailures = 0;
  #nextProbeAt = 0;
  readonly #sendBackoff: BackoffPolicy;
  readonly #probeBackoff: BackoffPolicy;
  readonly #loop: SyncLoop;
  #running = false;
  #passInFlight: Promise<void> | null = null;
  #stopping = false;
  #statusTimer: NodeJS.Timeout | null = null;
  /** The L-PFR as last found (null: none set up) and when it was last asked. */
  #lpfrState: LpfrState | null = null;
  #lpfrCheckedAt = Number.NEGATIVE_INFINITY;

  constructor(deps: EngineDeps) {
    this.#deps = deps;
    this.#store = deps.store;
    this.#client = deps.client;
    this.#now = deps.now ?? Date.now;
    this.#random = deps.random ?? Math.random;
    this.options = { ...DEFAULT_ENGINE_OPTIONS, ...deps.options };
    const o = this.options;
    this.#sendBackoff = { ...POLICIES.gatewaySend, baseMs: o.baseBackoffMs, capMs: o.maxBackoffMs };
    // The first probe after going offline waits probeMinMs; each failed one doubles it.
    this.#probeBackoff = { ...POLICIES.gatewayProbe, baseMs: 2 * o.probeMinMs, capMs: o.probeMaxMs };
    // Each pass is timed from the store: the earliest due order, the next probe, or a minute at most.
    this.#loop = createSyncLoop(
      async () => {
        try {
          await this.runOnce();
        } catch (err) {
          this.#log(`sync pass failed: ${err instanceof Error ? err.message : String(err)}`);
        }
        return { nextInMs: this.#nextWait() };
      },
      { afterPass: true },
    );
  }

  /** Marks attempts left open by a previous process as UNKNOWN and starts the background loop. */
  start(): void {
    if (this.#running) return;
    const recovered = this.#store.recoverOpenAttempts(this.#now());
    if (recovered) this.#log(`recovered ${recovered} attempt(s) with unknown outcome`);
    this.#running = true;
    this.#stopping = false;
    this.#loop.start(60_000);
  }

  /** Stops the loop and waits for requests in flight to settle. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#stopping = true;
    await this.#loop.stop();
    await this.#passInFlight;
    if (this.#statusTimer) clearTimeout(this.#statusTimer);
    this.#statusTimer = null;
  }

  /** Wakes the loop now (a new order). Respects an auth pause and the offline probe schedule. */
  kick(): void {
    this.#loop.kick();
    // A new order changes the queue even when nothing is sent (known offline: only probes run), so the
    // status bar's count and age follow the sale at once.
    this.#emitStatus();
  }

  /** Clears an auth pause and probes at once (the key changed, or a person asked to sync now). */
  resume(): void {
    this.#paused = null;
    this.#nextProbeAt = 0;
    this.kick();
  }

  /** The L-PFR was set up, changed or removed: it is asked again at once. */
  lpfrChanged(): void {
    this.#lpfrCheckedAt = Number.NEGATIVE_INFINITY;
    this.#setLpfrState(this.#deps.lpfr?.() ? 'unknown' : null);
    this.kick();
  }

  /**
   * A person asked to sync now: lift an auth pause, probe at once, and make every waiting order due now
   * (backoff forgotten). Safe: orders past the dedupe margin still go through lookup first.
   */
  retryNow(): void {
    this.#store.dueAllNow(this.#now());
    this.resume();
  }

  /** True when the engine believes it can reach the gateway now (not offline, not paused). */
  get reachable(): boolean {
    return this.#online && !this.#paused;
  }

  /**
   * True when a sale made now is expected to be fiscalized at once: by the gateway, or, while the gateway is
   * unreachable, by a ready L-PFR. A checkout waits for its receipt only then.
   */
  get fiscalNow(): boolean {
    return this.reachable || (!this.#online && this.#lpfrState === 'ready');
  }

  /** Resolves when the order leaves `queued` or after `ms`. */
  waitForSettled(orderId: number, ms: number): Promise<void> {
    const row = this.#store.get(orderId);
    if (!row || row.state !== 'queued' || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const set = this.#waiters.get(orderId) ?? new Set();
      const done = (): void => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0) this.#waiters.delete(orderId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
      this.#waiters.set(orderId, set);
    });
  }

  status(): SyncStatus {
    const c = this.#store.counts();
    return {
      online: this.#online,
      paused: this.#paused,
      queued: c.queued,
      needsAttention: c.needsAttention,
      oldestQueuedAt: c.oldestQueuedAt,
      lastSuccessAt: this.#lastSuccessAt,
      lastError: this.#lastError,
      clockDriftMs: this.#clockDriftMs,
      lpfrClockDriftMs: this.#lpfrClockDriftMs,
      clockWarning: this.#clockWarning(),
      lpfr: this.#lpfrState,
    };
  }

  /** One sentence per clock the till's is off from by more than the limit, naming it; null when none is. */
  #clockWarning(): string | null {
    const settings = this.#store.settings;
    const max = this.#deps.clockDriftMaxMs?.() ?? settings.number('clockDriftMaxMs', DEFAULT_CLOCK_DRIFT_MAX_MS);
    const off = (drift: number | null): drift is number => drift !== null && Math.abs(drift) > max;
    const minutes = (drift: number) => ({ minutes: Math.round(Math.abs(drift) / 60_000) });
    const parts: string[] = [];
    const gateway = this.#clockDriftMs;
    if (off(gateway))
      parts.push(this.#deps.clockWarning?.(gateway) ?? message(settings.language(), 'clock_drift', minutes(gateway)));
    const lpfr = this.#lpfrClockDriftMs;
    if (off(lpfr)) parts.push(message(settings.language(), 'clock_drift_lpfr', minutes(lpfr)));
    return parts.length ? parts.join(' ') : null;
  }

  /** Records the L-PFR's clock from its status, read between `askedAt` and now. */
  #observeLpfrClock(sdcDateTime: string | undefined, askedAt: number): void {
    const device = sdcDateTime ? Date.parse(sdcDateTime) : Number.NaN;
    if (!Number.isFinite(device)) return;
    const previous = this.#lpfrClockDriftMs;
    this.#lpfrClockDriftMs = device - Math.round((askedAt + this.#now()) / 2);
    if (previous === null || Math.abs(previous - this.#lpfrClockDriftMs) > 1000) this.#emitStatus();
  }

  /**
   * Records the gateway's clock from a receipt issued just now (never one returned again for an order
   * that may have been issued earlier: its sdcDateTime is old). The till's time is taken halfway
   * through the request.
   */
  #observeClock(d: Due, sdcDateTime: string, sentAt: number): void {
    if (d.unknown !== 0 || d.tries !== 0) return;
    const gateway = Date.parse(sdcDateTime);
    if (!Number.isFinite(gateway)) return;
    const previous = this.#clockDriftMs;
    this.#clockDriftMs = gateway - Math.round((sentAt + this.#now()) / 2);
    if (previous === null || Math.abs(previous - this.#clockDriftMs) > 1000) this.#emitStatus();
  }

  /**
   * One pass: sends everything due now (bulk lane for a backlog, single lanes beside it), then returns.
   * Used by the loop, by `sync.now`, and by tests that drive the clock themselves.
   */
  async runOnce(): Promise<void> {
    if (this.#passInFlight) return this.#passInFlight;
    this.#passInFlight = this.#pass().finally(() => {
      this.#passInFlight = null;
    });
    return this.#passInFlight;
  }

  /** How long the loop sleeps after a pass: until the next due order or probe, at most a minute. */
  #nextWait(): number {
    const now = this.#now();
    let wait = 60_000;
    if (this.#paused) wait = 60_000;
    else if (!this.#online) {
      wait = Math.max(0, this.#nextProbeAt - now);
      if (this.#lpfrState === 'ready') {
        const next = this.#store.nextDue('lpfr_any');
        if (next !== null) wait = Math.min(wait, Math.max(0, next - now));
      }
    } else {
      const next = this.#store.nextDue();
      if (next !== null) wait = Math.max(0, next - now);
      if (this.options.idleProbeMs > 0) wait = Math.min(wait, this.#lastContactAt + this.options.idleProbeMs - now);
    }
    if (this.#deps.lpfr?.()) {
      wait = Math.min(wait, Math.max(0, this.#lpfrCheckedAt + this.options.lpfrProbeMs - now));
      const pinned = this.#store.nextDue('lpfr_pinned');
      if (pinned !== null && this.#lpfrState === 'ready') wait = Math.min(wait, Math.max(0, pinned - now));
    }
    return Math.max(Math.min(wait, 60_000), 5);
  }

  /**
   * The gateway first; then the L-PFR: every order it may sign while the gateway is unreachable, else only the
   * orders pinned to it (an outcome to look up, a refund of its own receipt).
   */
  async #pass(): Promise<void> {
    // Known offline: the L-PFR signs new sales before the gateway is probed (a probe may take seconds).
    if (!this.#online) await this.#lpfrPass('lpfr_any');
    if (this.#stopping) return;
    await this.#gatewayPass();
    if (this.#stopping) return;
    await this.#lpfrPass(!this.#online ? 'lpfr_any' : 'lpfr_pinned');
  }

  async #gatewayPass(): Promise<void> {
    const client = this.#client();
    if (!client || this.#paused) return;
    if (!this.#online) {
      if (this.#now() < this.#nextProbeAt) return;
      if (!(await this.#probe(client))) return;
    } else if (this.#idleProbeDue()) {
      await this.#idleProbe(client);
      if (!this.#canSend()) return;
    }
    for (;;) {
      const due = this.#store.due(this.#now(), 5000, this.#claimed);
      if (due.length === 0) return;
      const stale = due.filter((d) => this.#needsLookup(d));
      const fresh = due.filter((d) => !this.#needsLookup(d));
      if (stale.length) await this.#reconcile(client, stale);
      if (!this.#canSend()) return;
      if (fresh.length) await this.#drain(client, fresh);
      if (!this.#canSend()) return;
      if (due.length < 5000) {
        // Loop again only if sending made more orders due (dependents freed by this pass).
        const more = this.#store.due(this.#now(), 1, this.#claimed);
        if (more.length === 0) return;
      }
    }
  }

  /** An order that may already be issued and is past the dedupe safety margin must be looked up first. */
  #needsLookup(d: Due): boolean {
    return d.first_attempt_at !== null && this.#now() - d.first_attempt_at >= this.options.dedupeSafeMs;
  }

  async #drain(client: GatewayClient, due: Due[]): Promise<void> {
    const queue = [...due];
    const lanes: Promise<void>[] = [];
    if (queue.length > this.options.bulkThreshold) lanes.push(this.#bulkLane(client, queue));
    for (let i = 0; i < this.options.concurrency; i++) lanes.push(this.#singleLane(client, queue));
    await Promise.all(lanes);
  }

  #canSend(): boolean {
    return this.#online && !this.#paused && !this.#stopping;
  }

  async #singleLane(client: GatewayClient, queue: Due[]): Promise<void> {
    while (queue.length && this.#canSend()) {
      const next = queue.shift();
      if (!next) return;
      this.#claimed.add(next.id);
      try {
        await this.#sendSingle(client, next);
      } finally {
        this.#claimed.delete(next.id);
      }
    }
  }

  async #bulkLane(client: GatewayClient, queue: Due[]): Promise<void> {
    while (queue.length > this.options.bulkThreshold && this.#canSend()) {
      const head = queue[0];
      if (!head) return;
      if (!isBulkable(head)) {
        // Leave it to a single lane: take the first bulkable group instead.
        const idx = queue.findIndex(isBulkable);
        if (idx < 0) return;
        queue.push(...queue.splice(0, idx));
        continue;
      }
      const batch: Due[] = [];
      for (let i = 0; i < queue.length && batch.length < this.options.bulkSize;) {
        const q = queue[i];
        if (
          q &&
          isBulkable(q) &&
          q.invoice_type === head.invoice_type &&
          q.transaction_type === head.transaction_type
        ) {
          batch.push(q);
          queue.splice(i, 1);
        } else i++;
      }
      if (batch.length < 2) {
        queue.unshift(...batch);
        return;
      }
      for (const b of batch) this.#claimed.add(b.id);
      try {
        const back = await this.#sendBulk(client, batch);
        if (back.length) queue.unshift(...back);
      } finally {
        for (const b of batch) this.#claimed.delete(b.id);
      }
    }
  }

  async #sendSingle(client: GatewayClient, d: Due): Promise<void> {
    const [attemptId] = this.#store.startAttempts([d.id], 'single', this.#now());
    if (attemptId === undefined) return;
    const body = d.request ?? '';
    const opts = { timeoutMs: this.options.requestTimeoutMs };
    const sentAt = this.#now();
    try {
      let receipt: IssuedReceipt;
      let extra: IssuedReceipt[] = [];
      let correlationId: string | undefined;
      switch (d.kind) {
        case 'sale':
        case 'copy': {
          const res = await client.issueSale(d.invoice_type, body, opts);
          receipt = res.receipt;
          correlationId = res.correlationId;
          break;
        }
        case 'refund': {
          const res = await client.issueRefund(d.invoice_type, body, opts);
          receipt = res.receipt;
          correlationId = res.correlationId;
          break;
        }
        case 'refund_full': {
          const ref = d.depends_on ? this.#store.get(d.depends_on)?.invoice_number : undefined;
          const target = ref ?? (JSON.parse(body) as { referentDocumentNumber?: string }).referentDocumentNumber;
          if (!target) throw new Error(`order ${d.order_number}: full refund without a referenced invoice`);
          const res = await client.refundFull(target, body, opts);
          receipt = res.receipt;
          correlationId = res.correlationId;
          break;
        }
        case 'finalize': {
          const res = await client.finalizeAdvance(body, opts);
          receipt = res.finalReceipt;
          extra = [res.refundReceipt];
          correlationId = res.correlationId;
          break;
        }
      }
      this.#succeeded();
      this.#settleIssued(d, receipt, { id: attemptId, correlationId }, extra);
      this.#observeClock(d, receipt.sdcDateTime, sentAt);
    } catch (err) {
      this.#handleFailure(d, err, attemptId);
    }
  }

  /** Sends one bulk request; returns orders to give back to the queue (429: another bulk is running). */
  async #sendBulk(client: GatewayClient, batch: Due[]): Promise<Due[]> {
    const attemptIds = this.#store.startAttempts(
      batch.map((b) => b.id),
      'bulk',
      this.#now(),
    );
    const head = batch[0] as Due;
    try {
      const res = await client.bulk(
        head.invoice_type,
        head.transaction_type,
        batch.map((b) => b.request ?? ''),
        { timeoutMs: this.options.requestTimeoutMs * 3 },
      );
      this.#succeeded();
      const byNumber = new Map(batch.map((b, i) => [b.order_number, { due: b, attemptId: attemptIds[i] as number }]));
      const now = this.#now();
      const settled: { due: Due; state: OrderRow['state'] }[] = [];
      // The whole reply is recorded in one transaction (one fsync), then announced.
      this.#store.transaction(() => {
        for (const el of res.receipts) {
          const parsed = IssuedReceiptSchema.safeParse(el);
          if (!parsed.success) continue;
          const orderNumber = parsed.data.orderNumber;
          const hit = orderNumber ? byNumber.get(orderNumber) : undefined;
          if (!hit) continue;
          byNumber.delete(hit.due.order_number);
          const state = this.#store.markFiscalized(hit.due.id, parsed.data, now, { id: hit.attemptId });
          if (state) settled.push({ due: hit.due, state });
        }
        for (const el of res.failedReceipts) {
          const hit = el.orderNumber ? byNumber.get(el.orderNumber) : undefined;
          if (!hit) continue;
          byNumber.delete(hit.due.order_number);
          const state = this.#handleFailure(hit.due, bulkElementError(el), hit.attemptId, 'send', false);
          if (state) settled.push({ due: hit.due, state });
        }
        // Anything the reply did not account for has an unknown outcome: reconciled by resend/lookup.
        for (const { due, attemptId } of byNumber.values()) {
          this.#store.reschedule(due.id, now + this.#backoff(due.tries), 'unknown', now, attemptId, {
            status: null,
            code: null,
            message: 'not in the bulk reply',
          });
        }
      })();
      for (const s of settled) this.#notify(s.due, s.state);
      return [];
    } catch (err) {
      if (err instanceof GatewayError && err.status === 429) {
        const now = this.#now();
        const wait = backoffMs(POLICIES.gatewayBusy, 1, this.#random);
        for (let i = 0; i < batch.length; i++) {
          const b = batch[i] as Due;
          this.#store.reschedule(b.id, now + wait, 'deferred', now, attemptIds[i], {
            status: 429,
            code: null,
            message: err.message,
            correlationId: err.correlationId,
          });
        }
        return [];
      }
      batch.forEach((b, i) => this.#handleFailure(b, err, attemptIds[i] as number));
      return [];
    }
  }

  /** Resolves stale orders through fiscalization-lookup and the archive; unissued ones are sent afresh. */
  async #reconcile(client: GatewayClient, stale: Due[]): Promise<void> {
    for (let i = 0; i < stale.length && this.#canSend(); i += 100) {
      const chunk = stale.slice(i, i + 100);
      for (const c of chunk) this.#claimed.add(c.id);
      try {
        const attemptIds = this.#store.startAttempts(
          chunk.map((c) => c.id),
          'lookup',
          this.#now(),
        );
        let records;
        try {
          records = await client.fiscalizationLookup(chunk.map((c) => c.order_number));
          this.#succeeded();
        } catch (err) {
          chunk.forEach((c, j) => this.#handleFailure(c, err, attemptIds[j] as number, 'lookup'));
          continue;
        }
        const byNumber = new Map(records.map((r) => [r.orderNumber, r]));
        for (let j = 0; j < chunk.length; j++) {
          const c = chunk[j] as Due;
          const attemptId = attemptIds[j] as number;
          const rec = byNumber.get(c.order_number);
          if (rec?.fiscalized && rec.invoiceNumber) {
            try {
              // A finalize is followed to its final sale (chain.ts); what lookup + archive say is confirmed.
              const found = await resolveLookupHit(client, c, rec.invoiceNumber);
              this.#succeeded();
              this.#settleIssued(c, found.receipt, { id: attemptId, status: 200 }, found.extra, true);
            } catch (err) {
              this.#handleFailure(c, err, attemptId, 'lookup');
            }
          } else if (rec && !rec.fiscalized) {
            // Not issued: sending afresh cannot duplicate. Restart the dedupe clock for it.
            const now = this.#now();
            this.#store.finishAttempt(attemptId, now, 'not_issued', { status: 200 });
            this.#store.restartDedupe(c.id, now);
          } else {
            this.#handleFailure(
              c,
              new GatewayError({ kind: 'malformed', status: 200, message: 'not in the fiscalization-lookup reply' }),
              attemptId,
              'lookup',
            );
          }
        }
      } finally {
        for (const c of chunk) this.#claimed.delete(c.id);
      }
    }
  }

  #settleIssued(
    d: Due,
    receipt: IssuedReceipt,
    attempt: { id: number; correlationId?: string; status?: number },
    extra: IssuedReceipt[] = [],
    confirmed = false,
  ): void {
    // A receipt that names another order is not this order's receipt (a confused proxy or cache):
    // an unreadable reply, so the outcome stays unknown and is reconciled.
    if (receipt.orderNumber !== undefined && receipt.orderNumber !== d.order_number) {
      throw new GatewayError({
        kind: 'malformed',
        message: `Reply carries the receipt of order ${receipt.orderNumber}, not ${d.order_number}`,
      });
    }
    const state = this.#store.markFiscalized(d.id, receipt, this.#now(), attempt, extra, { confirmed });
    if (state) this.#notify(d, state);
  }

  /** The labels of `d`'s items that the Tax Administration refused (2310), handed to `onLabelsRefused`. */
  #learnRefusedLabels(d: Due, err: unknown): void {
    if (!(err instanceof GatewayError) || err.code !== 'ERR_01010' || !this.#deps.onLabelsRefused) return;
    const at = err.refusedLabelItems;
    if (at.length === 0 || d.request === null) return;
    let items: unknown;
    try {
      items = (JSON.parse(d.request) as { items?: unknown }).items;
    } catch {
      return;
    }
    if (!Array.isArray(items)) return;
    const labels = at.flatMap((n) => {
      const item: unknown = items[n];
      const l = item && typeof item === 'object' ? (item as { labels?: unknown }).labels : undefined;
      return Array.isArray(l) ? l.filter((x): x is string => typeof x === 'string') : [];
    });
    if (labels.length > 0) this.#deps.onLabelsRefused(labels);
  }

  /** Records a failure; returns `needs_attention` when it parked the order (announced unless `announce` is false). */
  #handleFailure(
    d: Due,
    err: unknown,
    attemptId: number,
    mode: 'send' | 'lookup' = 'send',
    announce = true,
  ): OrderRow['state'] | null {
    const now = this.#now();
    const view = errorView(err);
    const c = classify(err);
    this.#lastError = view.message;
    // Reconciliation is bounded: after maxLookupTries failed look-ups the order waits for a person.
    if (
      mode === 'lookup' &&
      c.type !== 'blocked' &&
      this.#store.failedLookups(d.id) + 1 >= this.options.maxLookupTries
    ) {
      this.#store.markNeedsAttention(d.id, reconcileLimitView(view, this.options.maxLookupTries), now, attemptId);
      this.#log(
        `order ${d.order_number}: ${this.options.maxLookupTries} look-ups failed; needs attention: ${view.message}`,
      );
      if (announce) this.#notify(d, 'needs_attention');
      return 'needs_attention';
    }
    switch (c.type) {
      case 'retry': {
        if (err instanceof GatewayError && (err.kind === 'network' || err.kind === 'timeout')) this.#wentOffline(err);
        if (mode === 'send' && err instanceof GatewayError && err.neverSent) {
          // Provably nothing reached the gateway: no pin. With a ready L-PFR this same pass signs it there, so the
          // first sale after the internet drops leaves with its fiscal receipt (docs/lpfr.md, "Routing").
          this.#store.gatewayNotSent(d.id, attemptId, now, now, view);
          break;
        }
        // A send whose reply never arrived or was unreadable may have been issued: unknown outcome.
        const unknownOutcome =
          mode === 'send' && (!(err instanceof GatewayError) || err.kind !== 'http' || (err.status ?? 0) >= 500);
        this.#store.reschedule(
          d.id,
          now + this.#backoff(d.tries),
          unknownOutcome ? 'unknown' : 'retry',
          now,
          attemptId,
          view,
        );
        break;
      }
      case 'blocked':
        this.#paused = 'auth';
        this.#store.reschedule(d.id, now, 'blocked', now, attemptId, view);
        this.#emitStatus();
        this.#releaseWaiters();
        break;
      case 'exists':
        // The order number is taken: find its receipt instead of sending again.
        this.#store.reschedule(d.id, now, 'unknown', now, attemptId, view);
        this.#store.lookUpFirst(d.id);
        break;
      case 'rejected':
        if (mode === 'lookup') {
          this.#store.reschedule(d.id, now + this.#backoff(d.tries), 'retry', now, attemptId, view);
        } else {
          this.#store.markNeedsAttention(d.id, view, now, attemptId);
          this.#learnRefusedLabels(d, err);
          if (announce) this.#notify(d, 'needs_attention');
          return 'needs_attention';
        }
        break;
    }
    return null;
  }

  /**
   * The wait before the next send of an order that failed `tries` times before this failure: 100 ms plus
   * full jitter, uniform in [0, min(maxBackoffMs, baseBackoffMs × 2^min(tries, 20))) (policy `gatewaySend`).
   */
  #backoff(tries: number): number {
    return backoffMs(this.#sendBackoff, tries + 1, this.#random);
  }

  async #probe(client: GatewayClient): Promise<boolean> {
    try {
      await client.apiKeyMe({ timeoutMs: 5000 });
      this.#succeeded();
      return true;
    } catch (err) {
      const c = classify(err);
      if (c.type === 'blocked') {
        this.#online = true;
        this.#paused = 'auth';
        this.#lastError = errorView(err).message;
        this.#emitStatus();
        return false;
      }
      this.#probeFailures++;
      this.#nextProbeAt = this.#now() + backoffMs(this.#probeBackoff, this.#probeFailures, this.#random);
      return false;
    }
  }

  /** Online, nothing due now, and no answer from the gateway for `idleProbeMs`. */
  #idleProbeDue(): boolean {
    const every = this.options.idleProbeMs;
    if (every <= 0 || this.#now() - this.#lastContactAt < every) return false;
    return this.#store.due(this.#now(), 1, this.#claimed).length === 0;
  }

  /**
   * The idle check: unreachable or timed out goes offline (the probes then take over), a refused key
   * pauses sending as any other request would; any other answer shows the gateway is there.
   */
  async #idleProbe(client: GatewayClient): Promise<void> {
    this.#lastContactAt = this.#now();
    try {
      await client.apiKeyMe({ timeoutMs: Math.min(5000, this.options.idleProbeMs) });
      this.#succeeded();
    } catch (err) {
      if (err instanceof GatewayError && (err.kind === 'network' || err.kind === 'timeout')) this.#wentOffline(err);
      else if (classify(err).type === 'blocked') {
        this.#paused = 'auth';
        this.#lastError = errorView(err).message;
        this.#emitStatus();
      }
    }
  }

  #wentOffline(err: GatewayError): void {
    if (this.#online) {
      this.#online = false;
      this.#probeFailures = 0;
      this.#nextProbeAt = this.#now() + this.options.probeMinMs;
      this.#log(`gateway unreachable: ${err.message}`);
      this.#emitStatus();
    }
    // With an L-PFR that is ready (or not asked yet), waiting checkouts are signed there in this same pass
    // (#lpfrPass asks it, and releases them when it cannot sign).
    if (this.#lpfrState !== 'ready' && this.#lpfrState !== 'unknown') this.#releaseWaiters();
  }

  /**
   * The L-PFR lane. Orders are signed one at a time (the L-PFR has one secure element); the lane stops at the
   * first failure that concerns the L-PFR itself. Its state is asked when something waits for it, else every
   * `lpfrProbeMs`, so the status bar and the checkout know whether a sale now gets a fiscal receipt.
   *
   * One signature per sale (docs/lpfr.md): an order whose signing has no known outcome is looked up before the
   * L-PFR signs anything else, whatever its due time; while one stays in doubt, nothing else is signed.
   */
  async #lpfrPass(lane: DueLane): Promise<void> {
    const port = this.#deps.lpfr?.() ?? null;
    if (!port) {
      if (this.#lpfrState !== null) this.#setLpfrState(null);
      return;
    }
    const dueNow = (): Due[] => this.#store.due(this.#now(), 500, this.#claimed, lane).filter((d) => port.accepts(d));
    const due = dueNow();
    const doubt = this.#store.lpfrInDoubt(1, this.#claimed).length > 0;
    // Asked again when its last answer is older than lpfrProbeMs, or when it was not ready and work waits.
    // A ready L-PFR is not asked before each sale: a failed signing says at once what changed.
    const fresh = this.#now() - this.#lpfrCheckedAt < this.options.lpfrProbeMs;
    const waiting = due.length > 0 || doubt;
    const ask = !fresh || (waiting && this.#lpfrState !== 'ready');
    if (!ask && !waiting) return;
    if (ask) {
      this.#lpfrCheckedAt = this.#now();
      let state: LpfrState;
      try {
        state = await port.readiness();
      } catch (err) {
        this.#log(`L-PFR state unknown: ${err instanceof Error ? err.message : String(err)}`);
        state = 'unreachable';
      }
      this.#setLpfrState(state);
    }
    if (this.#lpfrState !== 'ready') {
      if (lane === 'lpfr_any') this.#releaseWaiters();
      return;
    }
    // Every order in doubt first, each settled, proven unsigned (and then signed first) or parked for a person.
    for (const d of this.#store.lpfrInDoubt(100, this.#claimed)) {
      if (this.#stopping) return;
      if ((await this.#lpfrOne(port, d, lane)) === 'stop') return;
    }
    // Still in doubt (more than a pass holds): nothing else is signed yet.
    if (doubt && this.#store.lpfrInDoubt(1, this.#claimed).length > 0) return;
    for (const d of doubt ? dueNow() : due) {
      if (this.#stopping) return;
      // The gateway came back while this lane ran: orders not yet pinned go to the gateway.
      if (lane === 'lpfr_any' && this.#online && d.route === null) continue;
      if ((await this.#lpfrOne(port, d, lane)) === 'stop') return;
    }
  }

  /** Looks up (when in doubt) and signs one order; 'stop' when the L-PFR may sign nothing more now. */
  async #lpfrOne(port: LpfrPort, d: Due, lane: DueLane): Promise<'next' | 'stop'> {
    this.#claimed.add(d.id);
    try {
      let go = d.route === 'lpfr' && d.unknown !== 0 ? await this.#lpfrLookUp(port, d) : 'sign';
      if (go === 'sign' && (d.route === 'lpfr' || lane === 'lpfr_any')) go = await this.#lpfrSign(port, d);
      return go === 'stop' ? 'stop' : 'next';
    } finally {
      this.#claimed.delete(d.id);
    }
  }

  /**
   * Signs one order on the L-PFR; 'stop' when the L-PFR can sign nothing more now. The card's counter is read
   * first and kept with the attempt: should the answer be lost, it is what proves a later "not found" (#lpfrLookUp).
   */
  async #lpfrSign(port: LpfrPort, d: Due): Promise<'next' | 'stop'> {
    let before: LpfrSnapshot;
    const askedAt = this.#now();
    try {
      const reading = await port.counter();
      this.#observeLpfrClock(reading.sdcDateTime, askedAt);
      before = { uid: reading.uid, counter: reading.counter };
    } catch (err) {
      const f = lpfrFailure(err);
      this.#setLpfrState(f.state ?? 'error');
      this.#log(`L-PFR counter unreadable, nothing is signed: ${f.message}`);
      return 'stop';
    }
    const [attemptId] = this.#store.startAttempts([d.id], 'lpfr', this.#now(), before);
    if (attemptId === undefined) return 'next';
    try {
      const receipt = await port.sign(d);
      const state = this.#store.markFiscalized(d.id, receipt, this.#now(), { id: attemptId, status: 200 }, [], {
        confirmed: true,
        processor: 'lpfr',
      });
      if (state) this.#notify(d, state);
      return 'next';
    } catch (err) {
      return this.#lpfrFailed(d, err, attemptId, 'sign');
    }
  }

  /**
   * Asks the L-PFR what became of an order whose signing has no known outcome. Found: settled with that invoice.
   * Not found is trusted only when proven: the same card's total counter has not moved since just before the
   * signing, so it signed nothing since, ours included ('sign' lets the lane sign it now, first). A device that
   * remembers only its latest RequestIds (ML: one, OFS: 100) may have signed it and forgotten it when the counter
   * moved (another till, or a request between): then the order is parked for a person with the evidence, never
   * signed again by itself.
   */
  async #lpfrLookUp(port: LpfrPort, d: Due): Promise<'sign' | 'next' | 'stop'> {
    const [attemptId] = this.#store.startAttempts([d.id], 'lpfr_lookup', this.#now());
    if (attemptId === undefined) return 'next';
    try {
      const found = await port.find(d);
      if (found) {
        const state = this.#store.markFiscalized(d.id, found, this.#now(), { id: attemptId, status: 200 }, [], {
          confirmed: true,
          processor: 'lpfr',
        });
        if (state) this.#notify(d, state);
        return 'next';
      }
      // Read after the look-up: an unchanged counter covers the look-up too.
      const after = await port.counter();
      const before = this.#store.lpfrSnapshot(d.id);
      const now = this.#now();
      if (before && before.uid === after.uid && before.counter === after.counter) {
        this.#store.lpfrNotSigned(d.id, attemptId, now, 'not_issued', now);
        const fresh = this.#store.outbox(d.id);
        if (!fresh) return 'next';
        d.route = fresh.route;
        d.unknown = 0;
        return 'sign';
      }
      const view: GatewayErrorView = {
        status: null,
        code: LPFR_UNPROVEN,
        message:
          `L-PFR ${after.uid}: no invoice under RequestId ${d.order_number}; counter before: ` +
          `${before ? `${before.counter} (${before.uid})` : 'not read'}, counter now: ${after.counter}`,
      };
      this.#store.markNeedsAttention(d.id, view, now, attemptId);
      this.#log(`order ${d.order_number}: ${view.message}; parked for a person, never signed again by itself`);
      this.#notify(d, 'needs_attention');
      return 'next';
    } catch (err) {
      return this.#lpfrFailed(d, err, attemptId, 'lookup');
    }
  }

  #lpfrFailed(d: Due, err: unknown, attemptId: number, mode: 'sign' | 'lookup'): 'next' | 'stop' {
    const now = this.#now();
    const f = lpfrFailure(err);
    const view: GatewayErrorView = { status: null, code: `LPFR_${f.code}`, message: f.message };
    if (f.outcome === 'unknown' || mode === 'lookup') {
      // It may be signed (a failed look-up says nothing of the invoice): the order stays with the L-PFR, in doubt,
      // and nothing else is signed there until its look-up answers (never sent to the gateway).
      this.#store.reschedule(d.id, now + this.#backoff(d.tries), 'unknown', now, attemptId, view);
      this.#setLpfrState(f.state ?? 'unreachable');
      this.#log(`order ${d.order_number}: L-PFR outcome unknown: ${f.message}`);
      return 'stop';
    }
    // Not signed: free for either processor again; an order the L-PFR refuses waits before it is offered again.
    this.#store.lpfrNotSigned(d.id, attemptId, now, 'not_signed', f.state ? now : now + this.#backoff(d.tries), view);
    if (f.state) {
      this.#setLpfrState(f.state);
      return 'stop';
    }
    this.#log(`order ${d.order_number}: the L-PFR refused it: ${f.message}`);
    return 'next';
  }

  #setLpfrState(state: LpfrState | null): void {
    if (state === this.#lpfrState) return;
    const was = this.#lpfrState;
    this.#lpfrState = state;
    if (state !== null) this.#log(`L-PFR: ${state}`);
    // Checkouts waiting while the gateway is away get their answer now: nothing signs their order.
    if (was === 'ready' && !this.#online) this.#releaseWaiters();
    this.#emitStatus();
  }

  /** Nobody waits on a gateway that is unreachable or refuses the key: checkouts answer `queued` now. */
  #releaseWaiters(): void {
    for (const set of [...this.#waiters.values()]) for (const w of [...set]) w();
  }

  #succeeded(): void {
    this.#lastContactAt = this.#now();
    this.#lastSuccessAt = new Date(this.#now()).toISOString();
    if (!this.#online) {
      this.#online = true;
      this.#probeFailures = 0;
      this.#log('gateway reachable again');
      this.#emitStatus();
    }
  }

  #notify(d: Due, state: OrderRow['state']): void {
    this.#deps.onOrderUpdated?.({ orderId: d.id, orderNumber: d.order_number, state });
    const waiters = this.#waiters.get(d.id);
    if (waiters) for (const w of [...waiters]) w();
    this.#emitStatus();
  }

  /** Status events are coalesced: at most one per 100 ms, carrying the latest figures. */
  #emitStatus(): void {
    if (!this.#deps.onStatus || this.#statusTimer) return;
    this.#statusTimer = setTimeout(() => {
      this.#statusTimer = null;
      if (this.#stopping) return;
      this.#deps.onStatus?.(this.status());
    }, 100);
    this.#statusTimer.unref?.();
  }

  #log(line: string): void {
    this.#deps.log?.(line);
  }
}

function isBulkable(d: Due): boolean {
  return d.kind === 'sale' || d.kind === 'refund';
}

/**
 * A bulk element that failed, as normalize.ts reads it whatever its wire shape (plain strings included):
 * the gateway's own answer for that order, classified like a single reply with that status.
 */
function bulkElementError(el: BulkFailure): GatewayError {
  return new GatewayError({
    kind: 'http',
    status: el.error.status,
    code: el.error.code,
    message: el.error.message,
    details: el.error.details,
  });
}

/** The failure as stored with the order and shown to a manager. */
export function errorView(err: unknown): GatewayErrorView {
  if (err instanceof GatewayError) {
    const fields = err.validationErrors;
    return {
      status: err.status,
      code: err.code,
      message: err.message,
      ...(err.userMessage ? { userMessage: err.userMessage } : {}),
      ...(err.correlationId ? { correlationId: err.correlationId } : {}),
      ...(err.taxAdministrationReason ? { reason: err.taxAdministrationReason } : {}),
      ...(fields.length ? { fields } : {}),
    };
  }
  return { status: null, code: null, message: err instanceof Error ? err.message : String(err) };
}

/** Any failure of the L-PFR port as an LpfrFailure (an unexpected error: outcome unknown). */
function lpfrFailure(err: unknown): LpfrFailure {
  return err instanceof LpfrFailure
    ? err
    : new LpfrFailure({
        outcome: 'unknown',
        code: 'unknown',
        state: 'error',
        message: err instanceof Error ? err.message : String(err),
      });
}
