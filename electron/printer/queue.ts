/** The print_jobs table (migration 002): every read and write of the persistent print queue. */
import type Database from 'better-sqlite3';

/**
 * `late`: the fiscal receipt of a sale made while nothing could sign it, printed when it is issued later
 * (late.ts): never held for its age, never opens the drawer.
 */
export type JobKind = 'receipt' | 'test' | 'slip' | 'late';
/**
 * `queued` → `printing` → `printed`; `sent`: the bytes are in a printer that stopped (paper, cover) and
 * will print them once fixed, never sent again; `unconfirmed`: the cashier is asked whether it came out;
 * `failed`: gave up after its last attempt; `held`: waited too long, a manager decides; `dropped`: a
 * manager chose not to print it. See migration 014.
 */
export type JobState = 'queued' | 'printing' | 'sent' | 'unconfirmed' | 'printed' | 'failed' | 'held' | 'dropped';

/** One stored print job. */
export interface PrintJob {
  id: number;
  orderId: number | null;
  kind: JobKind;
  payload: string;
  state: JobState;
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: string;
  printedAt: string | null;
  /** When its bytes reached a printer that can be asked (epoch ms), for `sent` jobs. */
  sentAt: number | null;
}

interface Row {
  id: number;
  order_id: number | null;
  kind: JobKind;
  payload: string;
  state: JobState;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: string;
  printed_at: string | null;
  sent_at: number | null;
}

const toJob = (r: Row): PrintJob => ({
  id: r.id,
  orderId: r.order_id,
  kind: r.kind,
  payload: r.payload,
  state: r.state,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  lastError: r.last_error,
  createdAt: r.created_at,
  printedAt: r.printed_at,
  sentAt: r.sent_at,
});

