/**
 * The SEF outbox (docs/sef.md, "Exactly once"): the one writer of `sef_documents`. Its discipline is the fiscal
 * outbox's (docs/outbox.md), not its code:
 * - a document is one row, made in one statement with its idempotency key (`request_id`); the unique index on the
 *   order makes a second document for one order impossible, whoever asks (a manager twice, the automatic issue,
 *   two windows);
 * - its XML is frozen before the first send and resent byte for byte;
 * - before a request leaves, the row says an attempt is under way (`in_doubt = 1`, committed); a crash or a lost
 *   answer leaves it so, and the next pass **looks the request up** at SEF before anything is sent again; a
 *   resend carries the same `request_id`, which SEF answers with its first result;
 * - once SEF has it, its status is polled until a final state (accepted, rejected, cancelled, storno); a document
 *   SEF's validation refused waits for a manager with SEF's errors, and a retry is a new request (nothing was
 *   made at SEF) under the same document number.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.ts';
import type { OrderStore } from '../orders/store.ts';
import { CommandError, invalidInput } from '../errors.ts';
import { createSyncLoop, type SyncLoop } from '../retry/loop.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import type { OrderView, TaxLabel } from '../../shared/domain.ts';
import type { SefAdvance, SefDocumentKind, SefLine } from '../../shared/sef/ubl.ts';
import {
  SefRefusal,
  sefCheckSeller,
  sefIssueDateOf,
  sefKindOf,
  sefLinesOf,
  sefOrderDocument,
} from '../../shared/sef/order-document.ts';
import type { SefDocumentView, SefOfferView, SefSettingsView, SefState } from '../../shared/contract/sef.ts';
import { SefError, type SefClient, type SefErrorView } from '../../shared/node/sef-client.ts';
import {
  sefDocView,
  sefOutboxDoc,
  sefPollStep,
  sefSendStep,
  type SefDocColumns,
  type SefOutboxWrites,
} from '../../shared/node/sef-outbox.ts';
import { sefFirstRequestId } from '../../shared/node/sef-request-id.ts';

interface DocRow extends SefDocColumns {
  order_id: number;
  sales_invoice_id: number | null;
  in_doubt: number;
  last_error: string | null;
  auto: number;
  created_by: string | null;
}

export { SEF_BACKOFF, SEF_POLL_MS } from '../../shared/node/sef-outbox.ts';

export interface SefDeps {
  db: Db;
  store: OrderStore;
  /** The gateway's tax rates now (a label missing from the receipt's own tax items is looked up here). */
  taxLabels: () => readonly TaxLabel[];
  settings: () => SefSettingsView;
  /** The client, or null when SEF is not set up (no key, no demo SEF). */
  client: () => SefClient | null;
  now: () => number;
  audit: (action: string, detail: Record<string, unknown>) => void;
  log: (line: string) => void;
  random?: () => number;
  /**
   * The shop's store hub sends its e-invoices (the hub's shop setting `sefFromHub`, pulled with the master data):
   * this till makes none of its own then; the ones it made before stay its own (docs/sef.md, "Sending from the hub").
   */
  fromHub?: () => boolean;
}

/** What a final sale's order keeps of its chain (electron/manager/orders.ts). */
interface FinalData {
  advanceOf?: { orderId: number; chain?: number[] };
}

export class SefService {
  readonly #d: SefDeps;
  readonly #loop: SyncLoop;

  constructor(deps: SefDeps) {
    this.#d = deps;
    // Timed after each pass: the pass says when the next document is due (a send's backoff, the next status poll).
    this.#loop = createSyncLoop(() => this.pump(), { afterPass: true });
  }

  /** Runs a pass now (or waits for the one under way, and one more); resolves when it is done. */
  pass(): Promise<void> {
    return this.#loop.sync();
  }

  start(everyMs = 15_000): void {
    this.#loop.start(everyMs, 0);
  }

  kick(): void {
    this.#loop.kick();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  #row(id: number): DocRow | undefined {
    return this.#d.db.prepare<[number], DocRow>('SELECT * FROM sef_documents WHERE id = ?').get(id);
  }

