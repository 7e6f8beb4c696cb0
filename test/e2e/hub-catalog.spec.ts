/**
 * The hub's Артикли section in Chromium, in Serbian Cyrillic: a hub (child process, PGlite) with a catalog and a
 * till (the browser host) enrolled with it. A manager finds a product by searching, picks it (the form comes
 * filled, the code cannot be retyped), a negative price and a taken barcode are refused at their fields with
 * nothing changed, then the new price reaches the till; a group's prices go up 5 % after a preview of how many
 * change, and reach the till too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { HostProcess } from '../support/host-process.ts';
import { startHubProcess, type HubProcess } from '../support/hub-process.ts';
import { changePriceByPercent } from '../../shared/catalog/price-change.ts';
import { enrolledTill, openHubTab, stopTillAndHub } from './hub-support.ts';
import { wholePageShots } from './languages.ts';

const ADMIN = 'e2e-catalog-admin-token-0123456789abcd';
let hub: HubProcess;
let till: HostProcess;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-catalog-e2e-'));

const PRODUCTS = [
  { code: '1001', name: 'Сок од јабуке 1 л', pricePara: 15_990, group: 'Пиће', barcodes: ['8600000100018'] },
  { code: '1002', name: 'Вода 1,5 л', pricePara: 6_990, group: 'Пиће', barcodes: ['8600000100025'] },
  { code: '1003', name: 'Кисела вода 1 л', pricePara: 8_950, group: 'Пиће' },
  { code: '2001', name: 'Хлеб бели', pricePara: 6_500, group: 'Пекара' },
].map((p) => ({ label: 'Ж', unit: 'piece', ...p }));

/** A product's price on the till, in para (as its catalog has it now). */
async function tillPrice(code: string): Promise<number | undefined> {
  const r = await till.call<{ unitPricePara: number }>('catalog.byBarcode', { code });
  return r.body.value?.unitPricePara;
}

test.beforeAll(async () => {
  hub = await startHubProcess({ KASA_HUB_DATA: path.join(dir, 'hub'), KASA_HUB_ADMIN_TOKEN: ADMIN });
  const put = await fetch(`${hub.url}/api/admin/products`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ shopId: hub.shopId, products: PRODUCTS }),
  });
  expect(put.status, await put.text()).toBe(200);
  till = await enrolledTill(hub, 'CATE2E');
  await expect(async () => expect(await tillPrice('1001')).toBe(15_990)).toPass({ timeout: 20_000 });
});
test.afterAll(() => stopTillAndHub(till, hub, dir));

/** Logs in at the hub as the till's manager (who reaches the hub through the till's outbox). */
async function hubLogin(page: Page): Promise<void> {
  await openHubTab(page, hub, 'Артикли');
}

const shots = (page: Page, name: string): Promise<void> => wholePageShots(page, `catalog-${name}`);

