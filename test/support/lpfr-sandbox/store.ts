/**
 * The L-PFR sandbox's durable state: every signed invoice (by total counter, with its RequestId) and the
 * card's PIN-try counter. With a data directory it lives in SQLite (WAL, synchronous=FULL): an invoice is
 * committed before its answer is sent, so a crash after signing never loses a signed invoice nor reuses
 * its counter. Counters are derived from the stored invoices on start.
 */
import path from 'node:path';
import { openDatabase, type Db, type Migration } from '../../../electron/db/open.ts';
import type { LpfrInvoiceType, LpfrTransactionType } from '../../../electron/lpfr/protocol.ts';

/** One signed invoice as stored: the InvoiceResult as answered, and what the ledger shows of it. */
export interface SignedInvoice {
  totalCounter: number;
  transactionTypeCounter: number;
  requestId: string | null;
  invoiceType: LpfrInvoiceType;
  transactionType: LpfrTransactionType;
  invoiceNumber: string;
  /** The ESIR's own document number (the request's `invoiceNumber`; Kasa sends its order number). */
  esirNumber: string | null;
  sdcDateTime: string;
  /** In para. */
  totalPara: number;
  referentDocumentNumber: string | null;
  result: Record<string, unknown>;
}

const MIGRATIONS: Migration[] = [
  {
    name: 'lpfr_state',
    up(db) {
      db.exec(`
        CREATE TABLE invoices (total_counter INTEGER PRIMARY KEY, request_id TEXT, json TEXT NOT NULL);
        CREATE INDEX invoices_request ON invoices (request_id);
        CREATE TABLE card (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      `);
    },
  },
];

/** The state file inside a data directory. */
export function stateFile(dataDir: string): string {
  return path.join(dataDir, 'lpfr-sandbox.sqlite');
}

export class LpfrStore {
  readonly invoices: SignedInvoice[] = [];
  /** The last invoice signed under each RequestId (a RequestId sent twice is signed twice, as on a real L-PFR). */
  readonly #byRequest = new Map<string, SignedInvoice>();
  readonly #typed = new Map<string, number>();
  #wrongPins = 0;
  readonly #db: Db | null;

  constructor(dataDir?: string) {
    this.#db = dataDir ? openDatabase(stateFile(dataDir), MIGRATIONS) : null;
    if (!this.#db) return;
    const rows = this.#db.prepare('SELECT json FROM invoices ORDER BY total_counter').all() as { json: string }[];
    for (const r of rows) this.#index(JSON.parse(r.json) as SignedInvoice);
    const tries = this.#db.prepare("SELECT value FROM card WHERE key = 'wrong_pins'").get() as
      { value: string } | undefined;
    this.#wrongPins = tries ? Number(tries.value) : 0;
  }

  #index(inv: SignedInvoice): void {
    this.invoices.push(inv);
    if (inv.requestId) this.#byRequest.set(inv.requestId, inv);
    const key = `${inv.invoiceType}|${inv.transactionType}`;
    this.#typed.set(key, Math.max(this.#typed.get(key) ?? 0, inv.transactionTypeCounter));
  }

  /** The counters the next invoice of this type and transaction gets. */
  nextCounters(invoiceType: LpfrInvoiceType, transactionType: LpfrTransactionType): { total: number; typed: number } {
    const last = this.invoices[this.invoices.length - 1];
    return {
      total: (last?.totalCounter ?? 0) + 1,
      typed: (this.#typed.get(`${invoiceType}|${transactionType}`) ?? 0) + 1,
    };
  }

  /** Records a signed invoice; with a data directory it is on disk (fsync'd) when this returns. */
  add(inv: SignedInvoice): void {
    this.#db
      ?.prepare('INSERT INTO invoices (total_counter, request_id, json) VALUES (?, ?, ?)')
      .run(inv.totalCounter, inv.requestId, JSON.stringify(inv));
    this.#index(inv);
  }

  byRequestId(requestId: string): SignedInvoice | undefined {
    return this.#byRequest.get(requestId);
  }

  get lastInvoiceNumber(): string | null {
    return this.invoices[this.invoices.length - 1]?.invoiceNumber ?? null;
  }

  /** Consecutive wrong PINs since the last right one (kept on the "card": survives a restart). */
  get wrongPins(): number {
    return this.#wrongPins;
  }

  setWrongPins(n: number): void {
    this.#db?.prepare("INSERT OR REPLACE INTO card (key, value) VALUES ('wrong_pins', ?)").run(String(n));
    this.#wrongPins = n;
  }

  close(): void {
    this.#db?.close();
  }
}
