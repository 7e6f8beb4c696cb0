/**
 * Менаџер → Цене (issue 42, docs/prices.md) through the browser host and the sandbox gateway, in all three
 * languages: a promotion and a business buyer's price list made on the screen; the bad input refused at its field
 * with nothing saved (a promotion ending before it starts, one longer than 31 days, a PIB that is not one, a
 * second promotion on the product with the same priority); „in force now“ names the promotion; the promotion
 * prices the counter's line; the buyer's `10:PIB` at the payment screen prices the cart by the buyer's list at
 * once (the line names it), removing it prices the cart back; the receipt names the list and the old price; the
 * list is deleted after a confirmation. Screenshots at 1024×768 and 1366×768 (KASA_SHOTS=<dir> copies them).
 */
import type { Locator, Page } from '@playwright/test';
import type { PricesOverview } from '../../shared/contract/prices.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { formatDay } from '../../renderer/src/dates.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { csvProblemText } from '../../shared/prices/items-csv.ts';
import {
  cartRows,
  managerTabOnSample,
  paidWithoutApproval,
  pieceItem,
  rsd,
  ruleNote,
  scan,
} from './counter-support.ts';
import { inEachLanguage, LANGUAGES, managerT, shotsAtTillSizes } from './languages.ts';
import { expect, test, type KasaFixture } from './fixtures.ts';

const PIB = '101134702';
/** The shop's day `days` from today. */
const shopDay = (days: number): string => dayIn(new Date(Date.now() + days * 86_400_000));

async function overview(kasa: KasaFixture): Promise<PricesOverview> {
  const r = await kasa.host.call<PricesOverview>('prices.overview', {});
  if (!r.body.value) throw new Error(JSON.stringify(r.body));
  return r.body.value;
}

