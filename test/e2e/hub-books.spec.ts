/**
 * Књиговођа in the hub UI in Chromium (docs/exports.md "At the hub"): a hub child process on PGlite with a juice
 * received at the hub (ten at 90,00 net, retail 159,90 under label A, 10 % on the demo account) and a till enrolled
 * that sells one of them. The shop's export of the month on screen: the till's turnover, the stock value from the
 * hub's KEP, the journal in balance; a period that ends before it starts refused at its field; an account with a
 * letter refused under its field, then the cost of goods sold mapped to 5011 and seen in the journal's CSV with the
 * juice's purchase value; the turnover and goods CSVs and the A4 PDF (its goods section read back and its pages
 * kept as pictures) carry the figures. In Cyrillic; the finished screen in Latin and English too; screenshots at
 * 1024×768 and 1366×768 with KASA_SHOTS.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { keepPdfPages } from '../support/shots.ts';
import { hubAndTill, inEachHubLanguage, openHubTab, sellOneOnTill } from './hub-support.ts';
import { shotsAtSizes, TILL_SIZES } from './languages.ts';

const ADMIN = 'e2e-admin-token-hub-books-0123456789abcdef';
const rig = hubAndTill('kasa-hub-books-e2e-', ADMIN);
const { admin, dir } = rig;

test.beforeAll(async () => {
  const hub = await rig.start();
  const shopId = hub.shopId;
  await admin('PUT', '/api/admin/products', {
    shopId,
    products: [{ code: '1001', name: 'Сок од јабуке 1 л', pricePara: 15_990, label: 'A', unit: 'piece' }],
  });
  await admin('PUT', '/api/admin/goods/shop-identity', { shopId, pib: '100002055', address: 'Главна 7, Ниш' });
  await admin('POST', '/api/admin/goods/receipts', {
    shopId,
    supplier: 'Воћни сокови д.о.о.',
    pib: '101134702',
    invoiceNumber: 'F-900',
    invoiceDate: new Date().toISOString().slice(0, 10),
    lines: [{ code: '1001', qtyMilli: 10_000, purchasePara: 9_000 }],
  });
  // The till sells one juice; the hub books it once the till has pushed it.
  const till = await rig.enrol('BOOKSE2E');
  await sellOneOnTill(till, '1001', 'Сок од јабуке 1 л', 159.9);
  await expect
    .poll(
      async () =>
        ((await admin('GET', `/api/admin/goods/stock?shopId=${shopId}`)) as { rows: { qtyMilli: number }[] }).rows[0]
          ?.qtyMilli,
      { timeout: 60_000 },
    )
    .toBe(9_000);
});

/** Downloads one of the period's files by its button; its path. */
async function saved(page: Page, button: string, name: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  const to = path.join(dir, name);
  await file.saveAs(to);
  return to;
}
const csvOf = (file: string): string => fs.readFileSync(file, 'utf8').replace(/^\ufeff/, '');

