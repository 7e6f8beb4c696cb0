/**
 * Printed jobs do not pile up for years: each holds a snapshot of its receipt, one per sale.
 * Real SQLite file: jobs printed more than PRINTED_JOBS_KEEP_DAYS ago are deleted in batches; jobs still
 * waiting, printing or failed, and recent printed ones, stay.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createJobStore, PRINTED_JOBS_KEEP_DAYS, prunePrintedJobs } from '../../electron/printer/queue.ts';
import { tempDatabases } from '../support/temp-db.ts';

const { tmp, db, cleanup } = tempDatabases('kasa-prune-');
afterEach(cleanup);

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

describe('pruning printed jobs', () => {
  it('deletes only jobs printed before the kept days, in batches, oldest first', async () => {
    const d = db(tmp());
    const jobs = createJobStore(d);
    const printedAt = (daysAgo: number): number => {
      const id = jobs.add('receipt', null, '{"receipt":{}}', NOW - daysAgo * DAY);
      expect(jobs.claim(id)).toBe(true);
      jobs.markPrinted(id, NOW - daysAgo * DAY);
      return id;
    };
    const old = Array.from({ length: 1200 }, (_, i) => printedAt(PRINTED_JOBS_KEEP_DAYS + 1 + (i % 700)));
    const recent = [printedAt(1), printedAt(PRINTED_JOBS_KEEP_DAYS - 1)];
    const queued = jobs.add('receipt', 7, '{"receipt":{}}', NOW - 400 * DAY); // never printed: stays however old
    const failed = jobs.add('slip', null, '{"lines":[]}', NOW - 400 * DAY);
    jobs.claim(failed);
    jobs.markFailed(failed, 'offline');

    expect(await prunePrintedJobs(jobs, NOW)).toBe(old.length); // 1,200: three batches of 500
    const left = (d.prepare('SELECT id FROM print_jobs ORDER BY id').all() as { id: number }[]).map((r) => r.id);
    expect(left).toEqual([...recent, queued, failed]);
    expect(jobs.counts()).toEqual({ queued: 1, printing: 0, sent: 0, unconfirmed: 0, failed: 1, held: 0 });
    expect(await prunePrintedJobs(jobs, NOW)).toBe(0);
  });
});
