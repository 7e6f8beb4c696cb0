/**
 * A hub process whose start fails after it is running is ended by the helper that started it
 * (test/support/hub-process.ts): the test gets no handle to stop it with, and such a hub, left running after a
 * failed test, kept taking CPU from the rest of the run. Linux only: the hub is found by its data dir in
 * /proc/<pid>/environ, as nothing else names it once the start has thrown.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startHubProcess } from '../support/hub-process.ts';
import { untilValue } from '../support/poll.ts';
import { processBackends } from './backends.ts';

const { backends, cleanup } = processBackends('kasa-hub-start-');
afterAll(cleanup);

/** The processes whose environment names `KASA_HUB_DATA=<dir>`. */
function processesOn(dir: string): number[] {
  const wanted = `KASA_HUB_DATA=${dir}`;
  return fs.readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      const env = fs.readFileSync(`/proc/${name}/environ`, 'latin1').split('\0');
      return env.includes(wanted) ? [Number(name)] : [];
    } catch {
      return []; // gone meanwhile, or not ours to read
    }
  });
}

describe.skipIf(process.platform !== 'linux')('a hub whose start fails half-way', () => {
  it('is ended when its admin API refuses the enrolment code the helper asks for', async () => {
    const env = await backends[0]!.env();
    // The hub trims the token it is given; the helper sends it as given, so the admin API answers 401.
    const start = startHubProcess({ ...env, KASA_HUB_ADMIN_TOKEN: ` ${'hub-start-admin-token-'.repeat(2)}` });
    await expect(start).rejects.toThrow();
    const left = await untilValue(
      'no hub process left on the data dir',
      () => processesOn(env.KASA_HUB_DATA!),
      (pids) => pids.length === 0,
      { tries: 200, everyMs: 25 },
    ).catch(() => processesOn(env.KASA_HUB_DATA!));
    expect(left).toEqual([]);
  });
});
