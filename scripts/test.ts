/**
 * `npm test`: typecheck, lint, format (prettier --check), the build, vitest (unit + integration; the gateway and
 * outbox suites a second time against the sandbox's `sdk` variant), Playwright e2e through the host in Chromium (one
 * sale on the `sdk` variant).
 * Runs every step even when one fails, then prints a summary and exits non-zero if any failed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ROOT } from './build-if-stale.ts';

const bin = (name: string): string => path.join(ROOT, 'node_modules', '.bin', name);
/** Machine-readable results of the two test runners, summed into the closing line. */
const REPORTS = path.join(ROOT, '.test-reports');
fs.rmSync(REPORTS, { recursive: true, force: true });
fs.mkdirSync(REPORTS, { recursive: true });
type Step = [string, string, string[], NodeJS.ProcessEnv?];
/**
 * The static checks run side by side, each in its own lane, and beside the build and the tests at the lowest CPU
 * priority (nice 19): they take the cores only while the tests leave them idle (a test waiting on a hub pull, a page,
 * a child process), so a test never waits for them and they need no slot of their own (they took 76 s on their own at
 * the start of every run). Three lanes, not two: what is left of them when the tests end runs on both cores (a run
 * with lint then format in one lane ended on the format check alone, 19 s after the tests). What they write is
 * printed whole when each ends, so it never interleaves with a test's lines.
 */
const staticLanes: Step[][] = [
  [['typecheck', 'npm', ['run', '--silent', 'typecheck']]],
  [['lint', bin('eslint'), ['--max-warnings', '0', '.']]],
  [['format', bin('prettier'), ['--check', '.']]],
];
const steps: Step[] = [
  // The build first: the tests that start the host as a child process (vitest's chaos runs and hub tills, every
  // e2e test) start it from this build instead of stripping the types of every source file at each start (the
  // two chaos files: 60 s from the sources, 45 s from the build). A plain `vitest run` starts the sources.
  ['build', bin('electron-vite'), ['build']],
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
  ['playwright', bin('playwright'), ['test']],
];
const testTmp = ramTmpDir();
/**
 * One V8 code cache for every Node process of the run (Node's NODE_COMPILE_CACHE): the tests start the host and the
 * hub hundreds of times, and each start compiled the same bundle again (about 0.13 CPU-seconds of a host start of
 * about 0.85). Kept beside the tests' files and thrown away with them.
 */
const compileCache = fs.mkdtempSync(path.join(testTmp ?? os.tmpdir(), 'kasa-compile-cache-'));
process.env.NODE_COMPILE_CACHE = compileCache;
const cleanUp = (): void => {
  fs.rmSync(compileCache, { recursive: true, force: true });
  if (testTmp) fs.rmSync(testTmp, { recursive: true, force: true });
};
// Stopped early (Ctrl-C, a CI timeout): the RAM disk is given back all the same (the steps get the signal too).
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    cleanUp();
    process.exit(1);
  });
const only = process.argv.slice(2);
const wanted = ([name]: Step): boolean => !only.length || only.includes(name);
const results: { name: string; ok: boolean; seconds: number }[] = [];
const title = ([name, cmd, args]: Step): string => `\n=== ${name}: ${[path.basename(cmd), ...args].join(' ')}\n`;

