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
import { backoffMs } from '../retry/policy.ts';
import { createSyncLoop, type SyncLoop } from '../retry/loop.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { splitBuyerId } from '../../shared/buyer-id.ts';
import type { OrderView, TaxLabel } from '../../shared/domain.ts';
import { buildSefDocument, type SefAdvance, type SefDocumentKind, type SefLine } from '../../shared/sef/ubl.ts';
import { sefCategoryFor } from '../../shared/sef/tax.ts';
import type { SefDocumentView, SefOfferView, SefSettingsView, SefState } from '../../shared/contract/sef.ts';
import { SefError, type SefClient, type SefErrorView } from './client.ts';

interface DocRow {
  id: number;
  order_id: number;
  kind: SefDocumentKind;
  number: string;
  buyer_id: string;
  buyer_name: string | null;
  total_para: number;
  request_id: string;
  xml: string | null;
  state: SefState;
  sef_comment: string | null;
  invoice_id: number | null;
  sales_invoice_id: number | null;
  attempts: number;
  in_doubt: number;
  due_at: number;
  last_error: string | null;
  auto: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** The backoff of a document whose send or poll failed (its attempts count the doublings). */
export const SEF_BACKOFF = { baseMs: 5_000, capMs: 15 * 60_000, jitter: 'full', floorMs: 1_000 } as const;
/** How often a sent document's status is asked, until its final state. */
export const SEF_POLL_MS = 60_000;

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
}

const ISSUABLE_BUYERS = ['10', '12'];

/** What a final sale's order keeps of its chain (electron/manager/orders.ts). */
interface FinalData {
  advanceOf?: { orderId: number; chain?: number[] };
}

