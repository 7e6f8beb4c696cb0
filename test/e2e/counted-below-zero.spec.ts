/**
 * The shop setting against selling counted goods below zero (docs/goods.md "Stock-taking"), in Chromium through the
 * browser host and a real core, in three languages: a product counted at 2 pieces, the setting on, three pieces
 * scanned: the line is flagged below zero; the payment is refused by the core and the cart comes back with the
 * refusal on that line, in the till's language, said once and without the field's path (before, a notice above the
 * cart repeated it as „Неисправан унос (lines.0.quantity): …“); nothing was sold. Screenshots at both till sizes
 * (KASA_SHOTS=<dir>).
 */
import type { ProductView } from '../../shared/contract/catalog.ts';
import type { CountView } from '../../shared/contract/goods.ts';
import { fieldLabel } from '../../shared/i18n/fields.ts';
import { message } from '../../shared/messages.ts';
import { formatQuantity } from '../../shared/money.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { scan } from './counter-support.ts';
import { expect, test } from './fixtures.ts';
import { inEachLanguage, loginAt, shotsAtTillSizes } from './languages.ts';

const BARCODE = '4006381333931';
const NAME = 'Хлеб бели';

inEachLanguage({ browserLocale: true }, (lang) => {
  test('counted goods may not be sold below zero: the refusal on the cart line', async ({ kasa }) => {
    const { page, host } = kasa;
    const ui = uiMessages[lang];
    const put = await host.call<ProductView>('catalog.put', {
      code: 'B1',
      create: true,
      name: NAME,
      price: 65,
      label: 'A',
      unit: 'piece',
      group: 'Пекара',
      favourite: false,
      barcodes: [BARCODE],
      approval: { managerPin: MANAGER_PIN },
    });
    expect(put.body.ok, JSON.stringify(put.body)).toBe(true);
    // The bread counted: 2 on the shelf, posted (a surplus of 2 on an empty book).
    const count = await host.call<CountView>('goods.countStart', { managerPin: MANAGER_PIN, groups: ['Пекара'] });
    const id = count.body.value?.id;
    expect((await host.call('goods.countEnter', { id, lines: [{ code: 'B1', quantity: 2 }] })).body.ok).toBe(true);
    expect((await host.call('goods.countPost', { managerPin: MANAGER_PIN, id })).body.ok).toBe(true);
    const setting = await host.call('settings.update', { managerPin: MANAGER_PIN, noNegativeCounted: true });
    expect(setting.body.ok, JSON.stringify(setting.body)).toBe(true);

    await loginAt(page, lang);
    for (let i = 0; i < 3; i++) await scan(page, BARCODE);
    const flag = ui.sale.belowZero.replace('{quantity}', '-1');
    await expect(page.getByRole('note', { name: `${flag}: ${NAME}` })).toHaveText(flag);

    await page.keyboard.press('F12');
    await expect(page.getByRole('main', { name: ui.pay.title })).toBeVisible();
    await page.keyboard.press('F12');
    // Back on the sale screen, the core's refusal on the line whose quantity it names.
    const refusal = message(lang, 'goods_counted_below_zero', {
      name: NAME,
      onHand: formatQuantity(2_000),
      field: fieldLabel(lang, 'lines.0.quantity'),
    });
    // Said once, on the line: no notice above the cart repeating it with the field's path (lines.0.quantity).
    await expect(page.getByRole('alert')).toHaveText(refusal);
    expect(await page.locator('body').innerText()).not.toContain('lines.0');
    await expect(page.getByRole('combobox', { name: ui.sale.search })).toBeVisible();
    await shotsAtTillSizes(page, `counted-below-zero-${lang}`);
    const orders = await host.call<{ total: number }>('orders.list', {});
    expect(orders.body.value?.total).toBe(0);
  });
});
