/**
 * Vitest's file order for a run without a results cache (CI's fresh clone): the slowest files first, so the two
 * workers never wait on one long file at the end. Without this vitest sorts by file size, and the chaos files (small
 * files, each over a minute) started last: the run took ~130 s longer than its files' work divided by two workers.
 * The seconds are from CI's vitest output (each file's own time, every file of 6 s or more; last taken from the
 * fresh-clone CI run of 28 Nov 2026); a file not listed runs after these, larger files first. A wrong or stale
 * figure only changes the order, never what runs.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS: Record<string, number> = {
  'test/hub/till-sync.test.ts': 63,
  'test/chaos/chaos.test.ts': 31,
  'test/electron/restore-points.test.ts': 27,
  'test/hub/staff-ids.test.ts': 22,
  'test/hub/chaos.test.ts': 19,
  'test/electron/history.test.ts': 18,
  'test/hub/tls.test.ts': 16,
  'test/hostile/authz-attacks.test.ts': 14,
  'test/electron/electronegativity.test.ts': 14,
  'test/manager/manager.test.ts': 13,
  'test/manager/advances.test.ts': 13,
  'test/hub/enrol-codes.test.ts': 12,
  'test/hub/till-refused.test.ts': 11,
  'test/hostile/faults.test.ts': 11,
  'test/lpfr/refund-copy.test.ts': 11,
  'test/hub/hub-report-sql.test.ts': 11,
  'test/lpfr/clock.test.ts': 11,
  'test/lpfr/esir-number.test.ts': 10,
  'test/hub/hub-secrets.test.ts': 10,
  'test/hostile/fuzz.test.ts': 9,
  'test/hub/hub-sessions.test.ts': 9,
  'test/lpfr/routing.test.ts': 8,
  'test/hub/hub-login.test.ts': 8,
  'test/hub/hub.test.ts': 7,
  'test/shifts/shifts.test.ts': 7,
  'test/manager/staff-management.test.ts': 6,
  'test/hub/migration-hub-partitions.test.ts': 6,
  'test/hub/hub-lockout.test.ts': 6,
};

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const bySize = await super.sort(files);
    const seconds = (f: TestSpecification): number => {
      const rel = f.moduleId.slice(f.project.config.root.length).replace(/^\//, '');
      return SECONDS[rel] ?? 0;
    };
    // Stable: files without a figure keep the base order (cached durations, or size) among themselves.
    return bySize
      .map((f, i) => ({ f, i, s: seconds(f) }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .map((x) => x.f);
  }
}
