/**
 * Every fault scenario in one run (`npm run faults`): hostile gateway replies, disk full and read-only
 * storage, power cuts of a child-process writer, printer faults. Returns the tally and the table rows.
 */
import { runGatewayFaults } from './gateway.ts';
import { merge, newTally, type FaultTally } from './harness.ts';
import { runPowerCuts } from './power.ts';
import { runPrinterFaults } from './printer.ts';
import { runStorageFaults } from './storage.ts';

export interface AllFaultsOptions {
  /** Copies taken of the running writer in the power-cut run. */
  snapshots?: number;
  seed?: number;
  log?: (line: string) => void;
}

export async function runAllFaults(options: AllFaultsOptions = {}): Promise<FaultTally> {
  const log = options.log ?? (() => undefined);
  const tally = newTally();
  merge(tally, await runGatewayFaults(log));
  merge(tally, await runStorageFaults(log));
  merge(tally, await runPowerCuts({ snapshots: options.snapshots ?? 20, seed: options.seed, log }));
  merge(tally, await runPrinterFaults(log));
  return tally;
}

/** The table of docs/reliability.md. */
export function markdownTable(t: FaultTally): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    '| Area | Fault | Result | |',
    '|---|---|---|---|',
    ...t.rows.map(
      (r) =>
        `| ${esc(r.area)} | ${esc(r.fault)} | ${esc(r.result)} | ${!r.ok ? 'FAIL' : r.known ? 'limitation' : 'ok'} |`,
    ),
  ].join('\n');
}
