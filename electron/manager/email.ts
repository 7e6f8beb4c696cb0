/**
 * E-mailing receipts (`POST /receipt/send-email`) through a small persistent queue (table email_outbox):
 * a request is stored first, then sent; while offline, or while its order is not fiscalized yet, it
 * stays queued and is retried (every pump: on a timer, after a fiscalization, on send). A rejection (bad
 * address, unknown invoice) marks it failed with the gateway's complaint. Other failures are backed off and
 * bounded once, by the retry budget (retry/budget.ts, policy `email`): the e-mail is due again when its
 * budget says, and when the budget is spent it is failed too, shows in the manager's attention list with
 * the gateway's last words, and `retries.resume` queues it again.
 */
import type { EmailView } from '../../shared/contract/emails.ts';
import type { EventMessage } from '../../shared/contract/index.ts';
import type { GatewayErrorView } from '../../shared/domain.ts';
import type { Db } from '../db/open.ts';
import type { GatewayClient } from '../gateway/client.ts';
import { classify } from '../gateway/errors.ts';
import { errorView } from '../outbox/engine.ts';
import type { OrderStore } from '../orders/store.ts';
import { CommandError } from '../errors.ts';
import type { RetryBudgets } from '../retry/budget.ts';
import { createSyncLoop, type SyncLoop } from '../retry/loop.ts';

interface EmailRow {
  id: number;
  order_id: number | null;
  invoice_number: string | null;
  email: string;
  cc: string | null;
  bcc: string | null;
  state: 'queued' | 'sent' | 'failed';
  tries: number;
  due_at: number;
  last_error: string | null;
}

export interface EmailDeps {
  db: Db;
  store: OrderStore;
  client: () => GatewayClient;
  now: () => number;
  onUpdated?: (view: EmailView) => void;
  /** Bounds the retries of each e-mail (loop `email`). */
  budgets: RetryBudgets;
  /** False while the sync engine knows the gateway is unreachable: no tries then, so no budget is spent. */
  online: () => boolean;
}

export class EmailQueue {
  readonly #d: EmailDeps;
  #pumping: Promise<void> | null = null;
  readonly #loop: SyncLoop;

  constructor(deps: EmailDeps) {
    this.#d = deps;
    this.#loop = createSyncLoop(() => this.pump());
  }

  /** Retries queued e-mails every `everyMs` (unref'd timer), the first time after `everyMs`. */
  start(everyMs = 30_000): void {
    this.#loop.start(everyMs, everyMs);
  }

  stop(): void {
    void this.#loop.stop();
  }

  /** Stores the request, then tries to send it now. Returns its state after that try. */
  async send(input: {
    orderId?: number | undefined;
    invoiceNumber?: string | undefined;
    email: string;
    cc?: string[] | undefined;
    bcc?: string[] | undefined;
  }): Promise<EmailView> {
    let invoice = input.invoiceNumber ?? null;
    if (input.orderId !== undefined) {
      const row = this.#d.store.get(input.orderId);
      if (!row) throw new CommandError('not_found', 'order_not_found', { id: input.orderId });
      invoice = row.invoice_number;
    }
    const now = this.#d.now();
    const id = Number(
      this.#d.db
        .prepare(
          `INSERT INTO email_outbox (order_id, invoice_number, email, cc, bcc, state, due_at, created_at)
           VALUES (?, ?, ?, ?, ?, 'queued', ?, ?)`,
        )
        .run(
          input.orderId ?? null,
          invoice,
          input.email,
          input.cc?.length ? JSON.stringify(input.cc) : null,
          input.bcc?.length ? JSON.stringify(input.bcc) : null,
          now,
          new Date(now).toISOString(),
        ).lastInsertRowid,
    );
    await this.pump();
    return this.get(id);
  }

  get(id: number): EmailView {
    const row = this.#d.db.prepare<[number], EmailRow>('SELECT * FROM email_outbox WHERE id = ?').get(id);
    if (!row) throw new CommandError('not_found', 'not_found');
    return toView(row);
  }

  list(): EmailView[] {
    return this.#d.db.prepare<[], EmailRow>('SELECT * FROM email_outbox ORDER BY id DESC LIMIT 200').all().map(toView);
  }

