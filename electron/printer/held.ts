/**
 * Held jobs: a job that waited too long to be printed is not printed unasked; a manager prints or drops it.
 *
 * A receipt is printed for the customer in front of the till. One that waited longer than `HOLD_AFTER_MS`
 * (no printer set, the printer unreachable, the till off) would come out after the customer left, in the
 * middle of someone else's sale, or as a pile of old receipts and reports once the printer is back. So the
 * worker, before each pass, turns every such job `held` (state in print_jobs, see queue.ts), and only a
 * manager's `print.resolveHeld` puts it back: `print` queues it again `released` (never held again), `drop`
 * keeps it as history, never printed. A job a person asked for again (a failed one re-queued) is released too.
 */
import type Database from 'better-sqlite3';
import type { HeldJob } from '../../shared/contract/printer.ts';
import type { JobStore, PrintJob } from './queue.ts';

/**
 * Five minutes: a customer waits a minute or two for a receipt (a paper roll changed, a cable plugged back),
 * rarely five. Past that the sale is over and the paper would land on the next customer's sale.
 */
export const HOLD_AFTER_MS = 5 * 60_000;

/** The receipt's number and total from the job's payload snapshot (the receipt as it was queued). */
function receiptFacts(job: PrintJob): { invoiceNumber: string | null; totalPara: number | null } {
  if (job.kind !== 'receipt') return { invoiceNumber: null, totalPara: null };
  try {
    const data: unknown = JSON.parse(job.payload);
    const receipt =
      typeof data === 'object' && data !== null && 'receipt' in data ? (data as { receipt: unknown }).receipt : null;
    if (typeof receipt !== 'object' || receipt === null) return { invoiceNumber: null, totalPara: null };
    const r = receipt as { invoiceNumber?: unknown; totalPara?: unknown };
    return {
      invoiceNumber: typeof r.invoiceNumber === 'string' && r.invoiceNumber !== '' ? r.invoiceNumber : null,
      totalPara: typeof r.totalPara === 'number' && Number.isSafeInteger(r.totalPara) ? r.totalPara : null,
    };
  } catch {
    return { invoiceNumber: null, totalPara: null };
  }
}

/** The held-job operations the print service exposes; `changed` wakes the worker and sends `print.status`. */
export function createHeldJobs(deps: {
  db: Database.Database;
  jobs: JobStore;
  now: () => number;
  changed: () => void;
}) {
  const { jobs, now } = deps;
  return {
    /** Holds every queued job older than `HOLD_AFTER_MS` that no manager released; returns how many. */
    holdStale(): number {
      return jobs.holdStale(new Date(now() - HOLD_AFTER_MS).toISOString());
    },
    /** The held jobs for the manager, oldest first. */
    list(): HeldJob[] {
      return jobs.held().map((job) => ({
        id: job.id,
        orderId: job.orderId,
        kind: job.kind,
        ...receiptFacts(job),
        createdAt: job.createdAt,
      }));
    },
    /**
     * Prints (queued again, released) or drops the given jobs; ids not held (already resolved, never held)
     * are left as they are. Returns the ids it changed.
     */
    resolve(ids: readonly number[], action: 'print' | 'drop'): { printed: number[]; dropped: number[] } {
      const at = now();
      const done = deps.db.transaction(() =>
        ids.filter((id) => (action === 'print' ? jobs.releaseHeld(id, at) : jobs.dropHeld(id))),
      )();
      if (done.length > 0) deps.changed();
      return action === 'print' ? { printed: done, dropped: [] } : { printed: [], dropped: done };
    },
    /** A person asked for this held job's receipt again (`print.receipt`): printed now, released. */
    release(id: number): boolean {
      const ok = jobs.releaseHeld(id, now());
      if (ok) deps.changed();
      return ok;
    },
  };
}

export type HeldJobs = ReturnType<typeof createHeldJobs>;
