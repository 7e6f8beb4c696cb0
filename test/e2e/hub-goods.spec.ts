/**
 * The hub's Роба tab in Chromium (docs/goods.md "At the hub"): a hub (child process, PGlite) with two shops and a
 * till enrolled (its manager logs in at the hub). A goods receipt posted through the hub's API, a transfer sent from
 * shop B to shop A; the manager of shop A sees the stock and its value by shop, receives the transfer as sent, and
 * reads the KEP, in the three languages; screenshots at 1024×768 and 1366×768.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { keepPdfPages } from '../support/shots.ts';
import { hubAndTill, inEachHubLanguage, openHubTab, sellOneOnTill } from './hub-support.ts';
import { shotsAtSizes, TILL_SIZES, wholePageShots } from './languages.ts';

const ADMIN = 'e2e-goods-admin-token-0123456789abcdef';
let shopB = 0;
const rig = hubAndTill('kasa-hub-goods-e2e-', ADMIN);
const { admin, dir } = rig;

const PRODUCTS = [
  { code: '1001', name: 'Сок од јабуке 1 л', pricePara: 15_990 },
  { code: '2001', name: 'Хлеб бели', pricePara: 6_500 },
].map((p) => ({ label: 'Ж', unit: 'piece', group: 'Храна', ...p }));

test.beforeAll(async () => {
  const hub = await rig.start();
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
  await rig.enrol('GOODSE2E');
});

test('the Роба tab: stock and value by shop, a transfer received, the KEP; three languages', async ({ page }) => {
  await openHubTab(page, rig.hub, 'Роба');
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
  await inEachHubLanguage(page, { 'sr-Cyrl': 'Роба', 'sr-Latn': 'Roba', en: 'Goods' }, async (lang, tab) => {
    if (lang !== 'sr-Cyrl') await expect(page.getByRole('tab', { name: tab })).toBeVisible();
    await wholePageShots(page, `hub-goods-${lang}`);
  });
  await expect(page.getByRole('table', { name: 'KEP book' })).toContainText('Transfer received no. 1/');
});

test('the Роба forms: shop data, a supplier, a receipt with its calculation → a sale on the till → a write-off → the KEP', async ({
  page,
}) => {
  await openHubTab(page, rig.hub, 'Роба');

  // The shop's PIB and address: a wrong check digit is said under the field, then saved.
  const shopForm = page.getByRole('form', { name: 'Подаци продавнице на документима' });
  await shopForm.getByLabel('ПИБ продавнице').fill('101134703');
  await shopForm.getByLabel('Адреса продавнице').fill('Главна 5, Суботица');
  await shopForm.getByRole('button', { name: 'Сачувај податке продавнице' }).click();
  await expect(shopForm.getByRole('alert')).toHaveText('ПИБ није исправан: контролна цифра (последња) се не слаже.');
  await shopForm.getByLabel('ПИБ продавнице').fill('101134702');
  await shopForm.getByRole('button', { name: 'Сачувај податке продавнице' }).click();
  await expect(shopForm.getByRole('status')).toHaveText('Подаци продавнице су сачувани.');

  // A supplier: a bad PIB refused at its field by the hub, then saved and listed.
  const supplierForm = page.getByRole('form', { name: 'Нови добављач' });
  await supplierForm.getByLabel('Назив добављача').fill('Млекара Север д.о.о.');
  await supplierForm.getByLabel('ПИБ', { exact: true }).fill('100000001');
  await supplierForm.getByLabel('Текући рачун').fill('160-0000000012345-67');
  await supplierForm.getByRole('button', { name: 'Сачувај добављача' }).click();
  await expect(supplierForm.getByRole('alert')).toHaveText(
    'ПИБ није исправан: контролна цифра (последња) се не слаже.',
  );
  await supplierForm.getByLabel('ПИБ', { exact: true }).fill('101134702');
  await supplierForm.getByRole('button', { name: 'Сачувај добављача' }).click();
  await expect(supplierForm.getByRole('status')).toHaveText('Добављач је сачуван.');
  await expect(page.getByRole('list', { name: 'Добављачи' })).toContainText('Млекара Север д.о.о., ПИБ 101134702');

  // A receipt of two lines: the retail price kept on one, a margin on the other (the rate the till reported).
  const receipt = page.getByRole('form', { name: 'Нова пријемница' });
  await receipt.getByRole('combobox', { name: /^Добављач/ }).selectOption({ label: 'Млекара Север д.о.о.' });
  await receipt.getByLabel('Број рачуна добављача').fill('F-300');
  await receipt.getByLabel('Артикал 1 (шифра, баркод или назив)').fill('1001');
  await receipt.getByLabel('Количина 1').fill('10');
  await receipt.getByLabel('Набавна цена без ПДВ-а 1').fill('90,00');
  await receipt.getByLabel('Продајна цена 1 из').selectOption('retail');
  await receipt.getByLabel('Продајна цена са ПДВ-ом 1').fill('159,90');
  await expect(receipt.getByText(/^Сок од јабуке 1 л: Нето набавна 90,00; продајна 159,90; маржа/)).toBeVisible();
  await receipt.getByRole('button', { name: 'Додај ставку' }).click();
  await receipt.getByLabel('Артикал 2 (шифра, баркод или назив)').fill('2001');
  await receipt.getByLabel('Количина 2').fill('5');
  await receipt.getByLabel('Набавна цена без ПДВ-а 2').fill('40,00');
  await receipt.getByLabel('Рабат % 2').fill('10');
  await receipt.getByLabel('Маржа % 2').fill('25');
  // 40,00 less 10 % is 36,00 net; the margin of 25 % is shown back from the calculated retail price.
  await expect(receipt.getByText(/^Хлеб бели: Нето набавна 36,00; продајна \d+,\d\d; маржа 25,00 %$/)).toBeVisible();
  await receipt.getByLabel('Количина 2').fill('0');
  await receipt.getByRole('button', { name: 'Прокњижи пријемницу' }).click();
  await expect(receipt.getByRole('alert')).toHaveText('Унесите количину већу од нуле, нпр. 1,5.');
  await receipt.getByLabel('Количина 2').fill('5');
  await shotsAtSizes(page, 'hub-goods-receipt-form-sr-Cyrl', TILL_SIZES, receipt);
  await receipt.getByRole('button', { name: 'Прокњижи пријемницу' }).click();
  await expect(receipt.getByRole('status')).toHaveText(/^Пријемница бр\. \d+\/\d{4} је прокњижена\.$/);
  const stock = page.getByRole('table', { name: 'Залихе' });
  await expect(stock.getByRole('row', { name: /Сок од јабуке/ })).toContainText('1001Сок од јабуке 1 л40');

  // A sale on the till moves the hub's stock once it is fiscalized and pushed.
  const sold = await sellOneOnTill(rig.till, '1001', 'Сок од јабуке 1 л', 159.9);
  await expect
    .poll(
      async () => {
        const r = await fetch(`${rig.hub.url}/api/admin/goods/stock?shopId=${rig.hub.shopId}`, {
          headers: { authorization: `Bearer ${ADMIN}` },
        });
        const s = (await r.json()) as { rows: { code: string; qtyMilli: number }[] };
        return s.rows.find((row) => row.code === '1001')?.qtyMilli;
      },
      { timeout: 60_000, message: JSON.stringify(sold) },
    )
    .toBe(39_000);

  // A write-off through its form; the stock and the KEP read again.
  const writeOff = page.getByRole('form', { name: 'Отпис робе' });
  await writeOff.getByLabel('Шифра артикла').fill('1001');
  await writeOff.getByLabel('Количина за отпис').fill('1');
  await writeOff.getByLabel('Разлог').fill('Оштећено паковање');
  await writeOff.getByRole('button', { name: 'Прокњижи отпис' }).click();
  await expect(writeOff.getByRole('status')).toHaveText(/^Отпис бр\. \d+\/\d{4} је прокњижен\.$/);
  await expect(stock.getByRole('row', { name: /Сок од јабуке/ })).toContainText('1001Сок од јабуке 1 л38');
  const kep = page.getByRole('table', { name: 'КЕП' });
  await expect(kep).toContainText('F-300');
  await expect(kep).toContainText('Оштећено паковање');
  await expect(kep).toContainText('159,90');

  // The KEP as A4: the shop's PIB and address in its title block; its first page looked at as a picture.
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'КЕП као PDF' }).click(),
  ]);
  const pdfFile = path.join(dir, 'kep.pdf');
  await pdf.saveAs(pdfFile);
  const text = execFileSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' });
  expect(text).toContain('101134702');
  expect(text).toContain('Главна 5, Суботица');
  keepPdfPages(pdfFile, 'hub-goods-kep-a4', 80, 1);

  const newReceipt = { 'sr-Cyrl': 'Нова пријемница', 'sr-Latn': 'Nova prijemnica', en: 'New goods receipt' };
  await inEachHubLanguage(page, newReceipt, async (lang, form) => {
    const shown = page.getByRole('form', { name: form });
    await shotsAtSizes(page, `hub-goods-forms-${lang}`, TILL_SIZES, shown);
  });
});
