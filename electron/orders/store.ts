/**
 * The order store: orders, their frozen requests, the outbox and the attempt journal. Every state change
 * of an order happens here, each in one transaction. It is the repository of every order: its database
 * handle is private, and what the back office reads of the history is `queries` (queries.ts).
 */
import type Database from 'better-sqlite3';
import type { Db } from '../db/open.ts';
import type { IssuedReceipt } from '../gateway/types.ts';
import type {
  GatewayErrorView,
  InvoiceType,
  OrderKind,
  OrderLine,
  OrderPayment,
  OrderState,
  OrderView,
  ReceiptView,
  TransactionType,
} from '../../shared/domain.ts';
import { isLpfrInvoiceNumber, type Processor } from '../../shared/domain.ts';
import { toPara } from '../../shared/money.ts';
import { RECEIPT_MISMATCH, checkReceipt, type Mismatch } from '../outbox/verify.ts';
import { failedLookups, parkedByReconcileLimit, parkedUnproven } from '../outbox/reconcile-budget.ts';
import { nextOrderNumber } from './order-number.ts';
import { taxGroupChange } from './tax-group.ts';
import { Settings } from '../settings/settings.ts';
import { OrderQueries } from './queries.ts';
import { truthyFields } from '../../shared/fields.ts';

/**
 * What an order carries besides its columns (JSON in `orders.data`): the view's lines, payments, buyer, e-mail,
 * cashier and IPS reference (`RO`, sales/ips.ts), and what only the till keeps.
 */
export interface OrderData extends Pick<
  OrderView,
  'lines' | 'payments' | 'buyerId' | 'email' | 'cashier' | 'ipsReference'
> {
  /** The tax-rate group in force at capture (sales/receipt-stamp.ts). */
  taxGroup?: { groupId: number; validFrom: string };
  /** For orders waiting on another: the request body without the referenced document's fields. */
  template?: Record<string, unknown>;
  /** Fiscalized, but the receipt's items/payments/metaFields differ from what was sent: for a manager. */
  receiptCheck?: ReceiptCheckNote;
}

/** A "differs — check" note (verify.ts): the receipt is this order's, some of its details are not as sent. */
export interface ReceiptCheckNote {
  invoiceNumber: string;
  at: string;
  fields: Mismatch[];
}

/** Settings key of the orders with a `receiptCheck` note, newest last (a short list; no scan of history). */
export const RECEIPT_CHECKS_KEY = 'receiptChecks';
const RECEIPT_CHECKS_KEPT = 500;

export interface OrderRow {
  id: number;
  order_number: string;
  kind: OrderKind;
  invoice_type: InvoiceType;
  transaction_type: TransactionType;
  state: OrderState;
  created_at: string;
  total_para: number;
  change_para: number;
  data: string;
  request: string | null;
  depends_on: number | null;
  invoice_number: string | null;
  sdc_date_time: string | null;
  receipt: string | null;
  extra_receipts: string | null;
  last_error: string | null;
  fiscalized_at: string | null;
  /** Which processor signed it (null until fiscalized). */
  processor: Processor | null;
}

/**
 * One attempt's kind: `single`/`bulk` send to the gateway, `lookup` asks the gateway what became of an order,
 * `lpfr` signs at the L-PFR, `lpfr_lookup` asks the L-PFR by RequestId.
 */
export type AttemptMode = 'single' | 'bulk' | 'lookup' | 'lpfr' | 'lpfr_lookup';

/** Whose queue `due` reads: the gateway's, the orders pinned to the L-PFR, or every order the L-PFR may sign. */
export type DueLane = 'gateway' | 'lpfr_pinned' | 'lpfr_any';

const LANE_FILTER: Record<DueLane, string> = {
  gateway: `(b.route IS NULL OR b.route = 'gateway')`,
  lpfr_pinned: `b.route = 'lpfr'`,
  lpfr_any: `(b.route IS NULL OR b.route = 'lpfr')`,
};

/** The L-PFR's card and its total counter, read just before a signing left (migration 023). */
export interface LpfrSnapshot {
  uid: string;
  counter: number;
}

export interface OutboxRow {
  order_id: number;
  due_at: number;
  tries: number;
  first_attempt_at: number | null;
  unknown: number;
  /** The one processor the order may go to from now on; null: either (migration 019). */
  route: Processor | null;
}

/** How many rows past the asked page a list or search counts at most, so its cost never grows with history. */
export const COUNT_CAP = 1_000;

/** The rows of `selectOne` (a `SELECT 1 FROM … WHERE …`) counted, reading at most `COUNT_CAP` past `offset`. */
export function countUpTo(db: Db, selectOne: string, args: readonly unknown[], offset: number): number {
  return (
    db
      .prepare<unknown[], { n: number }>(`SELECT count(*) AS n FROM (${selectOne} LIMIT ?)`)
      .get(...args, offset + COUNT_CAP)?.n ?? 0
  );
}

export interface NewOrder {
  orderNumber: string;
  kind: OrderKind;
  invoiceType: InvoiceType;
  transactionType: TransactionType;
  createdAt: string;
  totalPara: number;
  changePara: number;
  data: OrderData;
  /** The frozen body, or null when it waits for `dependsOn` to be fiscalized. */
  request: string | null;
  dependsOn?: number;
}

