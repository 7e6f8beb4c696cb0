/**
 * Vitest's file order for a run without a results cache (CI's fresh clone): the slowest files first, so the two
 * workers never wait on one long file at the end. Without this vitest sorts by file size, and the chaos files (small
 * files, each over a minute) started last: the run took ~130 s longer than its files' work divided by two workers.
 * The seconds are from CI's vitest report (`.test-reports/vitest.json`); a file not listed runs after these, larger
 * files first. A wrong or stale figure only changes the order, never what runs.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS: Record<string, number> = {
  'test/chaos/chaos.test.ts': 73,
  'test/hub/till-sync.test.ts': 67,
  'test/hub/chaos.test.ts': 58,
  'test/electron/restore-points.test.ts': 34,
  'test/hub/hub-secrets.test.ts': 31,
  'test/electron/history.test.ts': 26,
  'test/hub/hub-sessions.test.ts': 22,
  'test/hub/tls.test.ts': 21,
  'test/electron/electronegativity.test.ts': 20,
  'test/hostile/faults.test.ts': 15,
  'test/hostile/authz-attacks.test.ts': 13,
  'test/hub/till-refused.test.ts': 12,
  'test/manager/advances.test.ts': 11,
  'test/hostile/fuzz.test.ts': 11,
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