/** Prepared statements over print_jobs. */
export function createJobStore(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO print_jobs (order_id, kind, payload, state, attempts, next_attempt_at, created_at)
     VALUES (?, ?, ?, 'queued', 0, ?, ?)`,
  );
  const byId = db.prepare<[number], Row>('SELECT * FROM print_jobs WHERE id = ?');
  const nextDue = db.prepare<[number], Row>(
    `SELECT * FROM print_jobs WHERE state = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 1`,
  );
  const earliest = db.prepare<[], { at: number | null }>(
    `SELECT MIN(next_attempt_at) AS at FROM print_jobs WHERE state = 'queued'`,
  );
  const latestForOrder = db.prepare<[number], Row>(
    `SELECT * FROM print_jobs WHERE order_id = ? AND kind IN ('receipt', 'late') ORDER BY id DESC LIMIT 1`,
  );
  const latest = db.prepare<[], Row>('SELECT * FROM print_jobs ORDER BY id DESC LIMIT 1');
  // Printed jobs are history (one per receipt for years): not counted, or every status would walk them all.
  const counts = db.prepare<[], { state: JobState; n: number }>(
    `SELECT state, COUNT(*) AS n FROM print_jobs
     WHERE state IN ('queued', 'printing', 'sent', 'unconfirmed', 'failed', 'held') GROUP BY state`,
  );
  const claim = db.prepare(
    `UPDATE print_jobs SET state = 'printing', attempts = attempts + 1 WHERE id = ? AND state = 'queued'`,
  );
  const printed = db.prepare(`UPDATE print_jobs SET state = 'printed', printed_at = ?, last_error = NULL WHERE id = ?`);
  const retry = db.prepare(`UPDATE print_jobs SET state = 'queued', next_attempt_at = ?, last_error = ? WHERE id = ?`);
  const failed = db.prepare(`UPDATE print_jobs SET state = 'failed', last_error = ? WHERE id = ?`);
  const requeue = db.prepare(
    `UPDATE print_jobs SET state = 'queued', attempts = 0, released = 1, next_attempt_at = ?, last_error = NULL
     WHERE id = ? AND state = 'failed'`,
  );
  const recover = db.prepare(`UPDATE print_jobs SET state = 'queued' WHERE state = 'printing'`);
  // What the printer said (status.ts): a job put back before its bytes went out does not count as an attempt.
  const unclaim = db.prepare(
    `UPDATE print_jobs SET state = 'queued', attempts = MAX(attempts - 1, 0), next_attempt_at = ?, last_error = ?
     WHERE id = ? AND state = 'printing'`,
  );
  const sent = db.prepare(
    `UPDATE print_jobs SET state = 'sent', sent_at = ?, last_error = ? WHERE id = ? AND state = 'printing'`,
  );
  const unconfirmed = db.prepare(
    `UPDATE print_jobs SET state = 'unconfirmed', last_error = ? WHERE id = ? AND state = 'printing'`,
  );
  const sentJobs = db.prepare<[], Row>(`SELECT * FROM print_jobs WHERE state = 'sent' ORDER BY id`);
  const oldestUnconfirmed = db.prepare<[], Row>(
    `SELECT * FROM print_jobs WHERE state = 'unconfirmed' ORDER BY id LIMIT 1`,
  );
  const settle = db.prepare(
    `UPDATE print_jobs SET state = 'printed', printed_at = ?, last_error = NULL WHERE id = ? AND state IN ('sent', 'unconfirmed')`,
  );
  const printAgain = db.prepare(
    `UPDATE print_jobs SET state = 'queued', released = 1, attempts = 0, next_attempt_at = ?, last_error = NULL
     WHERE id = ? AND state = 'unconfirmed'`,
  );
  const recoverUnconfirmed = db.prepare(
    `UPDATE print_jobs SET state = 'unconfirmed', last_error = 'interrupted: Kasa stopped while printing'
     WHERE state = 'printing'`,
  );
  const sentUnconfirmed = db.prepare(
    `UPDATE print_jobs SET state = 'unconfirmed', last_error = ? WHERE state = 'sent'`,
  );
  const dueFirst = db.prepare(`UPDATE print_jobs SET next_attempt_at = 0 WHERE id = ? AND state = 'queued'`);
  const prune = db.prepare(
    `DELETE FROM print_jobs WHERE id IN
       (SELECT id FROM print_jobs WHERE state = 'printed' AND printed_at < ? ORDER BY next_attempt_at LIMIT ?)`,
  );
  // Held jobs (held.ts). created_at is ISO 8601 UTC, so text order is time order.
  const holdStale = db.prepare(
    // A late receipt (late.ts) is kept for a customer who has left anyway: it waits, never held for its age.
    `UPDATE print_jobs SET state = 'held' WHERE state = 'queued' AND released = 0 AND kind <> 'late' AND created_at < ?`,
  );
  const heldList = db.prepare<[], Row>(`SELECT * FROM print_jobs WHERE state = 'held' ORDER BY id`);
  const releaseHeld = db.prepare(
    `UPDATE print_jobs SET state = 'queued', released = 1, attempts = 0, next_attempt_at = ?, last_error = NULL
     WHERE id = ? AND state = 'held'`,
  );
  const dropHeld = db.prepare(`UPDATE print_jobs SET state = 'dropped' WHERE id = ? AND state = 'held'`);

  return {
    /** Stores a new queued job, due now; returns its id. */
    add(kind: JobKind, orderId: number | null, payload: string, now: number): number {
      return Number(insert.run(orderId, kind, payload, now, new Date(now).toISOString()).lastInsertRowid);
    },
    get(id: number): PrintJob | undefined {
      const r = byId.get(id);
      return r && toJob(r);
    },
    /** The queued job due first, if any is due at `now`. */
    nextDue(now: number): PrintJob | undefined {
      const r = nextDue.get(now);
      return r && toJob(r);
    },
    /** When the earliest queued job is due (epoch ms), or null when none is queued. */
    earliestDue(): number | null {
      return earliest.get()?.at ?? null;
    },
    latestReceipt(orderId: number): PrintJob | undefined {
      const r = latestForOrder.get(orderId);
      return r && toJob(r);
    },
    latest(): PrintJob | undefined {
      const r = latest.get();
      return r && toJob(r);
    },
    /** Jobs not yet settled (printed and dropped ones are history, not counted: see the statement). */
    counts(): Record<Exclude<JobState, 'printed' | 'dropped'>, number> {
      const out: Record<Exclude<JobState, 'printed' | 'dropped'>, number> = {
        queued: 0,
        printing: 0,
        sent: 0,
        unconfirmed: 0,
        failed: 0,
        held: 0,
      };
      for (const { state, n } of counts.all()) if (state !== 'printed' && state !== 'dropped') out[state] = n;
      return out;
    },
    /** Marks a queued job printing and counts the attempt; false if it was not queued. */
    claim(id: number): boolean {
      return claim.run(id).changes === 1;
    },
    markPrinted(id: number, now: number): void {
      printed.run(new Date(now).toISOString(), id);
    },
    markRetry(id: number, at: number, error: string): void {
      retry.run(at, error, id);
    },
    markFailed(id: number, error: string): void {
      failed.run(error, id);
    },
    /**
     * Puts a failed job back in the queue with fresh attempts; false if it was not failed. A person asked for
     * it now, so it is released: never held for its age (held.ts).
     */
    requeue(id: number, now: number): boolean {
      return requeue.run(now, id).changes === 1;
    },
    /**
     * At start: jobs left `printing` by a crash go back to `queued`. Their receipt may have been partly
     * printed; it is printed again whole (a partial print can show on paper).
     */
    recover(): number {
      return recover.run().changes;
    },
    /** Deletes at most `limit` jobs printed before `beforeIso`, oldest first; returns how many. */
    prunePrinted(beforeIso: string, limit: number): number {
      return prune.run(beforeIso, limit).changes;
    },
    /** Queued jobs created before `beforeIso` and not released by a manager become held; returns how many. */
    holdStale(beforeIso: string): number {
      return holdStale.run(beforeIso).changes;
    },
    /** Every held job, oldest first. */
    held(): PrintJob[] {
      return heldList.all().map(toJob);
    },
    /** A manager prints a held job: queued again, due now, never held again; false if it was not held. */
    releaseHeld(id: number, now: number): boolean {
      return releaseHeld.run(now, id).changes === 1;
    },
    /** A manager drops a held job: kept as history, never printed; false if it was not held. */
    dropHeld(id: number): boolean {
      return dropHeld.run(id).changes === 1;
    },
    /** A printing job goes back to the queue unsent (the printer reported a stop before it): no attempt counted. */
    unclaim(id: number, at: number, error: string): boolean {
      return unclaim.run(at, error, id).changes === 1;
    },
    /** Every byte reached a printer that then reported a stop: it prints the rest once fixed; never sent again. */
    markSent(id: number, now: number, error: string | null): boolean {
      return sent.run(now, error, id).changes === 1;
    },
    /** Kasa cannot know whether it came out: the cashier is asked. */
    markUnconfirmed(id: number, error: string): boolean {
      return unconfirmed.run(error, id).changes === 1;
    },
    sentJobs(): PrintJob[] {
      return sentJobs.all().map(toJob);
    },
    oldestUnconfirmed(): PrintJob | undefined {
      const r = oldestUnconfirmed.get();
      return r && toJob(r);
    },
    /** A sent job the printer finished, or an unconfirmed one the cashier saw come out. */
    settlePrinted(id: number, now: number): boolean {
      return settle.run(new Date(now).toISOString(), id).changes === 1;
    },
    /** The cashier says it did not come out: printed once more (released: never held for a manager). */
    printAgain(id: number, now: number): boolean {
      return printAgain.run(now, id).changes === 1;
    },
    /** At start, with a printer that can be asked: jobs a crash left `printing` are asked about, not reprinted. */
    recoverUnconfirmed(): number {
      return recoverUnconfirmed.run().changes;
    },
    /** The printer was lost while holding sent jobs (a power cycle empties its buffer): the cashier is asked. */
    sentToUnconfirmed(error: string): number {
      return sentUnconfirmed.run(error).changes;
    },
    /** Puts a queued job before every other (a receipt's slip: right after its receipt on paper). */
    dueFirst(id: number): void {
      dueFirst.run(id);
    },
  };
}

/** Printed jobs are kept this long (the printer screen's recent history), then deleted. */
export const PRINTED_JOBS_KEEP_DAYS = 30;
const PRUNE_BATCH = 500;

/**
 * Deletes printed jobs older than `PRINTED_JOBS_KEEP_DAYS`, in batches of 500 with the event loop turned
 * between them (a sale never waits for more than one batch). A job's payload is a snapshot of its
 * receipt, ~3 KiB: kept for years, one per sale, they would add as much to the database as the orders'
 * journals, and to every backup and integrity check. The fiscal record is the order (its receipt and
 * journal), from which a copy is issued; a printed job is never printed again (`reprintLast` refuses).
 */
export async function prunePrintedJobs(jobs: JobStore, now: number): Promise<number> {
  const before = new Date(now - PRINTED_JOBS_KEEP_DAYS * 86_400_000).toISOString();
  let total = 0;
  for (;;) {
    const n = jobs.prunePrinted(before, PRUNE_BATCH);
    total += n;
    if (n < PRUNE_BATCH) return total;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export type JobStore = ReturnType<typeof createJobStore>;