/** What decides whether an order refers to an earlier receipt (and so may have to follow its processor). */
interface RouteFields {
  kind: OrderKind;
  invoiceType: InvoiceType;
  dependsOn: number | null;
  request: string | null;
}

/** A refund, a copy or an advance's refund refers to a receipt; a plain sale and a finalize do not. */
function referencesReceipt(o: Pick<RouteFields, 'kind' | 'invoiceType'>): boolean {
  return !((o.kind === 'sale' && o.invoiceType !== 'copy') || o.kind === 'finalize');
}

/** A settled order as the goods ledger reads it (goods/ledger.ts recordFiscalized). */
export interface FiscalizedOrder {
  id: number;
  invoiceType: string;
  transactionType: string;
  lines: readonly OrderLine[];
  payments: readonly OrderPayment[];
  totalPara: number;
  invoiceNumber: string;
  /** The fiscal document's time (sdcDateTime): its day is the KEP's day of the turnover. */
  issuedAt: string;
}

/** Runs in the transaction that settles an order: what it writes is settled with it, and a throw undoes both. */
export type OnFiscalized = (db: Db, order: FiscalizedOrder) => unknown;

export class OrderStore {
  readonly #db: Db;
  readonly #stmts;
  /** `capture`'s transaction, wrapped once (not per sale: a sale's commit is on the cashier's critical path). */
  readonly #captureTx;
  /** The back office's reads of the history (archive, advances, refunds), over the same handle. */
  readonly queries: OrderQueries;
  /**
   * The settings, through their owner: the store keeps its list of receipt checks there, and the sync
   * engine, which holds only the store, reads its clock-drift limit and language from it.
   */
  readonly settings: Settings;

  /** What else moves in the transaction that settles an order (the goods ledger, goods/ledger.ts). */
  readonly #onFiscalized: OnFiscalized | undefined;

