/**
 * Prices at the counter (issue 42, docs/prices.md), through the browser host and the sandbox gateway, in all three
 * languages: a promotion on the white bread and a happy hour (a price list on the bakery group in a window around
 * now) price the scanned lines at once; each cart line names its rule and the regular price it replaces; payment
 * asks no manager's PIN; the fiscal receipt's journal names the rule and the old price on the item. A scheduled
 * price change of the milk takes effect at its moment, and the milk then scans at its new price.
 * Screenshots at 1024×768 and 1366×768 (KASA_SHOTS=<dir> copies them there).
 */
import type { Locator } from '@playwright/test';
import { inEachLanguage, loginFocused, shotsAndBack } from './languages.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { wallClock } from '../../shared/i18n/time.ts';
import { MANAGER_PIN } from '../support/session.ts';
import {
  callOk,
  cartRows,
  catalogProduct,
  loadSample,
  paidWithoutApproval,
  pieceItem,
  putPromotion,
  rsd,
  ruleNote,
  scan,
} from './counter-support.ts';
import { expect, test } from './fixtures.ts';

/** `HH:MM` in Belgrade, `minutes` from now. */
function belgradeTime(minutes: number): string {
  const c = wallClock(new Date(Date.now() + minutes * 60_000));
  return `${c.hour}:${c.minute}`;
}

inEachLanguage((lang) => {
  test('a promotion and a happy hour at the counter and on the receipt; a scheduled price takes effect', async ({
    kasa,
  }) => {
    const { page } = kasa;
    const ui = uiMessages[lang];
    await loadSample(kasa);
    await putPromotion(kasa, { name: 'Викенд акција', priority: 10, code: '1001', price: 59.99 });
    // A happy hour on the bakery: −20 % from an hour ago to two hours on.
    await callOk(kasa, 'prices.listPut', {
      managerPin: MANAGER_PIN,
      name: 'Срећни сат',
      priority: 5,
      scope: 'shop',
      fromTime: belgradeTime(-60),
      toTime: belgradeTime(120),
      items: [],
      ruleGroup: 'Пекара',
      rulePercent: 20,
    });
    await page.reload();
    await loginFocused(page, lang);

    const white = pieceItem('1001');
    const rye = pieceItem('1002');
    await scan(page, white.barcode);
    await scan(page, white.barcode);
    await scan(page, rye.barcode);
    const cart = page.getByRole('region', { name: ui.sale.cart });
    const [whiteLine, ryeLine] = cartRows(page, lang, [white, rye]) as [Locator, Locator];
    // The promotion (priority 10) beats the happy hour on the white bread: 2 × 59,99; the rye bread −20 %.
    await expect(whiteLine.getByTestId('price-rule')).toHaveText(ruleNote(lang, 'Викенд акција', 6500));
    await expect(whiteLine.getByTestId('line-total')).toHaveText(rsd(11998));
    await expect(ryeLine.getByTestId('price-rule')).toHaveText(ruleNote(lang, 'Срећни сат', 9500));
    await expect(ryeLine.getByTestId('line-total')).toHaveText(rsd(7600));
    await expect(page.getByTestId('cart-total')).toHaveText(rsd(11998 + 7600));
    await shotsAndBack(page, `prices-counter-${lang}`);

    // Payment: exact cash, no manager's PIN (the rules' discounts are the shop's, not the cashier's).
    await page.keyboard.press('F12');
    await expect(page.getByRole('main', { name: ui.pay.title })).toBeVisible();
    const order = await paidWithoutApproval(
      kasa,
      lang,
      'Хлеб бели 500 г, Викенд акција, стара цена 65,00, попуст 10,02',
    );
    expect(order?.lines.map((l) => [l.priceRule, l.unitPricePara, l.totalPara])).toEqual([
      ['Викенд акција', 6500, 11998],
      ['Срећни сат', 9500, 7600],
    ]);
    expect(order?.receipt?.journal.replace(/\s+/g, ' ')).toContain('Срећни сат, стара цена 95,00, попуст 19,00');
    await shotsAndBack(page, `prices-receipt-${lang}`);

    // A new price of the milk from a few seconds on: it takes effect at that moment, and scans at it.
    const milk = await catalogProduct(kasa, '1006');
    await callOk(kasa, 'prices.schedule', {
      managerPin: MANAGER_PIN,
      code: '1006',
      price: 149.99,
      at: new Date(Date.now() + 3_000).toISOString(),
    });
    await expect.poll(async () => (await catalogProduct(kasa, '1006')).pricePara, { timeout: 15_000 }).toBe(14999);
    const overview = await kasa.host.call<{ scheduled: { state: string; oldPricePara: number }[] }>(
      'prices.overview',
      {},
    );
    expect(overview.body.value?.scheduled[0]).toMatchObject({ state: 'applied', oldPricePara: milk.pricePara });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('combobox', { name: ui.sale.search })).toBeFocused();
    // The quick key shows the new price at once (the shelf's price is the till's), and the milk scans at it.
    await expect(
      page.getByRole('navigation', { name: ui.sale.quickKeys }).getByRole('button', { name: milk.name }),
    ).toContainText(rsd(14999));
    await scan(page, pieceItem('1006').barcode);
    await expect(cart.getByRole('row').filter({ hasText: milk.name })).toContainText(rsd(14999));
    await shotsAndBack(page, `prices-scheduled-${lang}`);
  });
});
