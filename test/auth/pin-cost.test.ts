/**
 * The PIN hashes' scrypt cost (shared/node/pin.ts): a process started without `KASA_TEST_PIN_COST` (every till and
 * hub in use, the benchmarks) hashes at log2 N = 14; the test runs lower it (test/support/pin-cost.ts), and a hash is
 * only good at the cost it was made with, so the variable really changes the work done.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashPin, PIN_COST_LOG2, verifyPin } from '../../shared/node/pin.ts';
import { TEST_PIN_COST } from '../support/pin-cost.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PIN_MODULE = path.join(ROOT, 'shared/node/pin.ts');

/** Runs `code` (an ES module body with `pin` imported) in a fresh Node with `cost` as the variable (none: unset). */
function inProcess(code: string, cost: string | undefined): { status: number | null; out: string; err: string } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.KASA_TEST_PIN_COST;
  if (cost !== undefined) env.KASA_TEST_PIN_COST = cost;
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `const pin = await import(${JSON.stringify(PIN_MODULE)});\n${code}`],
    { env, encoding: 'utf8' },
  );
  return { status: r.status, out: r.stdout.trim(), err: r.stderr };
}

describe('the PIN hashes’ scrypt cost', () => {
  it('is the test run’s here, and 14 in a process started without the variable (a till, a hub, a benchmark)', () => {
    expect(PIN_COST_LOG2).toBe(Number(TEST_PIN_COST));
    expect(inProcess('console.log(pin.PIN_COST_LOG2)', undefined).out).toBe('14');
    expect(inProcess('console.log(pin.PIN_COST_LOG2)', '').out).toBe('14');
  });

  it('a hash made at the real cost is refused at the test cost and accepted at the real one', async () => {
    const real = inProcess("console.log(await pin.hashPin('4821'))", undefined).out;
    expect(real).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(await verifyPin('4821', real)).toBe(false);
    expect(inProcess(`console.log(await pin.verifyPin('4821', ${JSON.stringify(real)}))`, undefined).out).toBe('true');
    expect(await verifyPin('4821', await hashPin('4821'))).toBe(true);
  });

  it('a cost out of range stops the process naming the variable, instead of hashing at some other cost', () => {
    for (const bad of ['9', '14', '12.5', 'fast']) {
      const r = inProcess('console.log(pin.PIN_COST_LOG2)', bad);
      expect(r.status).not.toBe(0);
      expect(r.err).toContain(`KASA_TEST_PIN_COST must be 10 to 13, not ${bad}`);
    }
  });
});
