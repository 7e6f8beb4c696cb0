/**
 * `npm test`: typecheck, lint, format (prettier --check), vitest (unit + integration; the gateway and outbox
 * suites a second time against the sandbox's `sdk` variant), Playwright e2e through the host in Chromium (one
 * sale on the `sdk` variant).
 * Runs every step even when one fails, then prints a summary and exits non-zero if any failed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './build-if-stale.ts';

const bin = (name: string): string => path.join(ROOT, 'node_modules', '.bin', name);
/** Machine-readable results of the two test runners, summed into the closing line. */
const REPORTS = path.join(ROOT, '.test-reports');
fs.rmSync(REPORTS, { recursive: true, force: true });
fs.mkdirSync(REPORTS, { recursive: true });
const steps: [string, string, string[], NodeJS.ProcessEnv?][] = [
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['lint', bin('eslint'), ['--max-warnings', '0', '.']],
  ['format', bin('prettier'), ['--check', '.']],
  [
    'vitest',
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${REPORTS}/vitest.json`],
  ],
  // The gateway and outbox suites again against the sandbox answering in the vendor SDK's shapes.
  [
    'vitest-sdk',
    bin('vitest'),
    [
      'run',
      'test/gateway',
      'test/outbox',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${REPORTS}/vitest-sdk.json`,
    ],
    { KASA_SANDBOX_VARIANT: 'sdk' },
  ],
  ['build', bin('electron-vite'), ['build']],
  ['playwright', bin('playwright'), ['test']],
];
const only = process.argv.slice(2);
const results: { name: string; ok: boolean; seconds: number }[] = [];
for (const [name, cmd, args, extraEnv] of steps) {
  if (only.length && !only.includes(name)) continue;
  const started = Date.now();
  process.stdout.write(`\n=== ${name}: ${[path.basename(cmd), ...args].join(' ')}\n`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...extraEnv } });
  results.push({ name, ok: r.status === 0, seconds: (Date.now() - started) / 1000 });
}
process.stdout.write('\n=== summary\n');
for (const r of results) process.stdout.write(`${r.ok ? 'PASS' : 'FAIL'} ${r.name} (${r.seconds.toFixed(1)} s)\n`);
const failed = results.filter((r) => !r.ok).length;
const counts = countTests();
process.stdout.write(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
process.exit(failed ? 1 : 0);

/** Sums vitest's and Playwright's JSON reports (a runner that did not report counts as nothing). */
function countTests(): { passed: number; failed: number; skipped: number } {
  const read = (file: string): Record<string, unknown> | null => {
    try {
      return JSON.parse(fs.readFileSync(path.join(REPORTS, file), 'utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
  };
  const n = (v: unknown): number => (typeof v === 'number' ? v : 0);
  const vs = [read('vitest.json'), read('vitest-sdk.json')];
  const sum = (key: string): number => vs.reduce((t, v) => t + n(v?.[key]), 0);
  const p = read('playwright.json');
  const stats = (p?.['stats'] ?? {}) as Record<string, unknown>;
  return {
    passed: sum('numPassedTests') + n(stats['expected']) + n(stats['flaky']),
    failed: sum('numFailedTests') + n(stats['unexpected']),
    skipped: sum('numPendingTests') + sum('numTodoTests') + n(stats['skipped']),
  };
}
