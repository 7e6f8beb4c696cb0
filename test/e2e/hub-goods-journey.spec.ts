/**
 * Issue 40's whole path on a two-till shop with a store hub, in Chromium (docs/goods.md): a goods receipt posted in
 * the hub UI → a sale rung up at till 1's counter → one loaf of it refunded at till 2 (its manager's Поврат tab, by
 * the receipt's invoice number, which till 2 finds through the hub) → a price raised in the hub's catalog with goods
 * on hand → a stock-taking at the hub with one loaf short → the KEP. Each step moves the shop's one book at the hub
 * once, and the KEP's balance ends at Σ stock × retail price. A hub child process on PGlite, two till processes
 * enrolled by their own codes, all on the sandbox gateway; the tills' own books move nothing (docs/goods.md "Which
 * book"). Screenshots with KASA_SHOTS.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { OrderView } from '../../shared/domain.ts';
import { fetchSend, hubClient } from '../../shared/hub/client.ts';
import type { HostProcess } from '../support/host-process.ts';
import { startHubProcess, type HubProcess } from '../support/hub-process.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { login, payWithKeys } from './counter-support.ts';
import { adminJson, enrolledTill, openHubTab, stopTillAndHub } from './hub-support.ts';
import { shotsAtSizes, TILL_SIZES } from './languages.ts';

const ADMIN = 'e2e-goods-journey-admin-token-0123456789';
let hub: HubProcess;
let till1: HostProcess;
let till2: HostProcess;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-journey-e2e-'));

const BREAD = { code: '2001', name: 'Хлеб бели 500 г', group: 'Пекара', pricePara: 6_500 };
const MILK = { code: '3001', name: 'Млеко 1 л', group: 'Млечно', pricePara: 12_000 };

const admin = (method: string, route: string, body?: unknown): Promise<Record<string, unknown>> =>
  adminJson(hub, method, route, body);

/** The shop's stock of `code` at the hub, in thousandths. */
async function atHub(code: string): Promise<number | undefined> {
  const s = (await admin('GET', `/api/admin/goods/stock?shopId=${hub.shopId}`)) as {
    rows: { code: string; qtyMilli: number }[];
  };
  return s.rows.find((r) => r.code === code)?.qtyMilli;
}

/** A till's counter in a page of its own, its first-run manager logged in. */
async function openTill(page: Page, till: HostProcess): Promise<void> {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`${till.url}#token=${till.token}`);
  await login(page, MANAGER_PIN);
}

test.beforeAll(async () => {
  hub = await startHubProcess({ KASA_HUB_DATA: path.join(dir, 'hub'), KASA_HUB_ADMIN_TOKEN: ADMIN });
  // Label E: a rate the demo account's secure element signs (docs/goods.md, the refused label).
  const products = [BREAD, MILK].map((p) => ({ ...p, label: 'E', unit: 'piece', favourite: true }));
  await admin('PUT', '/api/admin/products', { shopId: hub.shopId, products });
  till1 = await enrolledTill(hub, 'JOURNEY1');
  // Each till enrols with a one-time code of its own, minted as a manager would.
  const minted = await hubClient(fetchSend({ baseUrl: hub.url, token: ADMIN, fetch })).call('newEnrolCode', {
    shopId: hub.shopId,
  });
  // Both tills sign on one fiscal service, as a shop's do: till 2 on till 1's sandbox gateway, so that the refund's
  // reference to till 1's receipt is found there.
  const gateway = { KASA_API_KEY: 'demo-key', KASA_GATEWAY_URL: till1.sandboxUrl ?? '' };
  till2 = await enrolledTill({ ...hub, enrolCode: minted.code }, 'JOURNEY2', gateway);
});
test.afterAll(async () => {
  await till2?.stop();
  if (till2) fs.rmSync(till2.dataDir, { recursive: true, force: true });
  await stopTillAndHub(till1, hub, dir);
});

