/**
 * Two tills of one shop (two hosts, own databases, one gateway): a sale parked on till A is picked up on
 * till B through the gateway's drafts, once; with a store hub (a real hub process) the same through the hub
 * while the internet (the gateway) is down.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { awaitPulledManager, signInHost, startHostProcess, type HostProcess } from '../support/host-process.ts';
import { login, pieceItem, rsd, scan } from './counter-support.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { startHubProcess, type HubProcess } from '../support/hub-process.ts';

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

async function till(terminal: string, hubEnv: Record<string, string> = {}, takesManager = false): Promise<HostProcess> {
  const host = await startHostProcess({
    env: { KASA_API_KEY: 'demo-key', KASA_GATEWAY_URL: sandbox.url, KASA_TERMINAL_ID: terminal, ...hubEnv },
  });
  hosts.push(host);
  if (hubEnv.KASA_HUB_URL) {
    // The first till sets its first-run PIN (the shop adopts that manager). The second takes the shop's manager
    // by pull: its own first PIN would be a new person waiting for a staff choice, and pulls with it.
    if (takesManager) await awaitPulledManager(host.dataDir);
    else await host.call('staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
    await signInHost(host, MANAGER_PIN, false);
    // A till the test uses as set up: the counter opens on the sale screen, not the first-run setup flow.
    const setUp = await host.call('settings.update', { managerPin: MANAGER_PIN, setupDone: true });
    expect(setUp.body.ok).toBe(true);
  } else await signInHost(host);
  const loaded = await host.call('catalog.loadSample', { approval: { managerPin: MANAGER_PIN } });
  expect(loaded.body.ok).toBe(true);
  return host;
}

test('a sale parked on one till is resumed on another', async ({ browser }) => {
  await parkOnAResumeOnB(browser, await till('KASA1'), await till('KASA2'));
});

test('with a store hub a sale parked on one till is resumed on another while the internet is down', async ({
  browser,
}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-parked-hub-e2e-'));
  const hub: HubProcess = await startHubProcess({
    KASA_HUB_DATA: path.join(dir, 'hub'),
    KASA_HUB_ADMIN_TOKEN: 'e2e-admin-token-0123456789abcdefgh',
  });
  try {
    const code = async (): Promise<string> => {
      const r = await fetch(`${hub.url}/api/admin/enrol-codes`, {
        method: 'POST',
        headers: { authorization: 'Bearer e2e-admin-token-0123456789abcdefgh', 'content-type': 'application/json' },
        body: JSON.stringify({ shopId: hub.shopId }),
      });
      return ((await r.json()) as { code: string }).code;
    };
    const a = await till('KASA1', { KASA_HUB_URL: hub.url, KASA_HUB_ENROL_CODE: hub.enrolCode });
    const b = await till('KASA2', { KASA_HUB_URL: hub.url, KASA_HUB_ENROL_CODE: await code() }, true);
    for (const h of [a, b]) {
      await expect(async () =>
        expect((await h.call('hub.status', {})).body).toMatchObject({ ok: true, value: { enrolled: true } }),
      ).toPass({ timeout: 15_000 });
    }
    sandbox.controls.setOffline(true);
    await parkOnAResumeOnB(browser, a, b);
  } finally {
    await hub.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

async function parkOnAResumeOnB(browser: Browser, a: HostProcess, b: HostProcess): Promise<void> {
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
    await expect(other.getByRole('button', { name: /^Настави: Марко — каса KASA1, 2 ставке/ })).toBeVisible({
      timeout: 1000,
    });
  }).toPass({ timeout: 15_000 });
  await other.getByRole('button', { name: /^Настави: Марко — каса KASA1/ }).click();
  await expect(parked).toHaveCount(0);
  await expect(pageB.getByTestId('cart-total')).toHaveText(rsd(BREAD.pricePara + MILK.pricePara));

  // Till A no longer offers it.
  await pageA.keyboard.press('F7');
  const parkedA = pageA.getByRole('dialog', { name: 'Паркиране продаје' });
  await expect(parkedA.getByText('Нема паркираних продаја.')).toBeVisible();
}
