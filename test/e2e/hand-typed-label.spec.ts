/**
 * Issue 38 items 3 and 4 in all three languages, through the browser host and the sandbox's demo account.
 * F3 (a hand-typed item) and the product form offer only the account's current labels, each written one way
 * („E — ПДВ 6 %“, „P — Порез на промет 0,5 %“), starting with the shop's usual label (the catalog's most used:
 * E in the sample catalog), so the first hand-typed sale is fiscalized (it used to start with Ж, which the demo
 * account's secure element refuses: Потребна пажња). Resuming a parked sale with another cart open asks first.
 * Screenshots at 1024×768 and 1366×768 (<KASA_SHOTS>/<name>-<lang>-<width>.png when set).
 */
import type { Page } from '@playwright/test';
import type { Language, OrderView } from '../../shared/domain.ts';
import { taxLabelName } from '../../shared/i18n/enums.ts';
import { DEMO_TAX_GROUP } from '../../electron/sandbox/accounts.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { pieceItem, readyToSell } from './counter-support.ts';
import { expect, test } from './fixtures.ts';
import { inEachLanguage, shotsAtTillSizes } from './languages.ts';

const shots = (page: Page, name: string, lang: Language): Promise<void> => shotsAtTillSizes(page, `${name}-${lang}`);

/** Every current label of the demo account, as the screens write it. */
function demoLabels(lang: Language): string[] {
  return DEMO_TAX_GROUP.taxCategories.flatMap((c) =>
    c.taxRates.map((r) => taxLabelName(lang, { label: r.label, rate: r.rate, categoryName: c.name })),
  );
}

test('the label is written one way, with the decimal comma', () => {
  const all = demoLabels('sr-Cyrl');
  expect(all).toContain('E — ПДВ 6 %');
  expect(all).toContain('P — Порез на промет 0,5 %');
  expect(taxLabelName('sr-Cyrl', { label: 'Ђ', rate: 20, categoryName: 'О-ПДВ' })).toBe('Ђ — ПДВ 20 %');
  expect(taxLabelName('sr-Latn', { label: 'Е', rate: 10, categoryName: 'П-ПДВ' })).toBe('Е — PDV 10 %');
  expect(taxLabelName('en', { label: 'P', rate: 0.5, categoryName: 'STT' })).toBe('P — Sales turnover tax 0,5 %');
});

inEachLanguage((lang) => {
  const ui = uiMessages[lang];

  test('F3 and the product form start with the usual label; the hand-typed sale is fiscalized', async ({ kasa }) => {
    // The sample catalog: E is its most used label.
    const page = await readyToSell(kasa, { lang });

    await page.keyboard.press('F3');
    const manual = page.getByRole('dialog', { name: ui.dialog.manualTitle });
    const select = manual.getByLabel(ui.dialog.label);
    expect(await select.locator('option').allTextContents()).toEqual(demoLabels(lang));
    await expect(select).toHaveValue('E');
    await manual.getByLabel(ui.sale.name).fill('Поклон кеса');
    await manual.getByLabel(ui.dialog.unitPrice).fill('49,90');
    await shots(page, 'f3-label', lang);
    await manual.getByLabel(ui.dialog.unitPrice).press('Enter');
    await expect(manual).toHaveCount(0);

    await page.keyboard.press('F12');
    await expect(page.getByRole('main', { name: ui.action.pay })).toBeVisible();
    await page.keyboard.press('F12');
    await expect(page.getByTestId('receipt-state')).toHaveText(ui.receipt.fiscalized);
    const r = await kasa.host.call<{ orders: OrderView[] }>('orders.list', { limit: 1 });
    const order = r.body.value?.orders[0];
    expect(order?.state).toBe('fiscalized');
    expect(order?.lines.map((l) => l.labels)).toEqual([['E']]);

    // The product form: the same labels, written the same way, starting with the same one.
    await page.keyboard.press('Enter');
    await page.keyboard.press('F8');
    const products = page.getByRole('main', { name: ui.catalog.title }).getByRole('region', {
      name: ui.catalog.products,
    });
    await products.getByRole('button', { name: ui.catalog.add }).click();
    const form = page.getByRole('dialog', { name: ui.catalog.addTitle });
    const formSelect = form.getByLabel(ui.catalog.label);
    expect(await formSelect.locator('option').allTextContents()).toEqual(demoLabels(lang));
    await expect(formSelect).toHaveValue('E');
    await shots(page, 'product-form-label', lang);
  });

  test('resuming a parked sale with another cart open asks first', async ({ kasa }) => {
    // The sample catalog: E is its most used label.
    const page = await readyToSell(kasa, { lang });
    const rows = page.getByRole('table', { name: ui.sale.cart }).getByRole('row', { name: /\d: / });
    await page.keyboard.type(pieceItem('1001').barcode);
    await page.keyboard.press('Enter');
    await expect(rows).toHaveCount(1);
    await page.keyboard.press('F9');
    await page.getByRole('dialog', { name: ui.dialog.parkTitle }).getByLabel(ui.dialog.parkName).fill('Петар');
    await page.keyboard.press('Enter');
    await expect(rows).toHaveCount(0);
    await page.keyboard.type(pieceItem('1006').barcode);
    await page.keyboard.press('Enter');
    await expect(rows).toHaveCount(1);

    await page.keyboard.press('F7');
    const parked = page.getByRole('dialog', { name: ui.dialog.parkedTitle });
    await parked.getByRole('button', { name: new RegExp(`^${ui.dialog.resume}: Петар`) }).click();
    const ask = page.getByRole('dialog', { name: ui.dialog.resumeAskTitle });
    await expect(ask.getByRole('button', { name: ui.dialog.parkAndResume })).toBeFocused();
    await shots(page, 'resume-ask', lang);
    await ask.getByRole('button', { name: ui.action.cancel }).click();
    await expect(ask).toHaveCount(0);
    await expect(parked).toBeVisible();
  });
});
