/**
 * Parked carts travel between tills as gateway drafts: two real cores (two tills of one shop, their own
 * SQLite files) against one sandbox gateway over HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore, type Core } from '../../electron/core.ts';
import { signIn } from '../support/session.ts';
import { createLogger } from '../../electron/log/logger.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import type { ParkedSaleSummary, ParkedSaleView, RemoteParkedSale } from '../../shared/contract/catalog.ts';

let sandbox: Sandbox;
const cores: Core[] = [];
const dirs: string[] = [];

async function till(terminal: string): Promise<Core> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `kasa-till-${terminal}-`));
  dirs.push(dataDir);
  const core = await createCore({
    dataDir,
    transport: 'host',
    env: { KASA_API_KEY: 'demo-key', KASA_GATEWAY_URL: sandbox.url, KASA_TERMINAL_ID: terminal, KASA_LANG: 'en' },
    logger: createLogger({ echo: process.env.DEBUG_TILL === '1' }),
  });
  cores.push(core);
  await signIn(core);
  return core;
}

async function ok<T>(core: Core, command: string, input: unknown = {}): Promise<T> {
  const r = await core.dispatch(command, input);
  if (!r.ok) throw new Error(`${command}: ${JSON.stringify(r.error)}`);
  return r.value as T;
}

const cart = {
  lines: [
    {
      name: 'Хлеб бели',
      unitPricePara: 6500,
      quantityMilli: 2000,
      discountPara: 0,
      label: 'E',
      unit: 'piece' as const,
    },
    { name: 'Сир', unitPricePara: 120000, quantityMilli: 350, discountPara: 1000, label: 'A', unit: 'kg' as const },
  ],
};

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterEach(async () => {
  for (const c of cores.splice(0)) await c.close();
  await sandbox.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('parked carts as gateway drafts', () => {
  it('a cart parked on one till is taken on another, exactly once, and disappears from the first', async () => {
    const a = await till('TILLA');
    const b = await till('TILLB');
    const parked = await ok<ParkedSaleSummary>(a, 'parked.save', { name: 'Госпођа са сиром', cart });
    await expect.poll(async () => (await ok<{ sales: RemoteParkedSale[] }>(b, 'parked.remote')).sales.length).toBe(1);
    const remote = await ok<{ online: boolean; sales: RemoteParkedSale[] }>(b, 'parked.remote');
    expect(remote.online).toBe(true);
    expect(remote.sales[0]).toMatchObject({
      name: 'Госпођа са сиром',
      terminal: 'TILLA',
      lines: 2,
      totalPara: 13000 + 42000 - 1000,
    });
    // Till A does not see its own cart as remote.
    expect((await ok<{ sales: RemoteParkedSale[] }>(a, 'parked.remote')).sales).toEqual([]);

    const taken = await ok<ParkedSaleView>(b, 'parked.takeRemote', { draftId: remote.sales[0]!.draftId });
    expect(taken.cart).toEqual(cart);
    const again = await b.dispatch('parked.takeRemote', { draftId: remote.sales[0]!.draftId });
    expect(again).toMatchObject({ ok: false, error: { code: 'not_found' } });

    // Till A: resuming its copy is refused (another till has it), and its list no longer shows it.
    const mine = await a.dispatch('parked.take', { id: parked.id });
    expect(mine).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'Another till has already taken this parked sale.' },
    });
    expect(await ok<ParkedSaleSummary[]>(a, 'parked.list')).toEqual([]);
  });

  it('offline parking stays local and is mirrored when the gateway is back; taking it locally deletes the draft', async () => {
    const a = await till('TILLA');
    const b = await till('TILLB');
    sandbox.controls.setOffline(true);
    const parked = await ok<ParkedSaleSummary>(a, 'parked.save', { cart });
    expect((await ok<{ online: boolean }>(b, 'parked.remote')).online).toBe(false);
    sandbox.controls.setOffline(false);
    await ok(a, 'parked.list');
    await expect.poll(async () => (await ok<{ sales: RemoteParkedSale[] }>(b, 'parked.remote')).sales.length).toBe(1);
    const view = await ok<ParkedSaleView>(a, 'parked.take', { id: parked.id });
    expect(view.cart).toEqual(cart);
    expect((await ok<{ sales: RemoteParkedSale[] }>(b, 'parked.remote')).sales).toEqual([]);
  });
});
