/**
 * Rigs (test/support/rig.ts) made by a test and closed after it, newest first: `const newRig = rigsAfterEach();` in a
 * file, then `const rig = await newRig({ ... })` in a test. Apart from rig.ts, which the benchmarks import outside
 * vitest.
 */
import { afterEach } from 'vitest';
import { makeRig, type Rig } from './rig.ts';

export function rigsAfterEach(): (options?: Parameters<typeof makeRig>[0]) => Promise<Rig> {
  const open: Rig[] = [];
  afterEach(async () => {
    for (const rig of open.splice(0).reverse()) await rig.close();
  });
  return async (options) => {
    const rig = await makeRig(options);
    open.push(rig);
    return rig;
  };
}