  #byOrder(orderId: number): DocRow | undefined {
    return this.#d.db.prepare<[number], DocRow>('SELECT * FROM sef_documents WHERE order_id = ?').get(orderId);
  }

  #view(r: DocRow): SefDocumentView {
    const order = this.#d.store.get(r.order_id);
    return {
      ...sefDocView(r, r.last_error ? (JSON.parse(r.last_error) as SefErrorView) : null),
      orderId: r.order_id,
      orderNumber: order?.order_number ?? r.number,
      auto: r.auto === 1,
    };
  }

  /** The document kind an order calls for, or the reason it has none. */
  kindOf(order: OrderView): { kind: SefDocumentKind } | { refuse: string } {
    return sefKindOf({ ...order, fiscalized: order.state === 'fiscalized' && order.receipt !== undefined });
  }

  /** Whether an e-invoice may be issued for the order now (it has none, and it calls for one). */
  offers(orderId: number): boolean {
    const row = this.#d.store.get(orderId);
    if (!row || this.#byOrder(orderId) || this.#d.fromHub?.() === true) return false;
    return !('refuse' in this.kindOf(this.#d.store.view(row)));
  }

  /** The order's e-invoice, or null. */
  forOrder(orderId: number): SefDocumentView | null {
    const r = this.#byOrder(orderId);
    return r ? this.#view(r) : null;
  }

  /**
   * Makes the order's e-invoice, once: a second call for the same order returns the first document (the unique
   * index decides, in the same statement). Checks what can be checked offline (buyer, fiscal receipt, labels,
   * the shop's SEF data); the buyer's registration is SEF's to say, at the first send.
   */
  issue(orderId: number, actor: string | null, auto = false): SefDocumentView {
    const row = this.#d.store.get(orderId);
    if (!row) throw new CommandError('not_found', 'order_not_found', { id: orderId }, 'orderId');
    const existing = this.#byOrder(orderId);
    if (existing) return this.#view(existing);
    const order = this.#d.store.view(row);
    const k = this.kindOf(order);
    if ('refuse' in k) throw invalidInput('orderId', k.refuse);
    if (this.#d.fromHub?.() === true) throw new CommandError('conflict', 'sef_from_hub', {}, 'orderId');
    if (this.#d.client() === null) throw new CommandError('unavailable', 'sef_not_set_up');
    // Built once here to refuse bad input before anything is saved; frozen for good at the first send.
    this.#build(order, k.kind, order.buyerId as string, null);
    const at = new Date(this.#d.now()).toISOString();
    const info = this.#d.db
      .prepare(
        `INSERT INTO sef_documents (order_id, kind, number, buyer_id, total_para, request_id, state, due_at, auto,
           created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)
         ON CONFLICT(order_id) DO NOTHING`,
      )
      .run(
        orderId,
        k.kind,
        order.orderNumber,
        order.buyerId as string,
        Math.abs(order.totalPara),
        // The document's own first id: the store hub derives the same one (docs/sef.md, "Sending from the hub").
        sefFirstRequestId(this.#d.settings().seller.pib, k.kind, order.orderNumber),
        this.#d.now(),
        auto ? 1 : 0,
        actor,
        at,
        at,
      );
    const made = this.#byOrder(orderId) as DocRow;
    if (info.changes === 1) {
      this.#d.audit('sef.issue', { orderNumber: order.orderNumber, kind: k.kind, buyerId: order.buyerId, auto });
      this.kick();
    }
    return this.#view(made);
  }

  /** The automatic issue after a fiscalization (the shop's setting): silent when the order needs none. */
  onFiscalized(orderId: number): void {
    if (!this.#d.settings().autoIssue || this.#d.client() === null || this.#d.fromHub?.() === true) return;
    const row = this.#d.store.get(orderId);
    if (!row || this.#byOrder(orderId)) return;
    if ('refuse' in this.kindOf(this.#d.store.view(row))) return;
    try {
      this.issue(orderId, null, true);
    } catch (err) {
      this.#d.log(`sef: automatic e-invoice of order ${row.order_number} not made: ${String(err)}`);
    }
  }

  /** The last sales of `10:`/`12:` buyers that could have an e-invoice and have none (newest first). */
  offersList(limit = 50): SefOfferView[] {
    if (this.#d.fromHub?.() === true) return [];
    const rows = this.#d.db
      .prepare<[number], { id: number }>(
        `SELECT o.id FROM orders o
          WHERE o.state = 'fiscalized'
            AND (json_extract(o.data, '$.buyerId') LIKE '10:%' OR json_extract(o.data, '$.buyerId') LIKE '12:%')
            AND NOT EXISTS (SELECT 1 FROM sef_documents d WHERE d.order_id = o.id)
          ORDER BY o.id DESC LIMIT ?`,
      )
      .all(limit);
    const out: SefOfferView[] = [];
    for (const { id } of rows) {
      const row = this.#d.store.get(id);
      if (!row) continue;
      const view = this.#d.store.view(row);
      if ('refuse' in this.kindOf(view)) continue;
      out.push({
        orderId: id,
        orderNumber: view.orderNumber,
        buyerId: view.buyerId ?? '',
        totalPara: Math.abs(view.totalPara),
        createdAt: view.createdAt,
      });
    }
    return out;
  }

  list(limit = 200): SefDocumentView[] {
    return this.#d.db
      .prepare<[number], DocRow>('SELECT * FROM sef_documents ORDER BY id DESC LIMIT ?')
      .all(limit)
      .map((r) => this.#view(r));
  }

  get(id: number): SefDocumentView {
    const r = this.#row(id);
    if (!r) throw new CommandError('not_found', 'sef_document_not_found', { id }, 'id');
    return this.#view(r);
  }

  /**
   * A document SEF refused goes again: rebuilt (the manager may have mapped a label or fixed the shop's data) under
   * a NEW request id (SEF made nothing for the refused one) and the same number. A queued document is only
   * made due now. Anything else is SEF's already and is refused.
   */
  retry(id: number): SefDocumentView {
    const r = this.#row(id);
    if (!r) throw new CommandError('not_found', 'sef_document_not_found', { id }, 'id');
    const at = new Date(this.#d.now()).toISOString();
    if (r.state === 'refused') {
      this.#d.db
        .prepare(
          `UPDATE sef_documents SET state = 'queued', xml = NULL, request_id = ?, in_doubt = 0, due_at = ?,
             updated_at = ? WHERE id = ? AND state = 'refused'`,
        )
        .run(randomUUID(), this.#d.now(), at, id);
      this.#d.audit('sef.retry', { number: r.number });
    } else if (r.state === 'queued') {
      this.#d.db.prepare('UPDATE sef_documents SET due_at = ? WHERE id = ?').run(this.#d.now(), id);
    } else {
      throw new CommandError('conflict', 'sef_not_retryable', {}, 'id');
    }
    this.kick();
    return this.#view(this.#row(id) as DocRow);
  }

  /** Cancels a sent document the buyer has not acted on, or stornoes an accepted one (SEF's rules). */
  async cancel(id: number, comment: string): Promise<SefDocumentView> {
    const r = this.#row(id);
    if (!r) throw new CommandError('not_found', 'sef_document_not_found', { id }, 'id');
    const client = this.#d.client();
    if (!client) throw new CommandError('unavailable', 'sef_not_set_up');
    if (r.invoice_id === null || (r.state !== 'sent' && r.state !== 'accepted')) {
      throw new CommandError('conflict', 'sef_not_cancellable', {}, 'id');
    }
    try {
      if (r.state === 'sent') await client.cancel(r.invoice_id, comment);
      else await client.storno(r.invoice_id, r.number, comment);
    } catch (e) {
      if (e instanceof SefError && e.kind === 'refused') {
        throw new CommandError('conflict', 'sef_refused', { reason: e.message }, 'comment');
      }
      throw new CommandError('unavailable', 'sef_unreachable');
    }
    const state: SefState = r.state === 'sent' ? 'cancelled' : 'storno';
    this.#set(id, { state, sef_comment: comment });
    this.#d.audit(state === 'cancelled' ? 'sef.cancel' : 'sef.storno', { number: r.number, comment });
    return this.#view(this.#row(id) as DocRow);
  }

  /**
   * Writes a document's fields while it is still in the state `from` (when given): an answer that comes back after
   * another pass settled the document (a till restarted while a request hung) changes nothing.
   */
  #set(id: number, fields: Partial<Omit<DocRow, 'id'>>, from?: SefState): void {
    const keys = Object.keys(fields);
    const sets = [...keys.map((k) => `${k} = ?`), 'updated_at = ?'].join(', ');
    const values = keys.map((k) => (fields as Record<string, unknown>)[k] as string | number | null);
    const at = new Date(this.#d.now()).toISOString();
    if (from === undefined) this.#d.db.prepare(`UPDATE sef_documents SET ${sets} WHERE id = ?`).run(...values, at, id);
    else this.#d.db.prepare(`UPDATE sef_documents SET ${sets} WHERE id = ? AND state = ?`).run(...values, at, id, from);
  }

  /** The e-invoice of the sale a refund refers to: by the order it waited on, else by the receipt it names. */
  #originalOf(order: OrderView): DocRow | undefined {
    if (order.referencedOrderId !== undefined) return this.#byOrder(order.referencedOrderId);
    if (!order.referentDocumentNumber) return undefined;
    const source = this.#d.db
      .prepare<[string], { id: number }>('SELECT id FROM orders WHERE invoice_number = ? ORDER BY id LIMIT 1')
      .get(order.referentDocumentNumber);
    return source ? this.#byOrder(source.id) : undefined;
  }

  /** The order's lines as SEF lines (shared/sef/order-document.ts); a CommandError at a label not mapped. */
  #lines(order: OrderView): SefLine[] {
    return refusedAsInput(() =>
      sefLinesOf(order.lines, order.receipt?.taxItems ?? [], this.#d.taxLabels(), this.#d.settings().labelCategories),
    );
  }

  /**
   * A final sale's advance invoices (docs/sef.md, "The final invoice of an advance chain"): every advance of its
   * chain must have its e-invoice sent (or accepted) by SEF, each deducted with its own lines; else refused at the
   * order, naming the advance.
   */
  #advancesOf(order: OrderView): SefAdvance[] | undefined {
    if (order.kind !== 'finalize') return undefined;
    const row = this.#d.store.get(order.orderId);
    const of = row ? (JSON.parse(row.data) as FinalData).advanceOf : undefined;
    const head = of ? this.#d.store.get(of.orderId) : undefined;
    if (!of || !head) throw invalidInput('orderId', 'sef_not_issuable');
    const chain = of.chain
      ? of.chain.flatMap((id) => this.#d.store.get(id) ?? [])
      : this.#d.store.queries.chainOf(head);
    return chain.map((a) => {
      const doc = this.#byOrder(a.id);
      if (!doc || doc.kind !== 'advance' || !['sent', 'accepted'].includes(doc.state))
        throw invalidInput('orderId', 'sef_advance_not_sent', { number: a.order_number });
      return {
        number: doc.number,
        issueDate: sefIssueDateOf(doc),
        lines: this.#lines(this.#d.store.view(a)),
      };
    });
  }

  /** The document's XML; throws a CommandError naming what is missing. */
  #build(order: OrderView, kind: SefDocumentKind, buyerId: string, buyerName: string | null): string {
    refusedAsInput(() => sefCheckSeller(this.#d.settings().seller));
    const receipt = order.receipt;
    if (!receipt) throw invalidInput('orderId', 'sef_not_fiscalized');
    const lines = this.#lines(order);
    let corrects: { number: string; issueDate: string } | undefined;
    if (kind === 'credit_note') {
      const original = this.#originalOf(order);
      if (!original || !['sent', 'accepted'].includes(original.state)) {
        throw invalidInput('orderId', 'sef_no_original');
      }
      corrects = { number: original.number, issueDate: dayIn(new Date(original.created_at)) };
    }
    const advances = this.#advancesOf(order);
    return refusedAsInput(() =>
      sefOrderDocument({
        kind,
        number: order.orderNumber,
        issueDate: dayIn(new Date(this.#d.now())),
        seller: this.#d.settings().seller,
        buyerId,
        buyerName,
        lines,
        fiscalReceipt: { invoiceNumber: receipt.invoiceNumber, issueDate: dayIn(new Date(receipt.sdcDateTime)) },
        corrects,
        advances,
      }),
    );
  }

  /** One pass: every due document sent, looked up or polled (shared/node/sef-outbox.ts). Never throws. */
  async pump(): Promise<{ nextInMs: number } | 'idle'> {
    const client = this.#d.client();
    if (!client) return 'idle';
    const due = this.#d.db
      .prepare<[number], DocRow>(
        `SELECT * FROM sef_documents WHERE state IN ('queued', 'sent') AND due_at <= ? ORDER BY due_at LIMIT 20`,
      )
      .all(this.#d.now());
    const options = {
      now: this.#d.now,
      sendToCir: this.#d.settings().sendToCir,
      ...(this.#d.random ? { random: this.#d.random } : {}),
    };
    for (const r of due) {
      try {
        const doc = sefOutboxDoc(r);
        if (r.state === 'queued') await sefSendStep(client, doc, this.#writes, options);
        else await sefPollStep(client, doc, this.#writes, options);
      } catch (err) {
        this.#d.log(`sef: document ${r.number}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const next = this.#d.db
      .prepare<[], { at: number | null }>(
        `SELECT MIN(due_at) AS at FROM sef_documents WHERE state IN ('queued', 'sent')`,
      )
      .get()?.at;
    return next === null || next === undefined ? 'idle' : { nextInMs: Math.max(0, next - this.#d.now()) };
  }

  /** The till's writes of the shared steps: SQLite, each naming the state it expects. */
  readonly #writes: SefOutboxWrites = {
    freeze: async (doc, buyerName) => {
      const order = this.#d.store.get(this.#row(doc.id)?.order_id ?? 0);
      if (!order) return { later: { status: null, code: null, message: 'order_not_found' } };
      try {
        const xml = this.#build(
          this.#d.store.view(order),
          this.#row(doc.id)?.kind ?? 'invoice',
          doc.buyerId,
          buyerName,
        );
        this.#d.db
          .prepare(`UPDATE sef_documents SET xml = ?, buyer_name = ? WHERE id = ? AND xml IS NULL`)
          .run(xml, buyerName, doc.id);
      } catch (e) {
        if (e instanceof CommandError)
          return { refuse: { status: null, code: `KASA_${e.key.toUpperCase()}`, message: e.key } };
        throw e;
      }
      // Another pass may have frozen it first: its bytes are the ones sent, always.
      return { xml: (this.#row(doc.id) as DocRow).xml as string };
    },
    attempt: async (doc) => {
      this.#d.db
        .prepare(
          `UPDATE sef_documents SET attempts = attempts + 1, in_doubt = 1, updated_at = ? WHERE id = ? AND state = 'queued'`,
        )
        .run(new Date(this.#d.now()).toISOString(), doc.id);
    },
    sent: async (doc, reply, pollAt) => {
      const fields = {
        state: 'sent' as const,
        in_doubt: 0,
        invoice_id: reply.invoiceId,
        last_error: null,
        due_at: pollAt,
      };
      this.#set(doc.id, { ...fields, sales_invoice_id: reply.salesInvoiceId }, 'queued');
    },
    refused: async (doc, error) => {
      this.#set(doc.id, { state: 'refused', in_doubt: 0, last_error: JSON.stringify(error) }, 'queued');
      this.#d.audit('sef.refused', { number: doc.number, code: error.code, message: error.message });
    },
    failed: async (doc, error, dueAt) => {
      this.#set(doc.id, { due_at: dueAt, last_error: JSON.stringify(error) }, doc.state);
    },
    final: async (doc, state, comment) => {
      this.#set(doc.id, { state, sef_comment: comment, last_error: null }, 'sent');
      this.#d.audit('sef.final', { number: doc.number, state });
    },
    pollLater: async (doc, dueAt) => {
      this.#set(doc.id, { due_at: dueAt }, 'sent');
    },
  };
}

/** Runs a shared build; its refusal becomes the till's invalid input at the same field. */
function refusedAsInput<T>(build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (e instanceof SefRefusal) throw invalidInput(e.field, e.key, e.params);
    throw e;
  }
}
