/**
 * `npm run fuzz -- --runs N [--seed S] [--only cmd1,cmd2]`: fuzzes every contract command through the
 * browser host (test/hostile/fuzz.ts) and prints one summary line:
 * `cases=N crashes=0 lost=0 duplicates=0`. Exits 1 when anything failed.
 */
import { runFuzz, summaryLine } from '../test/hostile/fuzz.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}

const runs = Number(arg('runs') ?? 2000);
const seed = arg('seed') === undefined ? undefined : Number(arg('seed'));
const only = arg('only')?.split(',').filter(Boolean);
const r = await runFuzz({ runs, seed, only, log: (l) => process.stderr.write(`${l}\n`) });
process.stderr.write(
  `commands=${r.commands} accepted=${r.accepted} rejected=${r.rejected} digestChecks=${r.digestChecks} failures=${r.failures.length} ` +
    `statuses=${JSON.stringify(r.statuses)} seconds=${r.seconds.toFixed(1)}\n`,
);
process.stdout.write(`${summaryLine(r)}\n`);
process.exitCode = r.crashes || r.lost || r.duplicates || r.failures.length ? 1 : 0;