  /** A person resumes an e-mail that spent its retry budget (retries.resume): queued again and tried now. */
  resume(id: number): void {
    this.#d.db
      .prepare("UPDATE email_outbox SET state = 'queued', due_at = ? WHERE id = ? AND state = 'failed'")
      .run(this.#d.now(), id);
    void this.pump();
  }

  /**
   * A queued e-mail waits for its order's fiscalization: pumps whenever an order is fiscalized (the core's event
   * stream). Returns the unsubscribe function.
   */
  follow(subscribe: (listener: (m: EventMessage) => void) => () => unknown): () => void {
    const off = subscribe((m) => {
      if (m.name === 'order.updated' && m.payload.state === 'fiscalized') void this.pump();
    });
    return () => void off();
  }

  /** Sends every due e-mail whose invoice number is known; one pump at a time. */
  pump(): Promise<void> {
    if (this.#pumping) return this.#pumping;
    this.#pumping = this.#pump().finally(() => {
      this.#pumping = null;
    });
    return this.#pumping;
  }

  async #pump(): Promise<void> {
    const { db, store } = this.#d;
    if (!this.#d.online()) return;
    const due = db
      .prepare<[number], EmailRow>(
        "SELECT * FROM email_outbox WHERE state = 'queued' AND due_at <= ? ORDER BY id LIMIT 50",
      )
      .all(this.#d.now());
    for (const row of due) {
      let invoice = row.invoice_number;
      if (!invoice && row.order_id !== null) {
        invoice = store.get(row.order_id)?.invoice_number ?? null;
        if (!invoice) continue; // waits for the order's fiscalization
        db.prepare('UPDATE email_outbox SET invoice_number = ? WHERE id = ?').run(invoice, row.id);
      }
      if (!invoice) continue;
      // The budget backs the e-mail off (its next try is the queue's due_at) and ends its retries.
      const key = String(row.id);
      try {
        const res = await this.#d.client().sendEmail(
          {
            invoiceNumber: invoice,
            email: row.email,
            ...(row.cc ? { cc: JSON.parse(row.cc) as string[] } : {}),
            ...(row.bcc ? { bcc: JSON.parse(row.bcc) as string[] } : {}),
          },
          { timeoutMs: 10_000 },
        );
        // An explicit `success: false` is no success (`{}` is: normalize.ts); its retries are bounded below.
        if (!res.success) throw new Error('the fiscal service answered success: false');
        this.#d.budgets.succeeded('email', key);
        db.prepare(
          "UPDATE email_outbox SET state = 'sent', sent_at = ?, tries = tries + 1, last_error = NULL WHERE id = ?",
        ).run(new Date(this.#d.now()).toISOString(), row.id);
      } catch (err) {
        const view: GatewayErrorView = errorView(err);
        const c = classify(err);
        if (c.type === 'rejected') {
          db.prepare("UPDATE email_outbox SET state = 'failed', tries = tries + 1, last_error = ? WHERE id = ?").run(
            JSON.stringify(view),
            row.id,
          );
        } else if (
          this.#d.budgets.failed('email', key, `${row.email} (${invoice})`, view.message) === 'needs_attention'
        ) {
          // Budget spent: no more tries until a person resumes it (retries.resume).
          db.prepare("UPDATE email_outbox SET state = 'failed', tries = tries + 1, last_error = ? WHERE id = ?").run(
            JSON.stringify(view),
            row.id,
          );
        } else {
          db.prepare('UPDATE email_outbox SET tries = tries + 1, due_at = ?, last_error = ? WHERE id = ?').run(
            this.#d.budgets.retryAt('email', key) ?? this.#d.now(),
            JSON.stringify(view),
            row.id,
          );
          if (c.type === 'retry' || c.type === 'blocked') {
            this.#d.onUpdated?.(this.get(row.id));
            break; // offline or paused: the rest would fail the same way
          }
        }
      }
      this.#d.onUpdated?.(this.get(row.id));
    }
  }
}

function toView(r: EmailRow): EmailView {
  return {
    id: r.id,
    state: r.state,
    email: r.email,
    ...(r.invoice_number ? { invoiceNumber: r.invoice_number } : {}),
    ...(r.order_id !== null ? { orderId: r.order_id } : {}),
    ...(r.last_error ? { lastError: JSON.parse(r.last_error) as GatewayErrorView } : {}),
  };
}
