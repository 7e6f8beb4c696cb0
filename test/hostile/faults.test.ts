/**
 * CI version of `npm run faults`: the same scenarios (test/faults/), with fewer power-cut copies.
 */
import { describe, expect, it } from 'vitest';
import { runGatewayFaults } from '../faults/gateway.ts';
import { runPowerCuts } from '../faults/power.ts';
import { runPrinterFaults } from '../faults/printer.ts';
import { runStorageFaults } from '../faults/storage.ts';
import type { FaultTally } from '../faults/harness.ts';

function expectClean(t: FaultTally): void {
  expect(t.rows.filter((r) => !r.ok)).toEqual([]);
  expect({ crashes: t.crashes, lost: t.lost, duplicates: t.duplicates }).toEqual({
    crashes: 0,
    lost: 0,
    duplicates: 0,
  });
  expect(t.cases).toBeGreaterThan(0);
}

describe('failing parts', () => {
  it('malformed gateway replies: orders stay queued, then are fiscalized exactly once', async () => {
    const t = await runGatewayFaults();
    expect(t.rows.length).toBeGreaterThanOrEqual(17);
    expectClean(t);
  });

  it('disk full and read-only database: checkout answers storage, saved orders intact, recovery', async () => {
    expectClean(await runStorageFaults());
  });

  it('disk full simulated with max_page_count (where tmpfs cannot be mounted)', async () => {
    const t = await runStorageFaults(undefined, { mount: false });
    expect(t.rows.every((r) => r.fault.includes('max_page_count'))).toBe(true);
    expectClean(t);
  });

  it('power cut: copies of a running writer and of a killed one open intact with every acknowledged order', async () => {
    const t = await runPowerCuts({ snapshots: 4, seed: 11 });
    expect(t.cases).toBe(5);
    expectClean(t);
  });

  it('printer faults mid-job: retried or reported, never lost, never re-fiscalized', async () => {
    const t = await runPrinterFaults();
    expect(t.rows.find((r) => r.known)?.result).toMatch(/printed while the printer read 0 bytes/);
    expectClean(t);
  });
});
