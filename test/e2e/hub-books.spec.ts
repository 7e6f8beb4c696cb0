/**
 * Књиговођа in the hub UI in Chromium (a hub child process on PGlite, its manager and a goods receipt put through
 * the admin API; docs/exports.md "At the hub"): the shop's export of the month on screen (its totals, the stock
 * value from the hub's KEP), a period that ends before it starts refused at its field, the turnover CSV and the A4
 * PDF downloaded with the till's layouts. In Cyrillic, Latin and English; screenshots at 1024×768 and 1366×768 with
 * KASA_SHOTS. (The turnover of tills pushed to a hub is the hub suite's: test/hub/hub-exports.test.ts.)
 *
 * The same hub holds the shop's SEF key (a fake SEF, docs/sef.md "Sending from the hub"): two business sales pushed
 * by a till through the till API, one sent to SEF, one refused (a buyer SEF does not know), listed under Е-фактуре
 * with their till, state and SEF's reason; the refused one sent again by the manager.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { managedHub } from './hub-support.ts';
import { shotsAtSizes, TILL_SIZES } from './languages.ts';
import { keepPdfPages } from '../support/shots.ts';
import { startFakeSef, type FakeSef } from '../../electron/sef/fake-sef.ts';
import { fetchSend, hubClient } from '../../shared/hub/client.ts';
import type { HubSefList } from '../../shared/hub/sef.ts';
import { orderEvent, saleSnapshot } from '../hub/snapshots.ts';
import { SELLER } from '../sef/seller.ts';

const ADMIN = 'e2e-admin-token-hub-books-0123456789abcdef';
const SEF_KEY = 'e2e-hub-sef-key-5b21';
let fake: FakeSef | undefined;
// Before the hub's start (hooks run in the order they are registered): the hub's SEF is this fake.
test.beforeAll(async () => {
  fake = await startFakeSef({ apiKey: SEF_KEY });
});
test.afterAll(async () => fake?.close());
const rig = managedHub('kasa-hub-books-e2e-', ADMIN, { name: 'Јована', pin: '246810' }, () => ({
  KASA_HUB_SEF_API_KEY: SEF_KEY,
  KASA_HUB_SEF_URL: fake?.url ?? '',
  KASA_HUB_SEF_SELLER: JSON.stringify(SELLER),
  KASA_HUB_SEF_EVERY_MS: '100',
}));
const { admin } = rig;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-books-files-'));

/** The shop's seed through the admin API: a product, the shop's PIB and address, ten of the product received. */
const SEED: [method: string, path: string, body: Record<string, unknown>, status: number][] = [
  [
    'PUT',
    '/api/admin/products',
    { products: [{ code: '1001', name: 'Сок од јабуке 1 л', pricePara: 15_990, label: 'Ђ', unit: 'piece' }] },
    200,
  ],
  ['PUT', '/api/admin/goods/shop-identity', { pib: '100002055', address: 'Главна 7, Ниш' }, 200],
  [
    'POST',
    '/api/admin/goods/receipts',
    {
      supplier: 'Воћни сокови д.о.о.',
      pib: '101134702',
      invoiceNumber: 'F-900',
      invoiceDate: new Date().toISOString().slice(0, 10),
      lines: [{ code: '1001', qtyMilli: 10_000, purchasePara: 9_000 }],
    },
    201,
  ],
];

test.beforeAll(async () => {
  for (const [method, p, body, status] of SEED)
    expect(await admin(method, p, { shopId: rig.hub.shopId, ...body })).toBe(status);
});
test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the export of the shop at the hub: on screen, a bad period refused, its files; three languages', async ({
  page,
}) => {
  await rig.openAsManager(page);
  await page.getByRole('tab', { name: 'Књиговођа' }).click();
  const period = page.getByRole('form', { name: 'Период извоза' });
  // A period that ends before it starts: refused at its field, nothing shown.
  await period.getByRole('textbox', { name: /^До датума/ }).fill('01.01.2000.');
  await period.getByRole('button', { name: 'Прикажи извоз' }).click();
  await expect(page.getByRole('alert')).toContainText('До датума');
  await expect(page.getByRole('table', { name: 'Збир периода' })).toHaveCount(0);

  // The end put right: the month so far.
  const [y, m, d] = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Belgrade' }).split('-');
  await period.getByRole('textbox', { name: /^До датума/ }).fill(`${d}.${m}.${y}.`);
  await period.getByRole('button', { name: 'Прикажи извоз' }).click();
  const totals = page.getByRole('table', { name: 'Збир периода' });
  // Ten juices at 159,90 received: the stock value at the end from the hub's KEP.
  await expect(totals.getByRole('row', { name: /Залихе по продајним ценама/ })).toContainText('1.599,00');

  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Промет (CSV)' }).click(),
  ]);
  const csvFile = path.join(dir, 'promet.csv');
  await csv.saveAs(csvFile);
  expect(csv.suggestedFilename()).toMatch(/^promet_.*\.csv$/);
  expect(fs.readFileSync(csvFile, 'utf8').replace(/^\ufeff/, '')).toMatch(/^"Датум";"Врста"/);
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Све на А4 (PDF)' }).click(),
  ]);
  const pdfFile = path.join(dir, 'izvoz.pdf');
  await pdf.saveAs(pdfFile);
  expect(fs.readFileSync(pdfFile).subarray(0, 5).toString()).toBe('%PDF-');
  keepPdfPages(pdfFile, 'hub-books-a4', 60, 1);

  for (const [lang, table] of [
    ['sr-Cyrl', 'Збир периода'],
    ['sr-Latn', 'Zbir perioda'],
    ['en', 'The period in all'],
  ] as const) {
    if (lang !== 'sr-Cyrl') {
      await page.getByLabel(lang === 'sr-Latn' ? 'Језик' : 'Jezik').selectOption(lang);
      await page.getByRole('button', { name: lang === 'sr-Latn' ? 'Prikaži izvoz' : 'Show the export' }).click();
    }
    const shown = page.getByRole('table', { name: table });
    await expect(shown).toBeVisible();
    await shotsAtSizes(page, `hub-books-${lang}`, TILL_SIZES);
  }
});