test("edit a product's price by picking it, and it reaches a till", async ({ page }) => {
  await hubLogin(page);
  const section = page.getByRole('region', { name: 'Артикли' });
  const list = section.getByRole('table', { name: 'Артикли' });
  await expect(section.getByText('Приказано 4 од 4')).toBeVisible();
  await section.getByRole('searchbox', { name: /Претрага артикала/ }).fill('сок');
  await expect(list.getByRole('row')).toHaveCount(2); // the header and the juice
  await section.getByRole('button', { name: 'Измени артикал Сок од јабуке 1 л' }).click();
  const form = section.getByRole('form', { name: /Измена артикла/ });
  // Filled from the list; the code is shown, not typed.
  await expect(form.getByRole('textbox', { name: 'Шифра' })).toHaveCount(0);
  await expect(form.getByText('1001', { exact: true })).toBeVisible();
  await expect(form.getByLabel('Назив')).toHaveValue('Сок од јабуке 1 л');
  await expect(form.getByLabel('Цена (RSD)')).toHaveValue('159,90');
  await expect(form.getByLabel(/Бар-кодови/)).toHaveValue('8600000100018');
  await expect(form.getByLabel('Пореска ознака')).toHaveValue('Ж');

  // A negative price: at the price field, nothing sent.
  await form.getByLabel('Цена (RSD)').fill('-5');
  await form.getByRole('button', { name: 'Сачувај артикал' }).click();
  await expect(form.getByRole('alert')).toHaveText('Цена мора бити износ у динарима, нула или већи (нпр. 159,90).');
  await expect(form.getByLabel('Цена (RSD)')).toHaveAttribute('aria-invalid', 'true');
  // The water's barcode: refused by the hub, at the barcode field; the juice keeps its price everywhere.
  await form.getByLabel('Цена (RSD)').fill('189,90');
  await form.getByLabel(/Бар-кодови/).fill('8600000100018 8600000100025');
  await form.getByRole('button', { name: 'Сачувај артикал' }).click();
  await expect(form.getByRole('alert')).toHaveText('Један од ових бар-кодова већ припада другом артиклу.');
  await expect(list.getByRole('row', { name: /1001/ })).toContainText('159,90');
  await shots(page, 'hub-edit');

  await form.getByLabel(/Бар-кодови/).fill('8600000100018');
  await form.getByRole('button', { name: 'Сачувај артикал' }).click();
  await expect(section.getByRole('status')).toContainText('Сачувано: Сок од јабуке 1 л');
  await expect(form).toHaveCount(0);
  await expect(list.getByRole('row', { name: /1001/ })).toContainText('189,90');
  // On the till within seconds (it pulls every second), under the same code and name.
  await expect(async () => expect(await tillPrice('8600000100018')).toBe(18_990)).toPass({ timeout: 15_000 });
  const scanned = await till.call<{ product: { code: string; name: string } }>('catalog.byBarcode', { code: '1001' });
  expect(scanned.body.value?.product).toMatchObject({ code: '1001', name: 'Сок од јабуке 1 л' });
});

test('a bulk +5 % on a group', async ({ page }) => {
  await hubLogin(page);
  const section = page.getByRole('region', { name: 'Артикли' });
  const bulk = section.getByRole('form', { name: 'Промена цена групе у процентима' });
  const before = await Promise.all(['1001', '1002', '1003', '2001'].map((c) => tillPrice(c)));

  // Letters in the percentage, and no group: both said at their fields.
  await bulk.getByLabel('Проценат промене (%)').fill('5a');
  await bulk.getByRole('button', { name: 'Прегледај' }).click();
  await expect(bulk.getByText('Изаберите групу артикала.')).toBeVisible();
  await expect(bulk.getByText(/Унесите проценат бројем/)).toBeVisible();
  await expect(bulk.getByLabel('Проценат промене (%)')).toHaveAttribute('aria-invalid', 'true');

  await bulk.getByLabel('Група артикала').selectOption('Пиће');
  await bulk.getByLabel('Проценат промене (%)').fill('+5');
  await bulk.getByRole('button', { name: 'Прегледај' }).click();
  await expect(bulk.getByRole('status')).toHaveText('Цене 3 артикла групе „Пиће“ ће се променити за +5 %. Потврдите.');
  await shots(page, 'hub-bulk');
  await bulk.getByRole('button', { name: 'Промени цене' }).click();
  await expect(section.getByRole('status').first()).toHaveText('Промењене су цене 3 артикла групе „Пиће“ за +5 %.');
  const list = section.getByRole('table', { name: 'Артикли' });
  await expect(list.getByRole('row', { name: /1002/ })).toContainText('73,40'); // 69,90 + 5 % = 73,395
  await expect(list.getByRole('row', { name: /2001/ })).toContainText('65,00');
  await expect(async () => {
    const after = await Promise.all(['1001', '1002', '1003', '2001'].map((c) => tillPrice(c)));
    expect(after).toEqual([
      changePriceByPercent(before[0] ?? -1, 500),
      changePriceByPercent(before[1] ?? -1, 500),
      changePriceByPercent(before[2] ?? -1, 500),
      before[3],
    ]);
  }).toPass({ timeout: 15_000 });
  await shots(page, 'hub-list');

  // In the hub's audit, in words.
  await page.getByRole('tab', { name: 'Дневник' }).click();
  await expect(
    page.getByRole('table', { name: 'Дневник' }).getByRole('row', { name: /На хабу промењене цене групе/ }),
  ).toContainText('групе „Пиће“ за +5 %: 3 артикла');
});