test('the export of a shop that sold at the hub: turnover, goods, accounts mapped, files; three languages', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await openHubTab(page, rig.hub, 'Књиговођа');
  const period = page.getByRole('form', { name: 'Период извоза' });
  // A period that ends before it starts: refused at its field, nothing shown.
  await period.getByRole('textbox', { name: /^До датума/ }).fill('01.01.2000.');
  await period.getByRole('button', { name: 'Прикажи извоз' }).click();
  await expect(page.getByRole('alert').first()).toContainText('До датума');
  await expect(page.getByRole('table', { name: 'Збир периода' })).toHaveCount(0);

  // An account with a letter: said under its field, nothing saved.
  const accounts = page.getByRole('form', { name: 'Конта налога за књижење' });
  const cost = accounts.getByRole('textbox', { name: 'Набавна вредност продате робе' });
  await expect(cost).toHaveValue('5010');
  await cost.fill('50a1');
  await accounts.getByRole('button', { name: 'Сачувај конта' }).click();
  await expect(accounts.getByRole('alert')).toHaveText(
    'Конто у пољу „Набавна вредност продате робе“ пишите цифрама, од 3 до 10 (на пример 2430).',
  );
  await expect(cost).toHaveAttribute('aria-invalid', 'true');
  await cost.fill('5011');
  await accounts.getByRole('button', { name: 'Сачувај конта' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Конта су сачувана.' })).toBeVisible();

  // The end put right: the month so far.
  const [y, m, d] = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Belgrade' }).split('-');
  await period.getByRole('textbox', { name: /^До датума/ }).fill(`${d}.${m}.${y}.`);
  await period.getByRole('button', { name: 'Прикажи извоз' }).click();
  const totals = page.getByRole('table', { name: 'Збир периода' });
  // The till's sale of one juice: 159,90 with 14,54 of VAT at 10 %; nine juices left at 159,90 from the hub's KEP.
  await expect(totals.getByRole('row', { name: /Промет са ПДВ/ })).toContainText('159,90');
  await expect(totals.getByRole('row', { name: /^ПДВ/ })).toContainText('14,54');
  await expect(totals.getByRole('row', { name: /Залихе по продајним ценама/ })).toContainText('1.439,10');
  await expect(page.getByRole('status').filter({ hasText: 'налог је у равнотежи' })).toBeVisible();

  const turnover = csvOf(await saved(page, 'Промет (CSV)', 'promet.csv'));
  expect(turnover).toMatch(/^"Датум";"Врста"/);
  expect(turnover).toMatch(/"Укупно [^"]*";"по стопи";"A";10;159,90;14,54;145,36/);
  // The goods receipt: purchase 900,00, retail 1.599,00 with 145,36 of VAT in it and a margin of 553,64.
  const goods = csvOf(await saved(page, 'Пријемнице и нивелације (CSV)', 'roba.csv'));
  expect(goods).toMatch(
    /"Пријемница";"1\/\d{4}";"Воћни сокови д\.о\.о\.";"101134702";"F-900";900,00;1599,00;145,36;553,64/,
  );
  expect(goods).toContain('1439,10');
  // The journal on the mapped account: the juice sold goes out at its purchase price, 90,00, onto 5011.
  const journal = csvOf(await saved(page, 'Налог за књижење (CSV)', 'nalog.csv'));
  expect(journal).toMatch(/;"5011";"Набавна вредност продате робе";[^\r\n]*;90,00;0,00\r\n/);
  expect(journal).not.toContain('"5010"');

  const pdfFile = await saved(page, 'Све на А4 (PDF)', 'izvoz.pdf');
  expect(fs.readFileSync(pdfFile).subarray(0, 5).toString()).toBe('%PDF-');
  const text = execFileSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' });
  expect(text).toContain('Пријемнице и нивелације');
  // Headed by the shop's name: a fresh hub's first shop is named in Serbian, not "Shop 1" on a Serbian paper.
  expect(text.trimStart().split('\n')[0]?.trim()).toBe('Продавница 1');
  for (const shown of ['Воћни сокови д.о.о. (101134702), F-900', '1.599,00', '553,64', '5011 — Набавна вредност'])
    expect(text).toContain(shown);
  keepPdfPages(pdfFile, 'hub-books-a4', 60);

  const periods = { 'sr-Cyrl': 'Збир периода', 'sr-Latn': 'Zbir perioda', en: 'The period in all' };
  await inEachHubLanguage(page, periods, async (lang, table) => {
    if (lang !== 'sr-Cyrl') {
      await page.getByRole('button', { name: lang === 'sr-Latn' ? 'Prikaži izvoz' : 'Show the export' }).click();
    }
    await expect(page.getByRole('table', { name: table })).toBeVisible();
    await shotsAtSizes(page, `hub-books-${lang}`, TILL_SIZES);
    // The shop's accounts, with the mapped cost of goods sold (scrolled to; the names are the till's).
    await shotsAtSizes(page, `hub-books-accounts-${lang}`, TILL_SIZES, page.locator('.mgr-books-accounts'));
  });
});
