/**
 * Goods receipt drafts, reversals, minimums and the reorder list in the hub UI's Роба tab in Chromium (a hub child
 * process on PGlite, its manager, products, PIB and a supplier put through the admin API; docs/goods.md "At the
 * hub"): a receipt saved as a draft moves nothing, is opened again, changed and posted from the drafts list; the
 * posted receipt's PDF downloads and reads back; „Сторно“ reverses it;
 * a minimum below zero is refused at its field, then the reorder list shows the product with its supplier and
 * downloads as CSV and PDF. In Cyrillic, Latin and English; screenshots at 1024×768 and 1366×768 with KASA_SHOTS.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { inEachHubLanguage, managedHub } from './hub-support.ts';
import { shotsAtSizes, TILL_SIZES } from './languages.ts';
import { keepPdfPages } from '../support/shots.ts';
import { fieldDay, shopDay } from './days.ts';

const ADMIN = 'e2e-admin-token-hub-receipts-0123456789abcdef';
const rig = managedHub('kasa-hub-receipts-e2e-', ADMIN, { name: 'Јована', pin: '246810' });
const { admin } = rig;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-receipts-files-'));

test.beforeAll(async () => {
  const shopId = rig.hub.shopId;
  expect(
    await admin('PUT', '/api/admin/products', {
      shopId,
      products: [
        { code: '1001', name: 'Сок од јабуке 1 л', pricePara: 15_990, label: 'Ђ', unit: 'piece', group: 'Пиће' },
        { code: '2001', name: 'Хлеб бели', pricePara: 6_500, label: 'Ђ', unit: 'piece', group: 'Пекара' },
      ],
    }),
  ).toBe(200);
  expect(
    await admin('PUT', '/api/admin/goods/shop-identity', { shopId, pib: '100002055', address: 'Главна 7, Ниш' }),
  ).toBe(200);
  expect(
    await admin('POST', '/api/admin/goods/suppliers', { shopId, name: 'Воћни сокови д.о.о.', pib: '101134702' }),
  ).toBe(200);
  // Bread received earlier from the supplier: the reorder list names it as the bread's last supplier.
  expect(
    await admin('POST', '/api/admin/goods/receipts', {
      shopId,
      supplier: 'Воћни сокови д.о.о.',
      pib: '101134702',
      invoiceNumber: 'F-400',
      invoiceDate: '2026-11-20',
      lines: [{ code: '2001', qtyMilli: 10_000, purchasePara: 4_000 }],
    }),
  ).toBe(201);
});
test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Line `n` of a receipt form: product, quantity, purchase price, and the retail price kept. */
async function keptPriceLine(form: Locator, n: number, [code, qty, purchase, retail]: readonly string[]) {
  await form.getByLabel(`Артикал ${n} (шифра, баркод или назив)`).fill(code ?? '');
  await form.getByLabel(`Количина ${n}`).fill(qty ?? '');
  await form.getByLabel(`Набавна цена без ПДВ-а ${n}`).fill(purchase ?? '');
  await form.getByLabel(`Продајна цена ${n} из`).selectOption('retail');
  await form.getByLabel(`Продајна цена са ПДВ-ом ${n}`).fill(retail ?? '');
}