test("the shop's e-invoices at the hub: one sent, one refused with SEF's reason, sent again; three languages", async ({
  page,
}) => {
  // A till of the shop pushes two fiscalized sales to business buyers: one SEF knows, one it does not.
  const code = (await (await rig.request('POST', '/api/admin/enrol-codes', { shopId: rig.hub.shopId })).json()) as {
    code: string;
  };
  const enrol = hubClient(fetchSend({ baseUrl: rig.hub.url, fetch }));
  const till = await enrol.call('enrol', { code: code.code, name: 'Каса 1' });
  const push = hubClient(fetchSend({ baseUrl: rig.hub.url, token: till.credential, fetch }));
  const sales = [
    ['E2E-SEF-0001', 'AAAA1111-AAAA1111-1', '10:101134702'],
    ['E2E-SEF-0002', 'AAAA1111-AAAA1111-2', '10:113460262'],
  ] as const;
  const events = sales.map(([n, invoice, buyerId], i) => {
    const o = saleSnapshot(n, invoice, { at: Date.now() });
    return orderEvent(i + 1, { ...o, data: { ...o.data, buyerId } });
  });
  await push.call('push', { tillId: till.tillId, events });
  const states = async () => {
    const list = (await (await rig.request('GET', `/api/admin/sef?shopId=${rig.hub.shopId}`)).json()) as HubSefList;
    return list.documents.map((d) => d.state).sort();
  };
  await expect.poll(states).toEqual(['refused', 'sent']);

  await rig.openAsManager(page);
  await page.getByRole('tab', { name: 'Е-фактуре' }).click();
  const table = page.getByRole('table', { name: 'Послате е-фактуре' });
  await expect(table.getByRole('row', { name: /E2E-SEF-0001/ })).toContainText('Послата, чека одлуку купца');
  const refused = table.getByRole('row', { name: /E2E-SEF-0002/ });
  await expect(refused).toContainText('СЕФ је одбио документ');
  await expect(refused).toContainText('купац са ПИБ-ом 113460262 није регистрован на СЕФ-у');
  await expect(refused).toContainText('Каса 1');
  // Sent again by the manager: SEF still does not know the buyer, so it is refused again, the reason kept.
  await refused.getByRole('button', { name: 'Пошаљи поново: E2E-SEF-0002' }).click();
  await expect(page.getByText('Е-фактура E2E-SEF-0002 је поново у реду за слање.')).toBeVisible();
  await expect.poll(states).toEqual(['refused', 'sent']);
  await page.getByRole('button', { name: 'Освежи стање е-фактура' }).click();
  await expect(refused).toContainText('СЕФ је одбио документ');
  await expect(refused).toContainText('купац са ПИБ-ом 113460262');
  expect(fake?.controls.documents().map((d) => d.number)).toEqual(['E2E-SEF-0001']);

  for (const [lang, name] of [
    ['sr-Cyrl', 'Послате е-фактуре'],
    ['sr-Latn', 'Poslate e-fakture'],
    ['en', 'E-invoices sent'],
  ] as const) {
    if (lang !== 'sr-Cyrl') await page.getByLabel(lang === 'sr-Latn' ? 'Језик' : 'Jezik').selectOption(lang);
    await expect(page.getByRole('table', { name })).toBeVisible();
    await shotsAtSizes(page, `hub-sef-${lang}`, TILL_SIZES);
  }
});