test('receipt at the hub → sale at till 1 → refund at till 2 → price raised → count → the KEP closes at stock × price', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await openHubTab(page, hub, 'Роба');

  // 1. The goods receipt, through the hub's forms: a supplier, then 40 loaves and 10 milks at the kept prices.
  const supplierForm = page.getByRole('form', { name: 'Нови добављач' });
  await supplierForm.getByLabel('Назив добављача').fill('Пекара Жито д.о.о.');
  await supplierForm.getByLabel('ПИБ', { exact: true }).fill('101134702');
  await supplierForm.getByRole('button', { name: 'Сачувај добављача' }).click();
  await expect(supplierForm.getByRole('status')).toHaveText('Добављач је сачуван.');
  const receipt = page.getByRole('form', { name: 'Нова пријемница' });
  await receipt.getByRole('combobox', { name: /^Добављач/ }).selectOption({ label: 'Пекара Жито д.о.о.' });
  await receipt.getByLabel('Број рачуна добављача').fill('Ж-2611');
  for (const [n, code, quantity, purchase, retail] of [
    [1, BREAD.code, '40', '40,00', '65,00'],
    [2, MILK.code, '10', '80,00', '120,00'],
  ] as const) {
    if (n > 1) await receipt.getByRole('button', { name: 'Додај ставку' }).click();
    await receipt.getByLabel(`Артикал ${n} (шифра, баркод или назив)`).fill(code);
    await receipt.getByLabel(`Количина ${n}`).fill(quantity);
    await receipt.getByLabel(`Набавна цена без ПДВ-а ${n}`).fill(purchase);
    await receipt.getByLabel(`Продајна цена ${n} из`).selectOption('retail');
    await receipt.getByLabel(`Продајна цена са ПДВ-ом ${n}`).fill(retail);
  }
  await receipt.getByRole('button', { name: 'Прокњижи пријемницу' }).click();
  await expect(receipt.getByRole('status')).toHaveText(/^Пријемница бр\. \d+\/\d{4} је прокњижена\.$/);
  await expect.poll(() => atHub(BREAD.code)).toBe(40_000);

  // 2. Till 1 sells three loaves and a milk at its counter, for cash, fiscalized; the hub's book follows.
  const counter1 = await context.newPage();
  await openTill(counter1, till1);
  const keys = counter1.getByRole('navigation', { name: 'Брзи тастери' });
  for (const name of [BREAD.name, BREAD.name, BREAD.name, MILK.name]) await keys.getByRole('button', { name }).click();
  await payWithKeys(counter1);
  await expect(counter1.getByTestId('receipt-state')).toBeVisible();
  let sale: OrderView | undefined;
  await expect(async () => {
    sale = (await till1.call<{ orders: OrderView[] }>('orders.list', { limit: 1 })).body.value?.orders[0];
    expect(sale?.state).toBe('fiscalized');
  }).toPass({ timeout: 30_000 });
  const invoice = sale?.receipt?.invoiceNumber ?? '';
  expect(invoice).not.toBe('');
  await expect.poll(() => atHub(BREAD.code), { timeout: 60_000 }).toBe(37_000);
  await expect.poll(() => atHub(MILK.code)).toBe(9_000);

  // 3. Till 2 refunds one loaf of till 1's sale by its invoice number (found through the hub), to a private buyer.
  const counter2 = await context.newPage();
  await openTill(counter2, till2);
  await counter2.getByRole('button', { name: 'Менаџер (F11)' }).click();
  const mgr = counter2.getByRole('dialog', { name: 'Менаџер' });
  await mgr.getByRole('tab', { name: 'Поврат' }).click();
  await mgr.getByLabel('Број рачуна или поруџбине').fill(invoice);
  await mgr.getByRole('button', { name: 'Пронађи' }).click();
  await mgr.getByLabel(`Количина за поврат: ${BREAD.name}`).fill('1');
  await mgr.getByRole('combobox', { name: 'Врста ИД купца' }).selectOption('20');
  await mgr.getByLabel('ИД купца (број)').fill('008123456');
  await mgr.getByRole('button', { name: 'Изврши поврат' }).click();
  await expect(mgr.getByTestId('mgr-result-state')).toHaveText('ФИСКАЛИЗОВАН', { timeout: 30_000 });
  await expect.poll(() => atHub(BREAD.code), { timeout: 60_000 }).toBe(38_000);

  // 4. The bread's price raised in the hub's catalog, 38 on hand: a price change record of 38 × 5,00.
  await page.getByRole('tab', { name: 'Артикли' }).click();
  const catalog = page.getByRole('region', { name: 'Артикли' });
  await catalog.getByRole('button', { name: `Измени артикал ${BREAD.name}` }).click();
  const edit = catalog.getByRole('form', { name: /Измена артикла/ });
  await edit.getByLabel('Цена (RSD)').fill('70,00');
  await edit.getByRole('button', { name: 'Сачувај артикал' }).click();
  await expect(catalog.getByRole('status')).toContainText(`Сачувано: ${BREAD.name}`);

  // 5. A count of the whole shop: 37 loaves on the shelf (one short), the milks as the book says.
  await page.getByRole('tab', { name: 'Роба' }).click();
  const counts = page.getByRole('region', { name: 'Пописи' });
  await counts.getByRole('button', { name: 'Почни попис целе продавнице' }).click();
  await expect(counts.getByRole('status').first()).toHaveText(/^Попис бр\. 1\/\d{4} је почео/);
  const entry = counts.getByRole('form', { name: 'Унеси пописано' });
  for (const [code, quantity] of [
    [BREAD.code, '37'],
    [MILK.code, '9'],
  ] as const) {
    await entry.getByLabel('Шифра или бар-код').fill(code);
    await entry.getByLabel('Пописано').fill(quantity);
    await entry.getByRole('button', { name: 'Унеси пописано' }).click();
    await expect(counts.getByRole('status').first()).toHaveText(`Унето: ${code}.`);
  }
  await counts.getByRole('button', { name: 'Прокњижи попис' }).click();
  await expect(counts.getByRole('status').first()).toHaveText(/је прокњижен: разлике су у КЕП-у\.$/);
  await expect.poll(() => atHub(BREAD.code)).toBe(37_000);

  // 6. The KEP: the receipt's debit (40 × 65,00 + 10 × 120,00 = 3.800,00), the day's cash turnover net of the refund
  // (3 × 65,00 + 120,00 − 65,00 = 250,00), the price increase (38 × 5,00 = 190,00) and the shortage (70,00); its
  // balance is the stock at retail price: 37 × 70,00 + 9 × 120,00 = 3.670,00.
  const kep = page.getByRole('table', { name: 'КЕП' });
  await expect(kep).toContainText('Ж-2611');
  await expect(kep).toContainText('3.800,00');
  await expect(kep).toContainText('250,00');
  await expect(kep).toContainText('190,00');
  await expect(kep.getByRole('row', { name: /Попис бр\. 1\/\d{4}: мањак/ })).toContainText('70,00');
  await expect(kep.getByRole('row').last()).toContainText('3.670,00');
  await expect(page.getByRole('table', { name: 'Вредност залиха по продавницама' })).toContainText('3.670,00');
  await shotsAtSizes(page, 'hub-goods-journey-kep', TILL_SIZES, kep);

  // The tills' own books moved nothing: the shop's book is the hub's.
  for (const till of [till1, till2]) {
    const own = await till.call<{ totals: { retailValuePara: number } }>('goods.stock', {});
    expect(own.body.value?.totals.retailValuePara).toBe(0);
  }
});