test('receipt drafts, „Сторно“, the receipt’s PDF, minimums and the reorder list; three languages', async ({
  page,
}) => {
  await rig.openAsManager(page, 'Роба');
  const stock = page.getByRole('table', { name: 'Залихе' });

  // A receipt saved as a draft: nothing moves.
  const receipt = page.getByRole('form', { name: 'Нова пријемница' });
  await receipt.getByRole('combobox', { name: /^Добављач/ }).selectOption({ label: 'Воћни сокови д.о.о.' });
  await receipt.getByLabel('Број рачуна добављача').fill('F-500');
  await keptPriceLine(receipt, 1, ['1001', '12', '90,00', '159,90']);
  await receipt.getByRole('button', { name: 'Сачувај као нацрт' }).click();
  await expect(receipt.getByRole('status')).toHaveText('Нацрт пријемнице за рачун F-500 је сачуван.');
  const drafts = page.getByRole('table', { name: 'Нацрти пријемница' });
  await expect(drafts.getByRole('row', { name: /F-500/ })).toContainText('Воћни сокови д.о.о.F-500');
  await expect(stock.getByRole('row', { name: /Сок од јабуке/ })).toHaveCount(0);

  // Opened again, a second line added, saved over itself.
  await page.getByRole('button', { name: 'Измени нацрт за рачун F-500' }).click();
  const editing = page.getByRole('form', { name: 'Нацрт пријемнице за рачун F-500' });
  await expect(editing.getByLabel('Количина 1')).toHaveValue('12');
  await editing.getByRole('button', { name: 'Додај ставку' }).click();
  await keptPriceLine(editing, 2, ['2001', '30', '40,00', '65,00']);
  await editing.getByRole('button', { name: 'Сачувај као нацрт' }).click();
  await expect(drafts.getByRole('row', { name: /F-500/ })).toContainText('2');
  await shotsAtSizes(page, 'hub-receipts-drafts-sr-Cyrl', TILL_SIZES, drafts);

  // Posted from the list: the stock moves once.
  await page.getByRole('button', { name: 'Прокњижи нацрт за рачун F-500' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'F-500' })).toHaveText(
    'Пријемница за рачун F-500 је прокњижена.',
  );
  await expect(stock.getByRole('row', { name: /Сок од јабуке/ })).toContainText('1001Сок од јабуке 1 л12');
  await expect(page.getByText('Нема нацрта пријемница.')).toBeVisible();
  const posted = page.getByRole('table', { name: 'Прокњижене пријемнице и сторна' });
  const row = posted.getByRole('row', { name: /F-500/ });
  await expect(row).toContainText('Прокњижена');
  const number = ((await row.getByRole('cell').first().textContent()) ?? '').trim();
  expect(number).toMatch(/^\d+\/\d{4}$/);
  // The receipt's row by its number from here on (its reversal names the same invoice).
  const receiptRow = posted.getByRole('row', { name: new RegExp(`^${number} `) });

  // The receipt's calculation as A4.
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: `PDF калкулације бр. ${number}` }).click(),
  ]);
  const file = path.join(dir, 'receipt.pdf');
  await pdf.saveAs(file);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  expect(text).toContain(`Пријемница са калкулацијом бр. ${number}`);
  expect(text).toContain('Воћни сокови д.о.о.');
  expect(text).toContain('100002055');
  keepPdfPages(file, 'hub-receipts-receipt-a4', 80, 1);

  // „Сторно“: a numbered reversal takes the goods back out.
  await posted.getByRole('button', { name: `Сторно пријемнице бр. ${number}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'сторнирана' })).toHaveText(
    `Пријемница бр. ${number} је сторнирана.`,
  );
  await expect(receiptRow).toContainText('Сторнирана (сторно бр. ');
  await expect(posted.getByRole('row', { name: new RegExp(`Сторно пријемнице бр\\. ${number}`) })).toBeVisible();
  await expect(stock.getByRole('row', { name: /Сок од јабуке/ })).toContainText('1001Сок од јабуке 1 л0');
  await expect(posted.getByRole('button', { name: `Сторно пријемнице бр. ${number}` })).toHaveCount(0);

  // Minimums: below zero refused at its field; then the reorder list with its supplier, as CSV and PDF.
  const minimum = page.getByRole('form', { name: 'Сачувај минимум' });
  await minimum.getByLabel('Шифра').fill('2001');
  await minimum.getByLabel('Минимум').fill('-2');
  await minimum.getByRole('button', { name: 'Сачувај минимум' }).click();
  await expect(minimum.getByRole('alert')).toHaveText('Унесите минималну количину, нула или више, нпр. 5.');
  await minimum.getByLabel('Минимум').fill('15');
  await minimum.getByRole('button', { name: 'Сачувај минимум' }).click();
  const reorder = page.getByRole('table', { name: 'Списак за наручивање' });
  // 10 loaves on hand (the draft's 30 came and went with its reversal), 15 the minimum: order 5.
  await expect(reorder.getByRole('row', { name: /2001/ })).toContainText(
    'Воћни сокови д.о.о. (101134702)2001Хлеб бели10155',
  );
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Списак за наручивање (CSV)' }).click(),
  ]);
  const csvFile = path.join(dir, 'reorder.csv');
  await csv.saveAs(csvFile);
  expect(fs.readFileSync(csvFile, 'utf8')).toContain('Воћни сокови д.о.о.;101134702;2001;Хлеб бели;10;15;5;40,00');
  const [reorderPdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Списак за наручивање (PDF)' }).click(),
  ]);
  expect(reorderPdf.suggestedFilename()).toMatch(/^narucivanje-.*\.pdf$/);

  const tables = {
    'sr-Cyrl': { posted: 'Прокњижене пријемнице и сторна', reorder: 'Списак за наручивање' },
    'sr-Latn': { posted: 'Proknjižene prijemnice i storna', reorder: 'Spisak za naručivanje' },
    en: { posted: 'Posted receipts and reversals', reorder: 'Reorder list' },
  };
  await inEachHubLanguage(page, tables, async (lang, { posted, reorder }) => {
    const shown = page.getByRole('table', { name: posted });
    await expect(shown).toBeVisible();
    await shotsAtSizes(page, `hub-receipts-posted-${lang}`, TILL_SIZES, shown);
    const reorderShown = page.getByRole('table', { name: reorder });
    await shotsAtSizes(page, `hub-receipts-reorder-${lang}`, TILL_SIZES, reorderShown);
  });
  await expect(page.getByRole('button', { name: `Reverse receipt no. ${number}` })).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Posted receipts and reversals' })).toContainText(
    'Reversal of receipt no.',
  );
});

/** A till of the shop enrolled by HTTP that reports its tax labels with their rates, as every till's push does. */
async function tillReportingLabels(): Promise<void> {
  const hub = rig.hub;
  const post = (route: string, body: unknown, token?: string) =>
    hub.request(`${hub.url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const enrolled = (await (await post('/api/enrol', { code: hub.enrolCode, name: 'Каса 1' })).json()) as {
    tillId: number;
    credential: string;
  };
  const status = { queued: 0, needsAttention: 0, oldestQueuedAt: null, hubQueued: 0, taxLabels: ['Ђ', 'Е'] };
  const taxRates = [
    { label: 'Ђ', rate: 20 },
    { label: 'Е', rate: 10 },
  ];
  const pushed = await post(
    '/api/till/push',
    { tillId: enrolled.tillId, events: [], status: { ...status, taxRates } },
    enrolled.credential,
  );
  expect(pushed.status).toBe(200);
}

test('a receipt line makes a new product, lines from a supplier’s CSV, late drafts in the KEP; three languages', async ({
  page,
}) => {
  await tillReportingLabels();
  await rig.openAsManager(page, 'Роба');
  const stock = page.getByRole('table', { name: 'Залихе' });
  const late = page.getByRole('region', { name: 'КЕП: дани који нису уписани до наредног дана' });
  await expect(page.getByRole('table', { name: 'КЕП' })).toBeVisible();
  await expect(late).toHaveCount(0);

  // A draft whose line makes a new product: a code the catalog has is refused under its field, nothing saved.
  const receipt = page.getByRole('form', { name: 'Нова пријемница' });
  await receipt.getByRole('combobox', { name: /^Добављач/ }).selectOption({ label: 'Воћни сокови д.о.о.' });
  await receipt.getByLabel('Број рачуна добављача').fill('F-600');
  await receipt.getByLabel(/^Датум рачуна/).fill(fieldDay(shopDay(new Date(Date.now() - 4 * 86_400_000))));
  await receipt.getByLabel('Нови артикал на ставци 1').check();
  await receipt.getByLabel('Шифра новог артикла (ставка 1)').fill('1001');
  await receipt.getByLabel('Назив новог артикла (ставка 1)').fill('Сок од брескве 1 л');
  await receipt.getByLabel('Група (ставка 1)').fill('Пиће');
  await receipt.getByLabel('Бар-кодови, зарезом (ставка 1)').fill('8600000000031');
  await expect(receipt.getByRole('combobox', { name: 'Пореска ознака (ставка 1)' })).toHaveValue('Ђ');
  await receipt.getByLabel('Количина 1').fill('6');
  await receipt.getByLabel('Набавна цена без ПДВ-а 1').fill('100,00');
  await receipt.getByLabel('Маржа % 1').fill('25');
  // 100,00 × 1,25 × 1,20 (Ђ at the rate the till reports) = 150,00.
  await expect(receipt.getByText('Сок од брескве 1 л: Нето набавна 100,00; продајна 150,00')).toBeVisible();
  await receipt.getByRole('button', { name: 'Сачувај као нацрт' }).click();
  await expect(receipt.getByRole('alert')).toHaveText(
    'Артикал са том шифром већ постоји у каталогу: изаберите га уместо новог.',
  );
  await expect(page.getByRole('table', { name: 'Нацрти пријемница' })).toHaveCount(0);
  await receipt.getByLabel('Шифра новог артикла (ставка 1)').fill('3001');
  await receipt.getByRole('button', { name: 'Сачувај као нацрт' }).click();
  await expect(receipt.getByRole('status')).toHaveText('Нацрт пријемнице за рачун F-600 је сачуван.');
  // The draft makes nothing, and its invoice day, four days back, is not entered in the KEP by the next day.
  await expect(stock.getByRole('row', { name: /3001/ })).toHaveCount(0);
  const fourDaysAgo = fieldDay(shopDay(new Date(Date.now() - 4 * 86_400_000)));
  await expect(late.getByRole('listitem')).toHaveText([`${fourDaysAgo}: нацрта пријемница 1`]);

  // Opened again: a supplier's CSV with a bad row adds nothing and says the row and column; a good one adds.
  await page.getByRole('button', { name: 'Измени нацрт за рачун F-600' }).click();
  const editing = page.getByRole('form', { name: 'Нацрт пријемнице за рачун F-600' });
  await expect(editing.getByLabel('Назив новог артикла (ставка 1)')).toHaveValue('Сок од брескве 1 л');
  const csvInput = editing.getByLabel('Ставке из CSV добављача');
  await csvInput.setInputFiles({
    name: 'dobavljac.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('šifra;količina;cena\n2001;20;40,00\nNEMA;1;10\n'),
  });
  await expect(editing.getByRole('alert')).toHaveText('CSV, ред 3, колона 1: артикал са шифром „NEMA“ не постоји.');
  await expect(editing.getByLabel('Количина 2')).toHaveCount(0);
  await shotsAtSizes(page, 'hub-receipts-new-product-csv-sr-Cyrl', TILL_SIZES, editing);
  await csvInput.setInputFiles({
    name: 'dobavljac.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('šifra;količina;cena;rabat\n2001;20;40,00;10\n'),
  });
  await expect(editing.getByRole('status')).toHaveText('Из CSV-а је додато ставки: 1.');
  await expect(editing.getByLabel('Артикал 2 (шифра, баркод или назив)')).toHaveValue('2001');
  await expect(editing.getByLabel('Количина 2')).toHaveValue('20');

  // Posted: the product is made in the catalog with its stock, and the day is entered.
  await editing.getByRole('button', { name: 'Прокњижи пријемницу' }).click();
  const posted = page.getByRole('table', { name: 'Прокњижене пријемнице и сторна' });
  await expect(posted.getByRole('row', { name: /F-600/ })).toContainText('Прокњижена');
  await expect(stock.getByRole('row', { name: /3001/ })).toContainText('3001Сок од брескве 1 л6150,00');
  await expect(late).toHaveCount(0);

  // Another late draft and a fresh line ticked as new, shown in the three languages.
  const again = page.getByRole('form', { name: 'Нова пријемница' });
  await again.getByRole('combobox', { name: /^Добављач/ }).selectOption({ label: 'Воћни сокови д.о.о.' });
  await again.getByLabel('Број рачуна добављача').fill('F-601');
  await again.getByLabel(/^Датум рачуна/).fill(fourDaysAgo);
  await keptPriceLine(again, 1, ['2001', '5', '40,00', '65,00']);
  await again.getByRole('button', { name: 'Сачувај као нацрт' }).click();
  await expect(late.getByRole('listitem')).toHaveText([`${fourDaysAgo}: нацрта пријемница 1`]);
  await again.getByLabel('Нови артикал на ставци 1').check();
  const names = {
    'sr-Cyrl': {
      form: 'Нова пријемница',
      region: 'КЕП: дани који нису уписани до наредног дана',
      line: 'нацрта пријемница 1',
    },
    'sr-Latn': {
      form: 'Nova prijemnica',
      region: 'KEP: dani koji nisu upisani do narednog dana',
      line: 'nacrta prijemnica 1',
    },
    en: { form: 'New goods receipt', region: 'KEP: days not entered by the next day', line: 'draft receipts 1' },
  };
  await inEachHubLanguage(page, names, async (lang, { form, region, line }) => {
    const shownForm = page.getByRole('form', { name: form });
    await expect(shownForm.getByRole('checkbox').first()).toBeChecked();
    await shotsAtSizes(page, `hub-receipts-new-product-${lang}`, TILL_SIZES, shownForm);
    const shownLate = page.getByRole('region', { name: region });
    await expect(shownLate.getByRole('listitem')).toContainText(line);
    await shotsAtSizes(page, `hub-receipts-kep-late-${lang}`, TILL_SIZES, shownLate);
  });
});
