/**
 * `npm run faults [-- --snapshots N] [--seed S] [--table]`: runs every fault scenario (test/faults/)
 * and prints one summary line `cases=N crashes=0 lost=0 duplicates=0`; `--table` also prints the
 * markdown table of docs/reliability.md. Exits 1 when anything failed.
 */
import { markdownTable, runAllFaults } from '../test/faults/index.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const snapshots = arg('snapshots') === undefined ? undefined : Number(arg('snapshots'));
const seed = arg('seed') === undefined ? undefined : Number(arg('seed'));
const t = await runAllFaults({ snapshots, seed, log: (l) => process.stderr.write(`${l}\n`) });
if (process.argv.includes('--table')) process.stderr.write(`\n${markdownTable(t)}\n\n`);
const failed = t.rows.filter((r) => !r.ok).length;
process.stdout.write(`cases=${t.cases} crashes=${t.crashes} lost=${t.lost} duplicates=${t.duplicates}\n`);
process.exitCode = t.crashes || t.lost || t.duplicates || failed ? 1 : 0;
