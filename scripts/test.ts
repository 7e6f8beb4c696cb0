/**
 * `npm test`: typecheck, lint, vitest (unit + integration), Playwright e2e through the host in Chromium.
 * Runs every step even when one fails, then prints a summary and exits non-zero if any failed.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './build-if-stale.ts';

const bin = (name: string): string => path.join(ROOT, 'node_modules', '.bin', name);
const steps: [string, string, string[]][] = [
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['lint', bin('eslint'), ['--max-warnings', '0', '.']],
  ['vitest', bin('vitest'), ['run']],
  ['build', bin('electron-vite'), ['build']],
  ['playwright', bin('playwright'), ['test']],
];
const only = process.argv.slice(2);
const results: { name: string; ok: boolean; seconds: number }[] = [];
for (const [name, cmd, args] of steps) {
  if (only.length && !only.includes(name)) continue;
  const started = Date.now();
  process.stdout.write(`\n=== ${name}: ${[path.basename(cmd), ...args].join(' ')}\n`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env: process.env });
  results.push({ name, ok: r.status === 0, seconds: (Date.now() - started) / 1000 });
}
process.stdout.write('\n=== summary\n');
for (const r of results) process.stdout.write(`${r.ok ? 'PASS' : 'FAIL'} ${r.name} (${r.seconds.toFixed(1)} s)\n`);
const failed = results.filter((r) => !r.ok).length;
process.exit(failed ? 1 : 0);