/** A DateField of a form, found by its label (its name goes on with the format it takes). */
function dayField(form: Locator, label: string): Locator {
  return form.getByRole('textbox', { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')} `) });
}

inEachLanguage({ browserLocale: true }, (lang) => {
  test('lists and promotions made on the screen price the counter; a business buyer gets its list', async ({
    kasa,
  }) => {
    const { page } = kasa;
    const ui = uiMessages[lang];
    const m = managerT(lang);
    const mgr = await managerTabOnSample(kasa, lang, 'tab_prices');

    // A promotion on the white bread, for ten days from today.
    const promo = mgr.getByRole('form', { name: m('prices_promotion_form') });
    const promoName = 'Јесења акција';
    await promo.getByLabel(m('prices_f_name'), { exact: true }).fill(promoName);
    await promo.getByLabel(m('prices_f_priority'), { exact: true }).fill('10');
    await promo.getByLabel(m('prices_f_code'), { exact: true }).fill('1001');
    await promo.getByLabel(m('prices_f_kind')).selectOption('price');
    await promo.getByLabel(m('prices_f_price'), { exact: true }).fill('59,99');
    await dayField(promo, m('prices_f_from_day')).fill(formatDay(shopDay(0), lang));
    await dayField(promo, m('prices_f_to_day')).fill(formatDay(shopDay(10), lang));
    await promo.getByRole('button', { name: m('prices_promotion_save') }).click();
    await expect(mgr.getByRole('status')).toHaveText(m('prices_promotion_saved', { name: promoName }));
    const promotions = mgr.getByRole('table', { name: m('prices_promotions') });
    await expect(promotions.getByRole('row').filter({ hasText: promoName })).toContainText(rsd(5999));

    // Bad input, each at its field, nothing saved: ending before it starts, longer than 31 days, the same
    // priority on the same product in an overlapping period.
    const other = 'Друга акција';
    await promo.getByLabel(m('prices_f_name'), { exact: true }).fill(other);
    await promo.getByLabel(m('prices_f_priority'), { exact: true }).fill('10');
    await promo.getByLabel(m('prices_f_code'), { exact: true }).fill('1001');
    await promo.getByLabel(m('prices_f_price'), { exact: true }).fill('50');
    await dayField(promo, m('prices_f_from_day')).fill(formatDay(shopDay(5), lang));
    await dayField(promo, m('prices_f_to_day')).fill(formatDay(shopDay(2), lang));
    await promo.getByRole('button', { name: m('prices_promotion_save') }).click();
    await expect(promo.locator('#promotion-toDay-error')).toContainText(m('prices_f_to_day'));
    await dayField(promo, m('prices_f_to_day')).fill(formatDay(shopDay(45), lang));
    await promo.getByRole('button', { name: m('prices_promotion_save') }).click();
    await expect(promo.locator('#promotion-toDay-error')).toContainText('31');
    await expect(promo.locator('#promotion-toDay-error')).toContainText('41');
    await dayField(promo, m('prices_f_to_day')).fill(formatDay(shopDay(8), lang));
    await promo.getByRole('button', { name: m('prices_promotion_save') }).click();
    await expect(promo.locator('#promotion-priority-error')).toContainText(promoName);
    await expect(promo.locator('#promotion-toDay-error')).toHaveCount(0);
    expect((await overview(kasa)).promotions.map((p) => p.name)).toEqual([promoName]);
    await shotsAtTillSizes(page, `prices-screen-errors-${lang}`, promo.locator('#promotion-priority-error'));

    // A business buyer's list: the rye bread at 80,00. First a PIB whose check digit is wrong.
    const list = mgr.getByRole('form', { name: m('prices_list_form') });
    const listName = 'Фирма Пример';
    await list.getByLabel(m('prices_f_name'), { exact: true }).fill(listName);
    await list.getByLabel(m('prices_f_scope')).selectOption('buyer');
    await list.getByLabel(m('prices_f_pib'), { exact: true }).fill('101134703');
    await list.getByRole('button', { name: m('prices_f_item_add') }).click();
    await list.getByLabel(m('prices_f_item_code', { n: 1 }), { exact: true }).fill('1002');
    await list.getByLabel(m('prices_f_item_price', { n: 1 }), { exact: true }).fill('80,00');
    await list.getByRole('button', { name: m('prices_list_save') }).click();
    await expect(list.locator('#price-list-buyerPib-error')).toContainText(m('prices_f_pib'));
    expect((await overview(kasa)).lists).toEqual([]);
    await list.getByLabel(m('prices_f_pib'), { exact: true }).fill(PIB);
    await list.getByRole('button', { name: m('prices_list_save') }).click();
    await expect(mgr.getByRole('status')).toHaveText(m('prices_list_saved', { name: listName }));
    await expect(
      mgr
        .getByRole('table', { name: m('prices_lists') })
        .getByRole('row')
        .filter({ hasText: listName }),
    ).toContainText(m('prices_scope_buyer_pib', { pib: PIB }));

    // In force now: the white bread at the promotion's price, and the promotion's end next.
    const now = mgr.getByRole('form', { name: m('prices_now_title') });
    await now.getByLabel(m('prices_now_query'), { exact: true }).fill('1001');
    await now.getByRole('button', { name: m('prices_now_show') }).click();
    await expect(mgr.getByTestId('prices-now-price')).toHaveText(rsd(5999));
    await expect(mgr.getByTestId('prices-now-rule')).toHaveText(m('prices_by_promotion', { name: promoName }));
    await shotsAtTillSizes(page, `prices-screen-${lang}`, mgr.getByTestId('prices-now-rule'));
    // The rye bread for the buyer: the buyer's list.
    await now.getByLabel(m('prices_now_query'), { exact: true }).fill('1002');
    await now.getByLabel(m('prices_now_buyer'), { exact: true }).fill(PIB);
    await now.getByRole('button', { name: m('prices_now_show') }).click();
    await expect(mgr.getByTestId('prices-now-price')).toHaveText(rsd(8000));
    await expect(mgr.getByTestId('prices-now-rule')).toHaveText(m('prices_by_list', { name: listName }));
    await shotsAtTillSizes(page, `prices-screen-lists-${lang}`, mgr.getByRole('table', { name: m('prices_lists') }));
    await mgr.getByRole('button', { name: m('close') }).click();

    // The counter: the promotion prices the white bread; the rye bread at its regular price.
    const breads = [pieceItem('1001'), pieceItem('1002')];
    for (const b of breads) await scan(page, b.barcode);
    const [whiteLine, ryeLine] = cartRows(page, lang, breads) as [Locator, Locator];
    await expect(whiteLine.getByTestId('price-rule')).toHaveText(ruleNote(lang, promoName, 6500));
    await expect(ryeLine.getByTestId('price-rule')).toHaveCount(0);
    await expect(page.getByTestId('cart-total')).toHaveText(rsd(5999 + 9500));

    // The business buyer at the payment screen: the buyer's list applies at once; removing the buyer undoes it.
    await page.keyboard.press('F12');
    const pay = page.getByRole('main', { name: ui.pay.title });
    await expect(pay).toBeVisible();
    await pay.getByLabel(ui.pay.buyerType, { exact: true }).selectOption('10');
    await pay.getByLabel(ui.pay.buyerId, { exact: true }).fill(PIB);
    await expect(pay.getByTestId('due')).toHaveText(rsd(5999 + 8000));
    await expect(pay.getByTestId('pay-price-rules')).toContainText(listName);
    await shotsAtTillSizes(page, `prices-buyer-pay-${lang}`);
    await page.keyboard.press('Escape');
    await expect(ryeLine.getByTestId('price-rule')).toHaveText(ruleNote(lang, listName, 9500));
    await expect(page.getByTestId('cart-total')).toHaveText(rsd(5999 + 8000));
    // The cart itself says who it sells to and that the buyer's list prices it, not only the payment screen.
    const cartBuyer = page.getByTestId('cart-buyer');
    await expect(cartBuyer).toContainText(ui.sale.buyerPib.replace('{pib}', PIB));
    await expect(cartBuyer).toContainText(listName);
    await shotsAtTillSizes(page, `prices-buyer-counter-${lang}`);
    await page.keyboard.press('F12');
    await expect(pay.getByLabel(ui.pay.buyerId, { exact: true })).toHaveValue(PIB);
    await pay.getByLabel(ui.pay.buyerType, { exact: true }).selectOption('');
    await expect(pay.getByTestId('due')).toHaveText(rsd(5999 + 9500));
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('cart-buyer')).toHaveCount(0);
    await page.keyboard.press('F12');
    await pay.getByLabel(ui.pay.buyerType, { exact: true }).selectOption('10');
    await pay.getByLabel(ui.pay.buyerId, { exact: true }).fill(PIB);
    await expect(pay.getByTestId('due')).toHaveText(rsd(5999 + 8000));

    // Paid with the buyer: no manager's PIN (the list's price is the shop's), the receipt names the list.
    const order = await paidWithoutApproval(kasa, lang, `${listName}, стара цена 95,00`);
    expect(order?.buyerId).toBe(`10:${PIB}`);
    expect(order?.lines.map((l) => [l.priceRule, l.totalPara])).toEqual([
      [promoName, 5999],
      [listName, 8000],
    ]);
    await shotsAtTillSizes(page, `prices-buyer-receipt-${lang}`);

    // The list is deleted after a confirmation (cancelled first: nothing happens).
    await page.keyboard.press('Enter');
    await deleteList(page, lang, listName);
    expect((await overview(kasa)).lists).toEqual([]);
  });

  test("a list's prices from a CSV file: a bad row named by line and column, nothing taken; a good file saved", async ({
    kasa,
  }) => {
    const { page } = kasa;
    const m = managerT(lang);
    const mgr = await managerTabOnSample(kasa, lang, 'tab_prices');
    const list = mgr.getByRole('form', { name: m('prices_list_form') });
    await list.getByLabel(m('prices_f_name'), { exact: true }).fill('Из датотеке');
    const file = list.getByLabel(m('prices_f_import'), { exact: true });
    const csv = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
    // The Serbian dialect, its third line's price not a price: said by line and column, no row taken.
    await file.setInputFiles(csv('lose.csv', 'шифра;цена\n1001;59,99\n1002;осамдесет\n'));
    await expect(list.getByRole('alert')).toHaveText(
      csvProblemText(lang, { row: 3, column: 2, code: 'prices_csv_price', value: 'осамдесет' }, m('prices_f_import')),
    );
    await expect(file).toHaveAttribute('aria-invalid', 'true');
    await expect(list.getByLabel(m('prices_f_item_code', { n: 1 }), { exact: true })).toHaveCount(0);
    await shotsAtTillSizes(page, `prices-csv-refused-${lang}`, list.getByRole('alert'));
    // The English dialect with a byte-order mark and a header: the rows filled, then saved with the list.
    await file.setInputFiles(csv('dobro.csv', '\uFEFFcode,price\n1001,59.99\n1002,80\n'));
    await expect(list.getByLabel(m('prices_f_item_code', { n: 2 }), { exact: true })).toHaveValue('1002');
    await expect(list.getByRole('alert')).toHaveCount(0);
    await list.getByRole('button', { name: m('prices_list_save') }).click();
    await expect(mgr.getByRole('status')).toHaveText(m('prices_list_saved', { name: 'Из датотеке' }));
    expect((await overview(kasa)).lists.map((l) => l.items.map((i) => [i.code, i.pricePara]))).toEqual([
      [
        ['1001', 59_99],
        ['1002', 80_00],
      ],
    ]);
    await shotsAtTillSizes(page, `prices-csv-${lang}`, mgr.getByRole('table', { name: m('prices_lists') }));
  });
});

async function deleteList(page: Page, lang: (typeof LANGUAGES)[number], name: string): Promise<void> {
  const m = managerT(lang);
  await page.getByRole('button', { name: m('open') }).click();
  const mgr = page.getByRole('dialog', { name: m('title') });
  await mgr.getByRole('tab', { name: m('tab_prices') }).click();
  await mgr.getByRole('button', { name: m('prices_delete', { name }) }).click();
  const confirm = page.getByRole('dialog', { name: m('prices_confirm_title') });
  await expect(confirm).toContainText(m('prices_confirm_list', { name }));
  await confirm.getByRole('button', { name: m('cancel') }).click();
  await expect(confirm).toHaveCount(0);
  await expect(mgr.getByRole('table', { name: m('prices_lists') })).toContainText(name);
  await mgr.getByRole('button', { name: m('prices_delete', { name }) }).click();
  await confirm.getByRole('button', { name: m('prices_delete_short') }).click();
  await expect(mgr.getByRole('status')).toHaveText(m('prices_deleted', { name }));
  await expect(mgr.getByText(m('prices_lists_none'))).toBeVisible();
}