const staticChecks = Promise.all(
  staticLanes.map(async (lane) => {
    for (const step of lane.filter(wanted)) {
      const [name, cmd, args, extraEnv] = step;
      const started = Date.now();
      const r = await runBuffered(cmd, args, { ...process.env, ...extraEnv });
      process.stdout.write(title(step) + r.output);
      results.push({ name, ok: r.code === 0, seconds: (Date.now() - started) / 1000 });
    }
  }),
);
for (const step of steps.filter(wanted)) {
  const [name, cmd, args, extraEnv] = step;
  const started = Date.now();
  process.stdout.write(title(step));
  const code = await runInherited(cmd, args, {
    ...process.env,
    ...(testTmp && name !== 'build' ? { TMPDIR: testTmp } : {}),
    ...extraEnv,
  });
  results.push({ name, ok: code === 0, seconds: (Date.now() - started) / 1000 });
  // Only a build that just succeeded is started by the later steps (test/support/host-process.ts).
  if (name === 'build' && code === 0) process.env.KASA_TEST_HOST_BUILT = '1';
}
await staticChecks;
cleanUp();
process.stdout.write('\n=== summary\n');
const order = [...staticLanes.flat(), ...steps].map(([name]) => name);
results.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
for (const r of results) process.stdout.write(`${r.ok ? 'PASS' : 'FAIL'} ${r.name} (${r.seconds.toFixed(1)} s)\n`);
const failed = results.filter((r) => !r.ok).length;
const counts = countTests();
process.stdout.write(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
for (const name of counts.flaky) process.stdout.write(`flaky (failed, then passed on its retry): ${name}\n`);
// Last, so that the tail of a long log names what failed and why (a CI log is often read from its end).
for (const name of counts.failures) process.stdout.write(`failed: ${name}\n`);
process.exit(failed ? 1 : 0);

/** Playwright's JSON report, as far as the summary reads it: suites of specs, each with its tests' outcomes. */
interface PlaywrightSuite {
  title?: string;
  file?: string;
  specs?: {
    title: string;
    line?: number;
    tests?: { status?: string; results?: { error?: { message?: string } }[] }[];
  }[];
  suites?: PlaywrightSuite[];
}

/**
 * The Playwright specs with a test of this status (`flaky`: failed, then passed on its retry; `unexpected`: failed
 * every try), as `file:line › title`, a failure with its last error's first line. The file is the spec file's (a
 * nested suite names the file its describe was written in, such as a helper's).
 */
function specsIn(suites: PlaywrightSuite[] | undefined, status: string, specFile?: string): string[] {
  return (suites ?? []).flatMap((suite) => {
    const file = specFile ?? suite.file ?? suite.title ?? '?';
    return [
      ...(suite.specs ?? []).flatMap((spec) =>
        (spec.tests ?? [])
          .filter((t) => t.status === status)
          .map((t) => {
            const name = `test/e2e/${file}:${spec.line ?? '?'} › ${spec.title}`;
            if (status === 'flaky') return name;
            const errors = (t.results ?? []).map((r) => r.error?.message);
            return withReason(
              name,
              errors.findLast((m) => m !== undefined),
            );
          }),
      ),
      ...specsIn(suite.suites, status, file),
    ];
  });
}

/** A failed test's name and the first line of its error, without colour codes, cut to one readable line. */
function withReason(name: string, error: string | undefined): string {
  const line = stripVTControlCharacters(error ?? '')
    .split('\n')
    .find((l) => l.trim() !== '');
  if (line === undefined) return name;
  const reason = line.trim();
  return `${name} — ${reason.length > 240 ? `${reason.slice(0, 239)}…` : reason}`;
}

/** Vitest's JSON report, as far as the summary reads it: each file's tests with their outcome and the errors met. */
interface VitestFile {
  name?: string;
  status?: string;
  message?: string;
  assertionResults?: { fullName?: string; status?: string; failureMessages?: string[] }[];
}

/** The tests that passed on their retry (they carry the failed try's errors), as `file › name`. */
function vitestFlaky(files: VitestFile[] | undefined): string[] {
  return (files ?? []).flatMap((file) =>
    (file.assertionResults ?? [])
      .filter((t) => t.status === 'passed' && (t.failureMessages?.length ?? 0) > 0)
      .map((t) => `${path.relative(ROOT, file.name ?? '?')} › ${t.fullName ?? '?'}`),
  );
}

/**
 * The tests that failed, as `file › name — first line of the last error`; a file that failed outside any test
 * (it did not load, a hook threw) as `file — its message`.
 */
function vitestFailed(files: VitestFile[] | undefined): string[] {
  return (files ?? []).flatMap((file) => {
    const where = path.relative(ROOT, file.name ?? '?');
    const tests = (file.assertionResults ?? [])
      .filter((t) => t.status === 'failed')
      .map((t) => withReason(`${where} › ${t.fullName ?? '?'}`, t.failureMessages?.at(-1)));
    if (tests.length === 0 && file.status === 'failed') return [withReason(where, file.message)];
    return tests;
  });
}

/** Sums vitest's and Playwright's JSON reports (a runner that did not report counts as nothing). */
function countTests(): { passed: number; failed: number; skipped: number; flaky: string[]; failures: string[] } {
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
    flaky: [
      ...vs.flatMap((v) => vitestFlaky(v?.['testResults'] as VitestFile[] | undefined)),
      ...specsIn(p?.['suites'] as PlaywrightSuite[] | undefined, 'flaky'),
    ],
    failures: [
      ...vs.flatMap((v) => vitestFailed(v?.['testResults'] as VitestFile[] | undefined)),
      ...specsIn(p?.['suites'] as PlaywrightSuite[] | undefined, 'unexpected'),
    ],
  };
}

/**
 * Runs a command at the lowest CPU priority with its stdout and stderr collected into one text (the static checks
 * beside the tests). The priority is set as it starts, before it starts processes of its own (they inherit it).
 */
function runBuffered(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      if (child.pid !== undefined) os.setPriority(child.pid, os.constants.priority.PRIORITY_LOW);
    } catch {
      // A system that refuses: the checks still run, at normal priority.
    }
    const chunks: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stderr.on('data', (d: Buffer) => chunks.push(d));
    child.on('error', (e) => resolve({ code: 1, output: `${String(e)}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString() }));
  });
}

/** Runs a step with the terminal as its output, without blocking this process (the static checks go on meanwhile). */
function runInherited(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: 'inherit' });
    child.on('error', (e) => {
      process.stderr.write(`${String(e)}\n`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/**
 * A temp dir on the RAM disk for the tests' files (every till's SQLite file, the hubs' PGlite dirs, the PostgreSQL
 * cluster, Chromium's profiles), when there is one with room: SQLite commits with an fsync (synchronous=FULL), about
 * 5 ms each on this machine's disk and next to nothing in RAM, and test/manager/manager.test.ts alone makes 1,107 of
 * them. They stay real files (a SIGKILLed process loses nothing on either). None: a TMPDIR the caller set, no
 * /dev/shm, one mounted noexec, or less than 4 GiB free in it (a container's 64 MiB /dev/shm).
 */
function ramTmpDir(): string | undefined {
  const shm = '/dev/shm';
  const TMPFS_MAGIC = 0x01021994;
  try {
    if (process.env.TMPDIR) return undefined;
    const mount = fs
      .readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .find((f) => f[1] === shm);
    if (!mount || mount[2] !== 'tmpfs' || (mount[3] ?? '').split(',').includes('noexec')) return undefined;
    const stats = fs.statfsSync(shm);
    if (stats.type !== TMPFS_MAGIC || stats.bavail * stats.bsize < 4 * 1024 ** 3) return undefined;
    const dir = fs.mkdtempSync(path.join(shm, 'kasa-tests-'));
    // Open to every user like /tmp (sticky): the PostgreSQL cluster runs as `postgres` (it refuses root), and it
    // must reach its own dir inside this one; mkdtemp's 0700 kept it out (every PostgreSQL suite failed on CI).
    fs.chmodSync(dir, 0o1777);
    return dir;
  } catch {
    return undefined;
  }
}