  /**
   * `hooks.onFiscalized` runs inside `markFiscalized`'s transaction for every order it settles: the core passes the
   * goods ledger's `recordFiscalized`, so the orders do not import the goods.
   */
  constructor(db: Db, hooks: { onFiscalized?: OnFiscalized } = {}) {
    this.#db = db;
    this.#onFiscalized = hooks.onFiscalized;
    this.queries = new OrderQueries(db);
    this.settings = new Settings(db);
    this.#captureTx = this.#makeCaptureTx();
    this.#stmts = {
      insertOrder: db.prepare(
        `INSERT INTO orders (order_number, kind, invoice_type, transaction_type, state, created_at, total_para,
           change_para, data, request, depends_on)
         VALUES (@orderNumber, @kind, @invoiceType, @transactionType, 'queued', @createdAt, @totalPara,
           @changePara, @data, @request, @dependsOn)`,
      ),
      insertOutbox: db.prepare('INSERT INTO outbox (order_id, due_at) VALUES (?, ?)'),
      get: db.prepare<[number], OrderRow>('SELECT * FROM orders WHERE id = ?'),
      getByNumber: db.prepare<[string], OrderRow>('SELECT * FROM orders WHERE order_number = ?'),
      outbox: db.prepare<[number], OutboxRow>('SELECT * FROM outbox WHERE order_id = ?'),
      attempts: db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM attempts WHERE order_id = ?'),
      startAttempt: db.prepare(
        'INSERT INTO attempts (order_id, mode, started_at, lpfr_uid, lpfr_counter) VALUES (?, ?, ?, ?, ?)',
      ),
      firstAttempt: db.prepare(
        'UPDATE outbox SET first_attempt_at = coalesce(first_attempt_at, ?), tries = tries + 1 WHERE order_id = ?',
      ),
      finishAttempt: db.prepare(
        `UPDATE attempts SET finished_at = @at, outcome = @outcome, http_status = @status, code = @code,
           correlation_id = @correlationId, message = @message WHERE id = @id`,
      ),
      fiscalize: db.prepare(
        `UPDATE orders SET state = 'fiscalized', invoice_number = @invoiceNumber, sdc_date_time = @sdc,
           receipt = @receipt, extra_receipts = @extra, fiscalized_at = @at, last_error = NULL, processor = @processor
         WHERE id = @id AND state = @from`,
      ),
      deleteOutbox: db.prepare('DELETE FROM outbox WHERE order_id = ?'),
      park: db.prepare(`UPDATE orders SET state = 'needs_attention', last_error = ? WHERE id = ? AND state = 'queued'`),
      reschedule: db.prepare('UPDATE outbox SET due_at = ?, unknown = ? WHERE order_id = ?'),
      pinRoute: db.prepare('UPDATE outbox SET route = ? WHERE order_id = ?'),
      lpfrAttempt: db.prepare('UPDATE outbox SET tries = tries + 1 WHERE order_id = ?'),
      setError: db.prepare('UPDATE orders SET last_error = ? WHERE id = ?'),
      routeHistory: db.prepare<[number], { gateway: number; lpfr: number }>(
        `SELECT count(*) FILTER (WHERE mode IN ('single', 'bulk') AND outcome IS NOT 'not_sent') AS gateway,
                count(*) FILTER (WHERE mode = 'lpfr' AND (outcome IS NULL OR outcome = 'unknown')) AS lpfr
           FROM attempts WHERE order_id = ?`,
      ),
      processorOfInvoice: db.prepare<[string], { processor: Processor | null }>(
        'SELECT processor FROM orders WHERE invoice_number = ?',
      ),
    };
  }

  /**
   * Inserts the order and its outbox row in ONE transaction (durable when this returns: WAL with
   * synchronous=FULL). `beforeInsert` runs inside the same transaction (e.g. to take the order number).
   */
  capture(build: () => NewOrder, dueAt: number): { orderId: number; orderNumber: string } {
    return this.#captureTx.immediate(build, dueAt);
  }

  #makeCaptureTx() {
    return this.#db.transaction((build: () => NewOrder, dueAt: number) => {
      const o = build();
      const info = this.#stmts.insertOrder.run({
        orderNumber: o.orderNumber,
        kind: o.kind,
        invoiceType: o.invoiceType,
        transactionType: o.transactionType,
        createdAt: o.createdAt,
        totalPara: o.totalPara,
        changePara: o.changePara,
        data: JSON.stringify(o.data),
        request: o.request,
        dependsOn: o.dependsOn ?? null,
      });
      const orderId = Number(info.lastInsertRowid);
      this.#stmts.insertOutbox.run(orderId, dueAt);
      // A new order has no attempts: only a refund or copy of an L-PFR receipt is pinned (a plain sale, the
      // hot path, reads nothing more).
      if (referencesReceipt(o)) this.#routeByReference(orderId, o);
      return { orderId, orderNumber: o.orderNumber };
    });
  }

  /**
   * The next order number of this till (order-number.ts keeps the sequence). Called inside
   * `capture`'s `build`, so the number is taken in the order's own transaction.
   */
  nextOrderNumber(terminalId: string, now: number): string {
    return nextOrderNumber(this.#db, terminalId, now);
  }

  /** Wraps `fn` in one transaction of the orders' database (several settlements, one fsync). */
  transaction<F extends (...args: never[]) => unknown>(fn: F): Database.Transaction<F> {
    return this.#db.transaction(fn);
  }

  get(orderId: number): OrderRow | undefined {
    return this.#stmts.get.get(orderId);
  }

  getByNumber(orderNumber: string): OrderRow | undefined {
    return this.#stmts.getByNumber.get(orderNumber);
  }

  outbox(orderId: number): OutboxRow | undefined {
    return this.#stmts.outbox.get(orderId);
  }

  /** Journals the start of attempts (before the request leaves); returns attempt ids in order. */
  startAttempts(orderIds: readonly number[], mode: AttemptMode, at: number, lpfr?: LpfrSnapshot): number[] {
    return this.#db.transaction(() =>
      orderIds.map((id) => {
        // From here on the order may be signed at this processor: it is pinned to it (migration 019) in the
        // same transaction, so a crash never leaves an attempt whose processor the order could leave.
        if (mode === 'single' || mode === 'bulk') {
          this.#stmts.firstAttempt.run(at, id);
          this.#stmts.pinRoute.run('gateway', id);
        } else if (mode === 'lpfr') {
          this.#stmts.lpfrAttempt.run(id);
          this.#stmts.pinRoute.run('lpfr', id);
        }
        return Number(
          this.#stmts.startAttempt.run(id, mode, at, lpfr?.uid ?? null, lpfr?.counter ?? null).lastInsertRowid,
        );
      }),
    )();
  }

  /**
   * The L-PFR answered that it did not sign the order (a definite refusal: card out, PIN, a label it does not
   * have), or its own look-up found no invoice for the order's RequestId. Nothing of this order exists at the
   * L-PFR, so the order is free for either processor again, unless it refunds or copies an L-PFR receipt.
   */
  lpfrNotSigned(
    orderId: number,
    attemptId: number,
    at: number,
    outcome: 'not_signed' | 'not_issued',
    dueAt: number,
    error?: GatewayErrorView,
  ): void {
    this.#db.transaction(() => {
      this.finishAttempt(attemptId, at, outcome, { code: error?.code, message: error?.message });
      // The L-PFR's own look-up says it never signed the order: its earlier attempts' outcome is known now.
      if (outcome === 'not_issued')
        this.#db
          .prepare(
            "UPDATE attempts SET outcome = 'not_issued' WHERE order_id = ? AND mode = 'lpfr' AND outcome = 'unknown'",
          )
          .run(orderId);
      this.#db
        .prepare('UPDATE outbox SET route = NULL, unknown = 0, due_at = ? WHERE order_id = ?')
        .run(dueAt, orderId);
      this.#routeByReference(orderId);
      if (error) this.#stmts.setError.run(JSON.stringify(error), orderId);
    })();
  }

  /**
   * A gateway send that provably sent nothing (the connection was never made: refused, no such host, no route,
   * a connect timeout). It cannot have been issued, so it pins nothing: the order is free for either processor
   * again (a sale made as the internet drops is signed on the L-PFR at once), unless an earlier gateway attempt
   * may have reached the gateway. The dedupe clock starts at the first attempt that may have reached it.
   */
  gatewayNotSent(orderId: number, attemptId: number, at: number, dueAt: number, error: GatewayErrorView): void {
    this.#db.transaction(() => {
      this.finishAttempt(attemptId, at, 'not_sent', { code: error.code, message: error.message });
      this.#db
        .prepare(
          `UPDATE outbox SET route = NULL, due_at = ?, first_attempt_at = (SELECT min(started_at) FROM attempts
             WHERE order_id = ? AND mode IN ('single', 'bulk') AND outcome IS NOT 'not_sent') WHERE order_id = ?`,
        )
        .run(dueAt, orderId, orderId);
      this.#routeByReference(orderId);
      this.#stmts.setError.run(JSON.stringify(error), orderId);
    })();
  }

  /**
   * Orders pinned to the L-PFR whose signing has no known outcome, whatever their due time: each is looked up
   * before the L-PFR signs anything else (docs/lpfr.md, "One signature per sale"). Oldest attempt first.
   */
  lpfrInDoubt(limit: number, exclude: ReadonlySet<number>): (OrderRow & OutboxRow)[] {
    return this.#db
      .prepare<[number], OrderRow & OutboxRow>(
        `SELECT o.*, b.due_at, b.tries, b.first_attempt_at, b.unknown, b.route FROM outbox b
           JOIN orders o ON o.id = b.order_id
          WHERE b.route = 'lpfr' AND b.unknown <> 0 AND o.request IS NOT NULL ORDER BY b.order_id LIMIT ?`,
      )
      .all(limit + exclude.size)
      .filter((r) => !exclude.has(r.id))
      .slice(0, limit);
  }

  /**
   * The L-PFR's counter as it was just before the order's latest signing whose outcome is unknown, or null when
   * that attempt has none (then a look-up's "not found" proves nothing).
   */
  lpfrSnapshot(orderId: number): LpfrSnapshot | null {
    const row = this.#db
      .prepare<[number], { lpfr_uid: string | null; lpfr_counter: number | null }>(
        `SELECT lpfr_uid, lpfr_counter FROM attempts WHERE order_id = ? AND mode = 'lpfr'
            AND (outcome IS NULL OR outcome = 'unknown') ORDER BY id DESC LIMIT 1`,
      )
      .get(orderId);
    if (!row || row.lpfr_uid === null || row.lpfr_counter === null) return null;
    return { uid: row.lpfr_uid, counter: row.lpfr_counter };
  }

  /**
   * A refund or copy of an L-PFR receipt is signed on the L-PFR too (docs/lpfr.md, "Routing"): the gateway knows
   * only the receipts it signed. The original is this till's order (by dependency or invoice number), else its
   * number tells (isLpfrInvoiceNumber: a receipt of another till, found through the hub).
   */
  #routeByReference(orderId: number, fresh?: NewOrder): void {
    if (!fresh) {
      // An order once sent to the gateway stays with it (its look-up decides what became of it); one whose
      // L-PFR attempt has no known outcome stays with the L-PFR until its look-up by RequestId answers.
      const history = this.#stmts.routeHistory.get(orderId);
      if (history && history.gateway > 0) return void this.#stmts.pinRoute.run('gateway', orderId);
      if (history && history.lpfr > 0) return void this.#stmts.pinRoute.run('lpfr', orderId);
    }
    const row = fresh
      ? { kind: fresh.kind, invoiceType: fresh.invoiceType, dependsOn: fresh.dependsOn ?? null, request: fresh.request }
      : this.#routeFields(orderId);
    if (!row || !referencesReceipt(row)) return;
    let processor: Processor | null = null;
    if (row.dependsOn !== null) processor = this.get(row.dependsOn)?.processor ?? null;
    else if (row.request) {
      const ref = (JSON.parse(row.request) as { referentDocumentNumber?: unknown }).referentDocumentNumber;
      if (typeof ref === 'string' && ref) {
        const original = this.#stmts.processorOfInvoice.get(ref);
        processor = original?.processor ?? (isLpfrInvoiceNumber(ref) ? 'lpfr' : null);
      }
    }
    if (processor === 'lpfr') this.#stmts.pinRoute.run('lpfr', orderId);
  }

  #routeFields(orderId: number): RouteFields | null {
    const row = this.get(orderId);
    if (!row) return null;
    return { kind: row.kind, invoiceType: row.invoice_type, dependsOn: row.depends_on, request: row.request };
  }

  finishAttempt(
    attemptId: number,
    at: number,
    outcome: string,
    info: { status?: number | null; code?: string | null; correlationId?: string; message?: string } = {},
  ): void {
    this.#stmts.finishAttempt.run({
      id: attemptId,
      at,
      outcome,
      status: info.status ?? null,
      code: info.code ?? null,
      correlationId: info.correlationId ?? null,
      message: info.message ?? null,
    });
  }

  /**
   * Stores the receipt and settles the order (outbox row removed), in one transaction with the
   * attempt's outcome — but only if the receipt is this order's by identity (`checkReceipt`: order
   * number, types, referenced document, |total|). Item, payment or metaField differences settle it all
   * the same, with a "differs — check" note for a manager (`data.receiptCheck`).
   *
   * A receipt of another identity never settles the order. Returned by a send (`confirmed` false), the
   * order is looked up once more through fiscalization-lookup and the archive (due now, outcome unknown)
   * before anyone is told its number is taken; returned by that look-up (`confirmed`), or a second time,
   * it parks the order in needs_attention (its number is taken at the gateway by another sale, so only a
   * person may re-issue it under a new one). Returns the order's new state, or null if it is still queued
   * (to be looked up) or was no longer in the state settled from (`from`, default `queued`).
   */
  markFiscalized(
    orderId: number,
    receipt: IssuedReceipt,
    at: number,
    attempt?: { id: number; correlationId?: string; status?: number },
    extra: IssuedReceipt[] = [],
    opts: { confirmed?: boolean; from?: 'queued' | 'needs_attention'; processor?: Processor } = {},
  ): 'fiscalized' | 'needs_attention' | null {
    const from = opts.from ?? 'queued';
    return this.#db.transaction(() => {
      const row = this.get(orderId);
      if (!row || row.state !== from) {
        if (attempt)
          this.finishAttempt(attempt.id, at, 'issued', {
            status: attempt.status ?? 201,
            correlationId: attempt.correlationId,
          });
        this.#stmts.deleteOutbox.run(orderId);
        return null;
      }
      const check = checkReceipt(row, receipt, extra);
      const mismatches = check.identity;
      if (mismatches.length > 0 && from === 'needs_attention') return null;
      if (mismatches.length > 0) {
        const error: GatewayErrorView = {
          status: attempt?.status ?? 200,
          code: RECEIPT_MISMATCH,
          message:
            `The gateway returned receipt ${receipt.invoiceNumber} for order ${row.order_number}, but it is another sale's: ` +
            mismatches.map((m) => `${m.field} ${m.got} (this order: ${m.expected})`).join('; '),
          fields: mismatches.map((m) => ({ field: m.field, message: `${m.got} ≠ ${m.expected}` })),
          ...(attempt?.correlationId ? { correlationId: attempt.correlationId } : {}),
        };
        const confirmed = opts.confirmed === true || this.#mismatchesBefore(orderId) > 0;
        if (attempt)
          this.finishAttempt(attempt.id, at, 'mismatch', {
            status: error.status,
            code: RECEIPT_MISMATCH,
            correlationId: attempt.correlationId,
            message: error.message,
          });
        if (!confirmed) {
          // Not yet confirmed by lookup + archive: looked up before anyone is offered a new number.
          this.#db
            .prepare('UPDATE outbox SET first_attempt_at = 0, unknown = 1, due_at = ? WHERE order_id = ?')
            .run(at, orderId);
          this.#stmts.setError.run(JSON.stringify(error), orderId);
          return null;
        }
        this.#stmts.park.run(
          JSON.stringify({
            ...error,
            receipt: { invoiceNumber: receipt.invoiceNumber, totalAmount: receipt.totalAmount },
          }),
          orderId,
        );
        this.#stmts.deleteOutbox.run(orderId);
        return 'needs_attention';
      }
      if (attempt)
        this.finishAttempt(attempt.id, at, 'issued', {
          status: attempt.status ?? 201,
          correlationId: attempt.correlationId,
        });
      const changed = this.#stmts.fiscalize.run({
        id: orderId,
        from,
        invoiceNumber: receipt.invoiceNumber,
        sdc: receipt.sdcDateTime,
        receipt: JSON.stringify(receipt),
        extra: extra.length ? JSON.stringify(extra) : null,
        at: new Date(at).toISOString(),
        processor: opts.processor ?? 'gateway',
      }).changes;
      this.#stmts.deleteOutbox.run(orderId);
      if (changed && check.notes.length > 0)
        this.#noteCheck(row, {
          invoiceNumber: receipt.invoiceNumber,
          at: new Date(at).toISOString(),
          fields: check.notes,
        });
      if (changed) this.#fillDependents(orderId, receipt);
      if (changed) {
        // The goods it sold or took back move now, in this transaction: exactly once (docs/goods.md).
        const data = JSON.parse(row.data) as Partial<OrderData>;
        this.#onFiscalized?.(this.#db, {
          id: orderId,
          invoiceType: row.invoice_type,
          transactionType: row.transaction_type,
          lines: data.lines ?? [],
          payments: data.payments ?? [],
          totalPara: row.total_para,
          invoiceNumber: receipt.invoiceNumber,
          issuedAt: receipt.sdcDateTime || new Date(at).toISOString(),
        });
      }
      return changed > 0 ? 'fiscalized' : null;
    })();
  }

  /** Receipt mismatches recorded for the order's attempts so far. */
  #mismatchesBefore(orderId: number): number {
    return (
      this.#db
        .prepare<[number], { n: number }>(
          "SELECT count(*) AS n FROM attempts WHERE order_id = ? AND outcome = 'mismatch'",
        )
        .get(orderId)?.n ?? 0
    );
  }

  /** Keeps a "differs — check" note with the order and lists the order for a manager. */
  #noteCheck(row: OrderRow, note: ReceiptCheckNote): void {
    const data = JSON.parse(row.data) as OrderData;
    data.receiptCheck = note;
    this.#db.prepare('UPDATE orders SET data = ? WHERE id = ?').run(JSON.stringify(data), row.id);
    const ids = this.#receiptCheckIds().filter((id) => id !== row.id);
    ids.push(row.id);
    this.settings.set(RECEIPT_CHECKS_KEY, JSON.stringify(ids.slice(-RECEIPT_CHECKS_KEPT)));
  }

  #receiptCheckIds(): number[] {
    const raw = this.settings.get(RECEIPT_CHECKS_KEY);
    try {
      const ids = raw ? (JSON.parse(raw) as unknown) : [];
      return Array.isArray(ids) ? ids.filter((n): n is number => Number.isInteger(n)) : [];
    } catch {
      return [];
    }
  }

  /** Fiscalized orders whose receipt differs from what was sent in its details, newest first. */
  receiptChecks(limit: number): OrderRow[] {
    return this.#receiptCheckIds()
      .reverse()
      .slice(0, limit)
      .map((id) => this.get(id))
      .filter((r): r is OrderRow => r !== undefined);
  }

  /** Parks the order in needs_attention with the gateway's complaint; the outbox row goes. */
  markNeedsAttention(orderId: number, error: GatewayErrorView, at: number, attemptId?: number): void {
    this.#db.transaction(() => {
      if (attemptId !== undefined)
        this.finishAttempt(attemptId, at, 'rejected', {
          status: error.status,
          code: error.code,
          correlationId: error.correlationId,
          message: error.message,
        });
      this.#stmts.park.run(JSON.stringify(error), orderId);
      this.#stmts.deleteOutbox.run(orderId);
    })();
  }

  /** Schedules the order again (retry or unknown outcome) and records why. */
  reschedule(
    orderId: number,
    dueAt: number,
    outcome: 'retry' | 'unknown' | 'blocked' | 'deferred',
    at: number,
    attemptId?: number,
    error?: GatewayErrorView,
  ): void {
    this.#db.transaction(() => {
      if (attemptId !== undefined)
        this.finishAttempt(attemptId, at, outcome, {
          status: error?.status,
          code: error?.code,
          correlationId: error?.correlationId,
          message: error?.message,
        });
      const current = this.outbox(orderId);
      const unknown = outcome === 'unknown' ? 1 : outcome === 'retry' && current ? current.unknown : 0;
      this.#stmts.reschedule.run(dueAt, unknown, orderId);
      if (error) this.#stmts.setError.run(JSON.stringify(error), orderId);
    })();
  }

  /** Re-queues an order from needs_attention, optionally with a new frozen body (same order number). */
  requeue(orderId: number, request: string | null, data: OrderData | null, dueAt: number): void {
    this.#db.transaction(() => {
      const row = this.get(orderId);
      if (!row || row.state !== 'needs_attention') return;
      this.#db
        .prepare(
          `UPDATE orders SET state = 'queued', request = coalesce(?, request), data = coalesce(?, data) WHERE id = ?`,
        )
        .run(request, data ? JSON.stringify(data) : null, orderId);
      this.#db
        .prepare(
          'INSERT INTO outbox (order_id, due_at) VALUES (?, ?) ON CONFLICT(order_id) DO UPDATE SET due_at = excluded.due_at',
        )
        .run(orderId, dueAt);
      // Parked with an unknown outcome (look-up budget spent): looked up again first, never resent blindly.
      if (parkedByReconcileLimit(row.last_error))
        this.#db.prepare('UPDATE outbox SET first_attempt_at = 0 WHERE order_id = ?').run(orderId);
      // Parked because the L-PFR could not prove it never signed it: looked up there again, never signed blindly.
      if (parkedUnproven(row.last_error))
        this.#db.prepare("UPDATE outbox SET unknown = 1, route = 'lpfr' WHERE order_id = ?").run(orderId);
      this.#routeByReference(orderId);
    })();
  }

  /**
   * A manager looked in the L-PFR's journal for an order parked unproven (LPFR_UNPROVEN) and found no invoice
   * of it: the person's word is the proof the device could not give. Its L-PFR attempts in doubt are
   * `not_issued`, and it is queued free for either processor (unless it refunds or copies an L-PFR receipt).
   * False when the order is not parked unproven.
   */
  lpfrConfirmNotSigned(orderId: number, dueAt: number): boolean {
    return this.#db.transaction(() => {
      const row = this.get(orderId);
      if (!row || row.state !== 'needs_attention' || !parkedUnproven(row.last_error)) return false;
      this.#db
        .prepare(
          `UPDATE attempts SET outcome = 'not_issued' WHERE order_id = ? AND mode = 'lpfr'
             AND (outcome IS NULL OR outcome = 'unknown')`,
        )
        .run(orderId);
      this.#db.prepare(`UPDATE orders SET state = 'queued', last_error = NULL WHERE id = ?`).run(orderId);
      this.#db
        .prepare(
          `INSERT INTO outbox (order_id, due_at) VALUES (?, ?)
             ON CONFLICT(order_id) DO UPDATE SET due_at = excluded.due_at, unknown = 0, route = NULL`,
        )
        .run(orderId, dueAt);
      this.#routeByReference(orderId);
      return true;
    })();
  }

  /** A person asked to sync now: every waiting order is due now, its backoff forgotten. */
  dueAllNow(now: number): void {
    this.#db.prepare('UPDATE outbox SET due_at = ? WHERE due_at > ?').run(now, now);
  }

  /** Fiscalization-lookup says the order was never issued: sending afresh cannot duplicate it. */
  restartDedupe(orderId: number, dueAt: number): void {
    this.#db
      .prepare('UPDATE outbox SET first_attempt_at = NULL, unknown = 0, due_at = ? WHERE order_id = ?')
      .run(dueAt, orderId);
  }

  /** The order number is taken at the gateway: the order is looked up before it is ever sent again. */
  lookUpFirst(orderId: number): void {
    this.#db.prepare('UPDATE outbox SET first_attempt_at = 0 WHERE order_id = ?').run(orderId);
  }

  /** Failed look-ups of the order since it was last parked (outbox/reconcile-budget.ts). */
  failedLookups(orderId: number): number {
    return failedLookups(this.#db, orderId);
  }

  /**
   * Re-queues an order from needs_attention with its tax labels replaced (`replace`: old label to new) in
   * its frozen body and its lines, under the same order number.
   */
  relabel(orderId: number, replace: Readonly<Record<string, string>>, dueAt: number): void {
    const row = this.get(orderId);
    if (!row) return;
    const body = JSON.parse(row.request ?? '{}') as { items?: { labels: string[] }[] };
    for (const item of body.items ?? []) item.labels = item.labels.map((l) => replace[l] ?? l);
    const data = JSON.parse(row.data) as OrderData;
    for (const line of data.lines) line.labels = line.labels.map((l) => replace[l] ?? l);
    this.requeue(orderId, JSON.stringify(body), data, dueAt);
  }

  /**
   * Gives an order parked for a receipt mismatch a NEW order number (its old one is taken at the gateway
   * by another sale) and queues it again, in one transaction: the frozen body gets the new number, the old
   * one is kept in `data.previousOrderNumbers`. Returns both numbers, or null if the order is not parked
   * for a mismatch.
   */
  reissue(orderId: number, newNumber: () => string, dueAt: number): { from: string; to: string } | null {
    return this.#db.transaction(() => {
      const row = this.get(orderId);
      if (!row || row.state !== 'needs_attention') return null;
      const error = row.last_error ? (JSON.parse(row.last_error) as { code?: string }) : null;
      if (error?.code !== RECEIPT_MISMATCH) return null;
      const to = newNumber();
      const data = JSON.parse(row.data) as OrderData & { previousOrderNumbers?: string[] };
      data.previousOrderNumbers = [...(data.previousOrderNumbers ?? []), row.order_number];
      if (data.template) data.template = { ...data.template, orderNumber: to };
      const request = row.request
        ? JSON.stringify({ ...(JSON.parse(row.request) as Record<string, unknown>), orderNumber: to })
        : null;
      this.#db
        .prepare(
          `UPDATE orders SET order_number = ?, request = ?, data = ?, state = 'queued', last_error = NULL WHERE id = ?`,
        )
        .run(to, request, JSON.stringify(data), orderId);
      this.#db
        .prepare(
          'INSERT INTO outbox (order_id, due_at) VALUES (?, ?) ON CONFLICT(order_id) DO UPDATE SET due_at = excluded.due_at, tries = 0, first_attempt_at = NULL, unknown = 0',
        )
        .run(orderId, dueAt);
      this.#routeByReference(orderId);
      return { from: row.order_number, to };
    })();
  }

  /**
   * Freezes the bodies of orders that waited for `orderId`: the referenced document's number and date
   * are taken from its receipt, once, and never change afterwards.
   */
  #fillDependents(orderId: number, receipt: IssuedReceipt): void {
    const waiting = this.#db
      .prepare<[number], OrderRow>("SELECT * FROM orders WHERE depends_on = ? AND request IS NULL AND state = 'queued'")
      .all(orderId);
    for (const dep of waiting) {
      const data = JSON.parse(dep.data) as OrderData;
      const body: Record<string, unknown> = { ...(data.template ?? {}) };
      if (dep.kind !== 'refund_full') {
        body['referentDocumentNumber'] = receipt.invoiceNumber;
        body['referentDocumentDt'] = receipt.sdcDateTime;
      }
      this.#db.prepare('UPDATE orders SET request = ? WHERE id = ?').run(JSON.stringify(body), dep.id);
      this.#routeByReference(dep.id);
    }
  }

  /** Orders whose outbox row is due, oldest first; only those with a frozen body. */
  due(now: number, limit: number, exclude: ReadonlySet<number>, lane: DueLane = 'gateway'): (OrderRow & OutboxRow)[] {
    const route = LANE_FILTER[lane];
    const rows = this.#db
      .prepare<[number, number], OrderRow & OutboxRow>(
        `SELECT o.*, b.due_at, b.tries, b.first_attempt_at, b.unknown, b.route FROM outbox b JOIN orders o ON o.id = b.order_id
         WHERE b.due_at <= ? AND o.request IS NOT NULL AND ${route} ORDER BY b.due_at, b.order_id LIMIT ?`,
      )
      .all(now, limit + exclude.size);
    return rows.filter((r) => !exclude.has(r.id)).slice(0, limit);
  }

  /** The earliest due time among sendable outbox rows, or null. */
  nextDue(lane?: DueLane): number | null {
    const route = lane === undefined ? '' : `AND ${LANE_FILTER[lane]}`;
    const row = this.#db
      .prepare<[], { t: number | null }>(
        `SELECT min(b.due_at) AS t FROM outbox b JOIN orders o ON o.id = b.order_id WHERE o.request IS NOT NULL ${route}`,
      )
      .get();
    return row?.t ?? null;
  }

  /** Attempts that started and never finished (the process died): their outcome is UNKNOWN. */
  recoverOpenAttempts(at: number): number {
    return this.#db.transaction(() => {
      const open = this.#db
        .prepare<[], { id: number; order_id: number }>('SELECT id, order_id FROM attempts WHERE finished_at IS NULL')
        .all();
      for (const a of open) {
        this.finishAttempt(a.id, at, 'unknown', { message: 'no outcome recorded (process stopped)' });
        this.#db
          .prepare('UPDATE outbox SET unknown = 1, due_at = min(due_at, ?) WHERE order_id = ?')
          .run(at, a.order_id);
      }
      return open.length;
    })();
  }

  counts(): { queued: number; needsAttention: number; oldestQueuedAt: string | null } {
    const r = this.#db
      .prepare<[], { queued: number; na: number; oldest: string | null }>(
        `SELECT (SELECT count(*) FROM outbox) AS queued,
                (SELECT count(*) FROM orders WHERE state = 'needs_attention') AS na,
                (SELECT min(created_at) FROM orders WHERE state = 'queued') AS oldest`,
      )
      .get();
    return { queued: r?.queued ?? 0, needsAttention: r?.na ?? 0, oldestQueuedAt: r?.oldest ?? null };
  }

  attemptCount(orderId: number): number {
    return this.#stmts.attempts.get(orderId)?.n ?? 0;
  }

  /**
   * Orders newest first (by state on `orders_state`, else the primary key). The total is counted up to
   * `COUNT_CAP` rows past the page asked for: counting all orders of a 3-year till read the whole of an
   * index (138 ms with a cold cache at 300,000 orders, growing with history) to show a recent list.
   */
  list(state: OrderState | undefined, limit: number, offset: number): { rows: OrderRow[]; total: number } {
    const where = state ? 'WHERE state = ?' : '';
    const args = state ? [state] : [];
    const rows = this.#db
      .prepare<unknown[], OrderRow>(`SELECT * FROM orders ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...args, limit, offset);
    const total = countUpTo(this.#db, `SELECT 1 FROM orders ${where}`, args, offset);
    return { rows, total };
  }

  /** The order as the contract shows it. */
  view(row: OrderRow): OrderView {
    const data = JSON.parse(row.data) as OrderData;
    const outbox = this.outbox(row.id);
    const receipt = row.receipt ? toReceiptView(JSON.parse(row.receipt) as IssuedReceipt) : undefined;
    const extra = row.extra_receipts
      ? (JSON.parse(row.extra_receipts) as IssuedReceipt[]).map(toReceiptView)
      : undefined;
    let referentDocumentNumber: string | undefined;
    if (row.request) {
      const body = JSON.parse(row.request) as Record<string, unknown>;
      if (typeof body['referentDocumentNumber'] === 'string') referentDocumentNumber = body['referentDocumentNumber'];
    }
    return {
      orderId: row.id,
      orderNumber: row.order_number,
      kind: row.kind,
      invoiceType: row.invoice_type,
      transactionType: row.transaction_type,
      state: row.state,
      createdAt: row.created_at,
      totalPara: row.total_para,
      changePara: row.change_para,
      lines: data.lines,
      payments: data.payments,
      ...truthyFields(data, ['buyerId', 'email', 'cashier', 'ipsReference']),
      ...(row.depends_on ? { referencedOrderId: row.depends_on } : {}),
      ...(referentDocumentNumber ? { referentDocumentNumber } : {}),
      ...(receipt ? { receipt } : {}),
      ...(row.processor ? { processor: row.processor } : {}),
      ...(extra ? { extraReceipts: extra } : {}),
      ...(row.last_error ? { lastError: JSON.parse(row.last_error) as GatewayErrorView } : {}),
      ...(data.receiptCheck ? { receiptCheck: data.receiptCheck } : {}),
      attempts: this.attemptCount(row.id),
      unknown: (outbox?.unknown ?? 0) === 1,
      ...taxGroupChange(data, row.receipt),
    };
  }
}

/** The stored gateway receipt as the UI shows it (money in para). */
export function toReceiptView(r: IssuedReceipt): ReceiptView {
  return {
    invoiceNumber: r.invoiceNumber,
    invoiceCounter: r.invoiceCounter ?? '',
    invoiceCounterExtension: r.invoiceCounterExtension ?? '',
    invoiceType: r.invoiceType ?? '',
    transactionType: r.transactionType ?? '',
    sdcDateTime: r.sdcDateTime,
    verificationUrl: r.verificationUrl ?? '',
    invoicePdfUrl: r.invoicePdfUrl ?? '',
    totalPara: toPara(r.totalAmount ?? 0) ?? Math.round((r.totalAmount ?? 0) * 100),
    journal: r.journal ?? '',
    taxItems: (r.taxItems ?? []).map((t) => ({
      label: t.label,
      rate: t.rate,
      amountPara: toPara(t.amount) ?? Math.round(t.amount * 100),
      categoryName: t.categoryName ?? '',
    })),
    businessName: r.businessName ?? '',
    locationName: r.locationName ?? '',
  };
}