/** The issue date a sent document carries (its XML is frozen at the first send), else the day it was made. */
function issueDateOf(doc: { xml: string | null; created_at: string }): string {
  return (
    /<cbc:IssueDate>(\d{4}-\d{2}-\d{2})<\/cbc:IssueDate>/.exec(doc.xml ?? '')?.[1] ?? dayIn(new Date(doc.created_at))
  );
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
      id: r.id,
      orderId: r.order_id,
      orderNumber: order?.order_number ?? r.number,
      kind: r.kind,
      number: r.number,
      buyerId: r.buyer_id,
      ...(r.buyer_name ? { buyerName: r.buyer_name } : {}),
      totalPara: r.total_para,
      state: r.state,
      ...(r.sef_comment ? { sefComment: r.sef_comment } : {}),
      ...(r.invoice_id !== null ? { sefInvoiceId: r.invoice_id } : {}),
      attempts: r.attempts,
      inDoubt: r.in_doubt === 1,
      ...(r.last_error ? { lastError: JSON.parse(r.last_error) as SefErrorView } : {}),
      auto: r.auto === 1,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  /** The document kind an order calls for, or the reason it has none. */
  kindOf(order: OrderView): { kind: SefDocumentKind } | { refuse: string } {
    const buyer = order.buyerId ? splitBuyerId(order.buyerId) : null;
    if (!buyer || !ISSUABLE_BUYERS.includes(buyer.code)) return { refuse: 'sef_not_business_buyer' };
    if (order.invoiceType === 'training' || order.invoiceType === 'copy' || order.invoiceType === 'proforma') {
      return { refuse: 'sef_not_issuable' };
    }
    if (order.state !== 'fiscalized' || !order.receipt) return { refuse: 'sef_not_fiscalized' };
    if (order.transactionType === 'refund') return { kind: 'credit_note' };
    if (order.invoiceType === 'advance') return { kind: 'advance' };
    return { kind: 'invoice' };
  }

  /** Whether an e-invoice may be issued for the order now (it has none, and it calls for one). */
  offers(orderId: number): boolean {
    const row = this.#d.store.get(orderId);
    if (!row || this.#byOrder(orderId)) return false;
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
        randomUUID(),
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
    if (!this.#d.settings().autoIssue || this.#d.client() === null) return;
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

  /** The labels and rates for an order: the receipt's own tax items first (the gateway's rates as applied). */
  #labels(order: OrderView): TaxLabel[] {
    const fromReceipt: TaxLabel[] = (order.receipt?.taxItems ?? []).map((t) => ({
      label: t.label,
      rate: t.rate,
      categoryName: t.categoryName,
      categoryType: 0,
    }));
    const known = new Set(fromReceipt.map((l) => l.label));
    return [...fromReceipt, ...this.#d.taxLabels().filter((l) => !known.has(l.label))];
  }

  /** The order's lines as SEF lines; throws a CommandError at a label not mapped to a SEF category. */
  #lines(order: OrderView): SefLine[] {
    const s = this.#d.settings();
    const labels = this.#labels(order);
    const lines: SefLine[] = [];
    for (const l of order.lines) {
      const label = l.labels[0];
      if (label === undefined || l.labels.length > 1) {
        throw invalidInput('labelCategories', 'sef_label_unmapped', { label: l.labels.join(', ') });
      }
      const cat = sefCategoryFor(label, labels, s.labelCategories);
      if (!cat.ok) throw invalidInput('labelCategories', 'sef_label_unmapped', { label });
      const quantityMilli = Math.abs(l.quantityMilli);
      const totalPara = Math.abs(l.totalPara);
      if (quantityMilli === 0 || totalPara === 0) continue;
      lines.push({ name: l.name, quantityMilli, totalPara, category: cat.category });
    }
    return lines;
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
        issueDate: issueDateOf(doc),
        lines: this.#lines(this.#d.store.view(a)),
      };
    });
  }

  /** The document's XML; throws a CommandError naming what is missing. */
  #build(order: OrderView, kind: SefDocumentKind, buyerId: string, buyerName: string | null): string {
    const s = this.#d.settings();
    const seller = s.seller;
    if (!seller.pib || !seller.name) throw invalidInput('seller.pib', 'sef_no_seller');
    const receipt = order.receipt;
    if (!receipt) throw invalidInput('orderId', 'sef_not_fiscalized');
    const lines = this.#lines(order);
    const buyer = splitBuyerId(buyerId);
    if (!buyer) throw invalidInput('orderId', 'sef_not_business_buyer');
    const [pib, jbkjs] = buyer.id.split(':') as [string, string | undefined];
    let corrects: { number: string; issueDate: string } | undefined;
    if (kind === 'credit_note') {
      const original = this.#originalOf(order);
      if (!original || !['sent', 'accepted'].includes(original.state)) {
        throw invalidInput('orderId', 'sef_no_original');
      }
      corrects = { number: original.number, issueDate: dayIn(new Date(original.created_at)) };
    }
    return buildSefDocument({
      kind,
      number: order.orderNumber,
      issueDate: dayIn(new Date(this.#d.now())),
      vatPoint: '35',
      seller,
      buyer: { pib, jbkjs, name: buyerName ?? pib },
      lines,
      fiscalReceipt: { invoiceNumber: receipt.invoiceNumber, issueDate: dayIn(new Date(receipt.sdcDateTime)) },
      corrects,
      advances: this.#advancesOf(order),
    });
  }

  /** One pass: every due document sent, looked up or polled. Never throws. */
  async pump(): Promise<{ nextInMs: number } | 'idle'> {
    const client = this.#d.client();
    if (!client) return 'idle';
    const due = this.#d.db
      .prepare<[number], DocRow>(
        `SELECT * FROM sef_documents WHERE state IN ('queued', 'sent') AND due_at <= ? ORDER BY due_at LIMIT 20`,
      )
      .all(this.#d.now());
    for (const r of due) {
      try {
        if (r.state === 'queued') await this.#send(client, r);
        else await this.#poll(client, r);
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

  #failed(r: DocRow, e: SefError): void {
    const wait = backoffMs(SEF_BACKOFF, Math.max(1, r.attempts), this.#d.random ?? Math.random);
    this.#set(r.id, { due_at: this.#d.now() + wait, last_error: JSON.stringify(e.view()) }, r.state);
  }

  #refused(r: DocRow, error: SefErrorView): void {
    this.#set(r.id, { state: 'refused', in_doubt: 0, last_error: JSON.stringify(error) }, 'queued');
    this.#d.audit('sef.refused', { number: r.number, code: error.code, message: error.message });
  }

  #accepted(r: DocRow, invoiceId: number, salesInvoiceId: number | null | undefined): void {
    this.#set(
      r.id,
      {
        state: 'sent',
        in_doubt: 0,
        invoice_id: invoiceId,
        sales_invoice_id: salesInvoiceId ?? null,
        last_error: null,
        due_at: this.#d.now() + SEF_POLL_MS,
      },
      'queued',
    );
  }

  async #send(client: SefClient, r: DocRow): Promise<void> {
    let xml = r.xml;
    if (xml === null) {
      // Frozen once: the buyer's name from SEF's register, then the document built for good.
      const order = this.#d.store.get(r.order_id);
      if (!order) return;
      const pib = (splitBuyerId(r.buyer_id)?.id ?? '').split(':')[0] ?? '';
      let company;
      try {
        company = await client.company(pib);
      } catch (e) {
        if (e instanceof SefError) return this.#failed(r, e);
        throw e;
      }
      if (!company) {
        return this.#refused(r, { status: null, code: 'KASA_BUYER_NOT_ON_SEF', message: pib });
      }
      try {
        xml = this.#build(this.#d.store.view(order), r.kind, r.buyer_id, company.Name);
      } catch (e) {
        if (e instanceof CommandError) {
          return this.#refused(r, { status: null, code: `KASA_${e.key.toUpperCase()}`, message: e.key });
        }
        throw e;
      }
      this.#d.db
        .prepare(`UPDATE sef_documents SET xml = ?, buyer_name = ? WHERE id = ? AND xml IS NULL`)
        .run(xml, company.Name, r.id);
      // Another pass may have frozen it first: its bytes are the ones sent, always.
      xml = (this.#row(r.id) as DocRow).xml as string;
    }
    if (r.in_doubt === 1) {
      // The last attempt's answer never came: ask before anything leaves again.
      try {
        const found = await client.lookup(r.request_id);
        if (found) return this.#accepted(r, found.InvoiceId, found.SalesInvoiceId);
      } catch (e) {
        if (e instanceof SefError) return this.#failed(r, e);
        throw e;
      }
    }
    this.#d.db
      .prepare(
        `UPDATE sef_documents SET attempts = attempts + 1, in_doubt = 1, updated_at = ? WHERE id = ? AND state = 'queued'`,
      )
      .run(new Date(this.#d.now()).toISOString(), r.id);
    const attempted = { ...r, attempts: r.attempts + 1 };
    try {
      const reply = await client.send(xml, r.request_id, this.#d.settings().sendToCir);
      this.#accepted(attempted, reply.InvoiceId, reply.SalesInvoiceId);
    } catch (e) {
      if (!(e instanceof SefError)) throw e;
      if (e.kind === 'refused') return this.#refused(attempted, e.view());
      this.#failed(attempted, e);
    }
  }

  async #poll(client: SefClient, r: DocRow): Promise<void> {
    if (r.invoice_id === null) return;
    let status;
    try {
      status = await client.status(r.invoice_id);
    } catch (e) {
      if (e instanceof SefError) return this.#failed(r, e);
      throw e;
    }
    const final: Partial<Record<string, SefState>> = {
      Approved: 'accepted',
      Rejected: 'rejected',
      Cancelled: 'cancelled',
      Storno: 'storno',
      Mistake: 'refused',
    };
    const state = final[status.Status];
    if (state) {
      this.#set(r.id, { state, sef_comment: status.Comment ?? null, last_error: null }, 'sent');
      this.#d.audit('sef.final', { number: r.number, state });
    } else {
      this.#set(r.id, { due_at: this.#d.now() + SEF_POLL_MS }, 'sent');
    }
  }
}
