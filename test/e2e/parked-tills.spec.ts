/**
 * Two tills of one shop (two hosts, own databases, one gateway): a sale parked on till A is picked up on
 * till B through the gateway's drafts, once.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { signInHost, startHostProcess, type HostProcess } from '../support/host-process.ts';
import { login, pieceItem, rsd, scan } from './counter-support.ts';
import { MANAGER_PIN } from '../support/session.ts';

const BREAD = pieceItem('1001');
const MILK = pieceItem('1004');

let sandbox: Sandbox;
const hosts: HostProcess[] = [];

test.beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});
test.afterEach(async () => {
  for (const h of hosts.splice(0)) {
    await h.stop();
    fs.rmSync(h.dataDir, { recursive: true, force: true });
  }
  await sandbox.close();
});

async function till(terminal: string): Promise<HostProcess> {
  const host = await startHostProcess({
    env: { KASA_API_KEY: 'demo-key', KASA_GATEWAY_URL: sandbox.url, KASA_TERMINAL_ID: terminal },
  });
  hosts.push(host);
  await signInHost(host);
  const loaded = await host.call('catalog.loadSample', { approval: { managerPin: MANAGER_PIN } });
  expect(loaded.body.ok).toBe(true);
  return host;
}

test('a sale parked on one till is resumed on another', async ({ browser }) => {
  const a = await till('KASA1');
  const b = await till('KASA2');
  const pageA = await browser.newPage();
  const pageB = await browser.newPage();
  await pageA.goto(`${a.url}#token=${a.token}`);
  await pageB.goto(`${b.url}#token=${b.token}`);
  await login(pageA);
  await login(pageB);

  await scan(pageA, BREAD.barcode);
  await scan(pageA, MILK.barcode);
  await expect(pageA.getByTestId('cart-total')).toHaveText(rsd(BREAD.pricePara + MILK.pricePara));
  await pageA.keyboard.press('F9');
  const park = pageA.getByRole('dialog', { name: 'Паркирај продају' });
  await park.getByLabel('Назив (нпр. име купца)').fill('Марко');
  await pageA.keyboard.press('Enter');
  await expect(park).toHaveCount(0);

  // Till B sees it under "from other tills" and resumes it.
  const parked = pageB.getByRole('dialog', { name: 'Паркиране продаје' });
  const other = parked.getByRole('region', { name: 'Са других каса' });
  await expect(async () => {
    if (await parked.isVisible()) await pageB.keyboard.press('Escape');
    await expect(parked).toHaveCount(0);
    await pageB.keyboard.press('F7');
    await expect(other.getByRole('button', { name: /^Настави: Марко — каса KASA1, 2 ставки/ })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await other.getByRole('button', { name: /^Настави: Марко — каса KASA1/ }).click();
  await expect(parked).toHaveCount(0);
  await expect(pageB.getByTestId('cart-total')).toHaveText(rsd(BREAD.pricePara + MILK.pricePara));

  // Till A no longer offers it.
  await pageA.keyboard.press('F7');
  const parkedA = pageA.getByRole('dialog', { name: 'Паркиране продаје' });
  await expect(parkedA.getByText('Нема паркираних продаја.')).toBeVisible();
});
