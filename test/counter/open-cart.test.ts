/**
 * The counter's open cart lives in the core: saved at each change with a growing revision, brought back
 * after a reload or a SIGKILL of the host, and closed by the checkout that sells it, in the order's own
 * transaction, so that a save arriving late never brings back a sold cart. Real cores (SQLite files, the
 * sandbox over HTTP) and a real host process killed with SIGKILL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenCartView } from '../../shared/contract/sales.ts';
import { BREAD_AND_MILK, closeCores, fails, ok, startCore } from '../support/session.ts';
import { signInHost, startHostProcess, type HostProcess } from '../support/host-process.ts';

const BREAD = {
  name: 'Хлеб',
  unitPricePara: 8000,
  quantityMilli: 3000,
  discountPara: 0,
  label: 'A',
  unit: 'piece' as const,
};
const CHEESE = { ...BREAD, name: 'Сир', unitPricePara: 89900, quantityMilli: 614, unit: 'kg' as const };

let host: HostProcess | null = null;
afterEach(async () => {
  await host?.stop(true);
  host = null;
  await closeCores();
});

describe('the open cart', () => {
  it('a later revision wins, an older one arriving late changes nothing', async () => {
    const core = await startCore();
    expect(await ok<OpenCartView>(core, 'cart.get')).toMatchObject({ rev: 0, lines: [] });
    expect(await ok(core, 'cart.save', { rev: 1, lines: [BREAD] })).toEqual({ rev: 1, saved: true });
    expect(await ok(core, 'cart.save', { rev: 3, lines: [BREAD, CHEESE] })).toEqual({ rev: 3, saved: true });
    expect(await ok(core, 'cart.save', { rev: 2, lines: [BREAD] })).toEqual({ rev: 2, saved: false });
    expect(await ok<OpenCartView>(core, 'cart.get')).toMatchObject({ rev: 3, lines: [BREAD, CHEESE] });
  });

  it('the checkout that sells revision n empties the cart; a save of n (or lower) arriving after it is ignored', async () => {
    const core = await startCore();
    await ok(core, 'cart.save', { rev: 5, lines: [BREAD] });
    await ok(core, 'sales.checkout', { ...BREAD_AND_MILK, cartRev: 5 });
    expect(await ok<OpenCartView>(core, 'cart.get')).toMatchObject({ rev: 5, lines: [] });
    expect(await ok(core, 'cart.save', { rev: 5, lines: [BREAD] })).toMatchObject({ saved: false });
    expect(await ok(core, 'cart.save', { rev: 4, lines: [BREAD] })).toMatchObject({ saved: false });
    expect((await ok<OpenCartView>(core, 'cart.get')).lines).toEqual([]);
    // The next sale's cart goes on above it.
    expect(await ok(core, 'cart.save', { rev: 6, lines: [CHEESE] })).toMatchObject({ saved: true });
    expect((await ok<OpenCartView>(core, 'cart.get')).lines).toEqual([CHEESE]);
  });

  it('refuses a bad cart at its field, and keeps the cart already saved', async () => {
    const core = await startCore();
    await ok(core, 'cart.save', { rev: 1, lines: [BREAD] });
    const bad = await fails(core, 'cart.save', { rev: 2, lines: [{ ...BREAD, quantityMilli: 0.5 }] });
    expect(bad).toMatchObject({ code: 'invalid_input', field: 'lines.0.quantityMilli' });
    expect(await fails(core, 'cart.save', { rev: 0, lines: [] })).toMatchObject({ field: 'rev' });
    expect((await ok<OpenCartView>(core, 'cart.get')).lines).toEqual([BREAD]);
  });

  it('survives a SIGKILL of the host', async () => {
    host = await startHostProcess();
    await signInHost(host);
    const saved = await host.call('cart.save', { rev: 7, lines: [BREAD, CHEESE] });
    expect(saved.body).toMatchObject({ ok: true, value: { saved: true } });
    const dataDir = host.dataDir;
    await host.stop(true);
    host = await startHostProcess({ dataDir });
    await signInHost(host, undefined, false);
    const back = await host.call<OpenCartView>('cart.get');
    expect(back.body.value).toMatchObject({ rev: 7, lines: [BREAD, CHEESE] });
  });
});
