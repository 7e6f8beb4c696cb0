/**
 * The sandbox's state: issued receipts (the ledger), drafts, cashiers and recorded e-mails. Held in
 * memory; with a data file every change is also written to SQLite (better-sqlite3, WAL,
 * synchronous=NORMAL) and the state is loaded back on start, so the embedded demo keeps its archive.
 * Counters are derived from the stored receipts.
 */
import type { Statement } from 'better-sqlite3';
import { openDatabase, type Db, type Migration } from '../db/open.ts';
import type { Item, Payment } from './schemas.ts';

/** One issued receipt as stored. `receipt` is the wire object without the server-relative URLs. */
export interface StoredReceipt {
  /** Sequence number across the whole sandbox; served as `receiptId`. */
  id: number;
  shopId: number;
  invoiceNumber: string;
  orderNumber: string;
  invoiceType: string;
  transactionType: string;
  issuedAtMs: number;
  sdcDateTime: string;
  totalPara: number;
  referentDocumentNumber: string | null;
  /** Order-number uniqueness key (`shop|invoiceType|transactionType|orderNumber`), null when not checked. */
  scopeKey: string | null;
  items: Item[];
  payments: Payment[];
  receipt: Record<string, unknown>;
}

/** A draft record. */
export interface Draft extends Record<string, unknown> {
  id: number;
  shopId: number;
  companyId: number;
  draftName: string;
  orderNumber: string;
  status: 'draft';
  createdAt: string;
  updatedAt: string;
}

/** A cashier record. */
export interface Cashier {
  id: number;
  shopId: number;
  name: string;
  email?: string;
  phone?: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A recorded (never sent) e-mail. */
export interface EmailRecord {
  id: number;
  shopId: number;
  invoiceNumber: string;
  email: string;
  cc: string[];
  bcc: string[];
  attachment: string;
  source: 'send-email' | 'settings.sendToEmail';
  at: string;
}

const MIGRATIONS: Migration[] = [
  {
    name: 'sandbox_state',
    up(db) {
      db.exec(`
        CREATE TABLE receipts (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
        CREATE TABLE drafts (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
        CREATE TABLE cashiers (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
        CREATE TABLE emails (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
      `);
    },
  },
];

type Table = 'receipts' | 'drafts' | 'cashiers' | 'emails';

/** In-memory state with optional write-through SQLite persistence. */
export class Store {
  receipts: StoredReceipt[] = [];
  readonly byInvoice = new Map<string, StoredReceipt>();
  /** Latest receipt per uniqueness scope key. */
  readonly byScope = new Map<string, StoredReceipt>();
  /** Receipts per `shop|orderNumber`, in issue order. */
  readonly byOrder = new Map<string, StoredReceipt[]>();
  readonly drafts = new Map<number, Draft>();
  readonly cashiers = new Map<number, Cashier>();
  emails: EmailRecord[] = [];
  readonly #counters = new Map<string, number>();
  #nextDraftId = 1;
  #nextCashierId = 1;
  readonly #db: Db | null;

  constructor(dataFile?: string) {
    this.#db = dataFile ? openDatabase(dataFile, MIGRATIONS) : null;
    if (this.#db) {
      this.#db.pragma('synchronous = NORMAL');
      this.#load(this.#db);
    }
  }

  #load(db: Db): void {
    const rows = (table: Table) =>
      (db.prepare(`SELECT json FROM ${table} ORDER BY id`).all() as { json: string }[]).map(
        (r) => JSON.parse(r.json) as unknown,
      );
    for (const r of rows('receipts')) this.#index(r as StoredReceipt);
    for (const d of rows('drafts') as Draft[]) {
      this.drafts.set(d.id, d);
      this.#nextDraftId = Math.max(this.#nextDraftId, d.id + 1);
    }
    for (const c of rows('cashiers') as Cashier[]) {
      this.cashiers.set(c.id, c);
      this.#nextCashierId = Math.max(this.#nextCashierId, c.id + 1);
    }
    this.emails = rows('emails') as EmailRecord[];
  }

  readonly #statements = new Map<string, Statement>();

  #statement(sql: string): Statement | null {
    if (!this.#db) return null;
    let st = this.#statements.get(sql);
    if (!st) {
      st = this.#db.prepare(sql);
      this.#statements.set(sql, st);
    }
    return st;
  }

  #write(table: Table, id: number, value: unknown): void {
    this.#statement(`INSERT OR REPLACE INTO ${table} (id, json) VALUES (?, ?)`)?.run(id, JSON.stringify(value));
  }

  #index(r: StoredReceipt): void {
    this.receipts.push(r);
    this.byInvoice.set(r.invoiceNumber, r);
    if (r.scopeKey) this.byScope.set(r.scopeKey, r);
    const orderKey = `${r.shopId}|${r.orderNumber}`;
    const list = this.byOrder.get(orderKey);
    if (list) list.push(r);
    else this.byOrder.set(orderKey, [r]);
    this.#bump(`${r.shopId}`);
    this.#bump(`${r.shopId}|${r.invoiceType}|${r.transactionType}`);
  }

  #bump(key: string): void {
    this.#counters.set(key, (this.#counters.get(key) ?? 0) + 1);
  }

  /** The next counters of a shop: total across all receipts, and per invoiceType+transactionType. */
  nextCounters(shopId: number, invoiceType: string, transactionType: string): { total: number; typed: number } {
    return {
      total: (this.#counters.get(`${shopId}`) ?? 0) + 1,
      typed: (this.#counters.get(`${shopId}|${invoiceType}|${transactionType}`) ?? 0) + 1,
    };
  }

  get nextReceiptId(): number {
    return this.receipts.length + 1;
  }

  /** Appends an issued receipt to the ledger (and the data file). */
  addReceipt(r: StoredReceipt): void {
    this.#index(r);
    this.#write('receipts', r.id, r);
  }

  /** Several receipts in one transaction (the finalize pair). */
  addReceipts(list: StoredReceipt[]): void {
    const run = () => list.forEach((r) => this.addReceipt(r));
    if (this.#db) this.#db.transaction(run)();
    else run();
  }

  newDraftId(): number {
    return this.#nextDraftId++;
  }

  saveDraft(d: Draft): void {
    this.drafts.set(d.id, d);
    this.#write('drafts', d.id, d);
  }

  deleteDraft(id: number): void {
    this.drafts.delete(id);
    this.#statement('DELETE FROM drafts WHERE id = ?')?.run(id);
  }

  newCashierId(): number {
    return this.#nextCashierId++;
  }

  saveCashier(c: Cashier): void {
    this.cashiers.set(c.id, c);
    this.#write('cashiers', c.id, c);
  }

  addEmail(e: Omit<EmailRecord, 'id'>): EmailRecord {
    const record = { id: this.emails.length + 1, ...e };
    this.emails.push(record);
    this.#write('emails', record.id, record);
    return record;
  }

  /** Forgets everything (also in the data file). */
  reset(): void {
    this.receipts = [];
    this.byInvoice.clear();
    this.byScope.clear();
    this.byOrder.clear();
    this.drafts.clear();
    this.cashiers.clear();
    this.emails = [];
    this.#counters.clear();
    this.#nextDraftId = 1;
    this.#nextCashierId = 1;
    this.#db?.exec('DELETE FROM receipts; DELETE FROM drafts; DELETE FROM cashiers; DELETE FROM emails;');
  }

  close(): void {
    this.#db?.close();
  }
}
