/**
 * The hub's Роба tab in Chromium (docs/goods.md "At the hub"): a hub (child process, PGlite) with two shops and a
 * till enrolled (its manager logs in at the hub). A goods receipt posted through the hub's API, a transfer sent from
 * shop B to shop A; the manager of shop A sees the stock and its value by shop, receives the transfer as sent, and
 * reads the KEP, in the three languages; screenshots at 1024×768 and 1366×768.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signInHost, startHostProcess, type HostProcess } from '../support/host-process.ts';
import { startHubProcess, type HubProcess } from '../support/hub-process.ts';
import { loginAtHub } from './hub-support.ts';

const ADMIN = 'e2e-goods-admin-token-0123456789abcdef';
const SHOTS = '/work/shots/goods-hub';
let hub: HubProcess;
let till: HostProcess;
let shopB = 0;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-goods-e2e-'));

const admin = async (method: string, p: string, body: unknown): Promise<Record<string, unknown>> => {
  const r = await fetch(`${hub.url}${p}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  expect(r.status, text).toBeLessThan(300);
  return JSON.parse(text) as Record<string, unknown>;
};

const PRODUCTS = [
  { code: '1001', name: 'Сок од јабуке 1 л', pricePara: 15_990 },
  { code: '2001', name: 'Хлеб бели', pricePara: 6_500 },
].map((p) => ({ label: 'Ж', unit: 'piece', group: 'Храна', ...p }));

test.beforeAll(async () => {
  hub = await startHubProcess({ KASA_HUB_DATA: path.join(dir, 'hub'), KASA_HUB_ADMIN_TOKEN: ADMIN });
  shopB = (await admin('POST', '/api/admin/shops', { name: 'Продавница Центар' })).shopId as number;
  for (const shopId of [hub.shopId, shopB]) await admin('PUT', '/api/admin/products', { shopId, products: PRODUCTS });
  for (const [shopId, invoice] of [
    [hub.shopId, 'F-100'],
    [shopB, 'F-200'],
  ] as const)
    await admin('POST', '/api/admin/goods/receipts', {
      shopId,
      supplier: 'Воћни сокови д.о.о.',
      pib: '101134702',
      invoiceNumber: invoice,
      invoiceDate: '2026-11-27',
      lines: [
        { code: '1001', qtyMilli: 24_000, purchasePara: 9_000 },
        { code: '2001', qtyMilli: 40_000, purchasePara: 4_000 },
      ],
    });
  await admin('POST', '/api/admin/goods/write-offs', {
    shopId: hub.shopId,
    code: '2001',
    qtyMilli: 2_000,
    reason: 'Лом',
  });
  await admin('POST', '/api/admin/goods/transfers', {
    shopId: shopB,
    toShopId: hub.shopId,
    lines: [{ code: '1001', qtyMilli: 6_000 }],
  });
  till = await startHostProcess({
    env: {
      KASA_TERMINAL_ID: 'GOODSE2E',
      KASA_HUB_URL: hub.url,
      KASA_HUB_ENROL_CODE: hub.enrolCode,
      KASA_LANG: 'sr-Cyrl',
    },
  });
  await signInHost(till);
});
test.afterAll(async () => {
  await till?.stop();
  await hub?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  if (till) fs.rmSync(till.dataDir, { recursive: true, force: true });
});

test('the Роба tab: stock and value by shop, a transfer received, the KEP; three languages', async ({ page }) => {
  await page.goto(hub.url);
  await loginAtHub(page);
  await page.getByRole('tab', { name: 'Роба' }).click();
  const stock = page.getByRole('table', { name: 'Залихе' });
  await expect(stock.getByRole('row', { name: /Хлеб бели/ })).toContainText('2001Хлеб бели38');
  // A shop's manager sees their own shop's value (the admin token sees every shop's): 24 × 159,90 + 38 × 65,00.
  await expect(page.getByRole('table', { name: 'Вредност залиха по продавницама' })).toContainText('6.307,60');
  await page.getByRole('button', { name: /Прими пренос бр\. 1\/\d{4} како је послат/ }).click();
  await expect(page.getByRole('status')).toHaveText('Пренос је примљен.');
  await expect(stock.getByRole('row', { name: /Сок од јабуке/ })).toContainText('1001Сок од јабуке 1 л30');
  const kep = page.getByRole('table', { name: 'КЕП' });
  await expect(kep).toContainText('Пријем преноса бр. 1/');
  await expect(kep).toContainText('Отпис бр. 1/');
  await expect(page.getByText(/Почетно стање/)).toBeVisible();
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'КЕП као PDF' }).click(),
  ]);
  expect(pdf.suggestedFilename()).toMatch(/^KEP-.*\.pdf$/);
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [lang, tab] of [
    ['sr-Cyrl', 'Роба'],
    ['sr-Latn', 'Roba'],
    ['en', 'Goods'],
  ] as const) {
    if (lang !== 'sr-Cyrl') {
      await page.getByLabel(lang === 'sr-Latn' ? 'Језик' : 'Jezik').selectOption(lang);
      await expect(page.getByRole('tab', { name: tab })).toBeVisible();
    }
    for (const size of [
      { width: 1024, height: 768 },
      { width: 1366, height: 768 },
    ]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: path.join(SHOTS, `hub-goods-${lang}-${size.width}.png`), fullPage: true });
    }
  }
  await expect(page.getByRole('table', { name: 'KEP book' })).toContainText('Transfer received no. 1/');
});
