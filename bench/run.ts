/**
 * `npm run bench` runs every benchmark; `npm run bench -- NAME [NAME…]` runs some. A benchmark is
 * bench/NAME.bench.ts; it prints one line per figure:
 *   BENCH <name> <metric>=<value><unit> limit=<value><unit> ratio=<value/limit>
 * Benchmarks run one after another (never in parallel) so their figures are comparable.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const all = fs
  .readdirSync(HERE)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${all.join(', ')}`);
  process.exit(2);
}
const lines: string[] = [];
let failed = 0;
for (const name of wanted.length ? wanted : all) {
  process.stderr.write(`--- bench ${name}\n`);
  const r = spawnSync(process.execPath, [path.join(HERE, `${name}.bench.ts`)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    env: process.env,
  });
  process.stdout.write(r.stdout);
  lines.push(...r.stdout.split('\n').filter((l) => l.startsWith('BENCH ')));
  if (r.status !== 0) {
    failed++;
    process.stderr.write(`bench ${name} exited with ${r.status}\n`);
  }
}
process.stdout.write(`\n--- summary (${lines.length} figures)\n${lines.join('\n')}\n`);
process.exit(failed ? 1 : 0);
