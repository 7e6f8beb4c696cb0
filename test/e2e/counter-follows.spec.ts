/**
 * The counter follows the till's people and catalog as they change (issue 38, items 1 and 2), through the browser
 * host and the sandbox gateway, in all three languages:
 * - a manager changes a price (65,00 → 70,00) while a cashier has the sale screen open: the quick key shows the new
 *   price at once, a line already in the cart takes it with the old one shown beside it, a sale by the tile sells
 *   at it, and payment asks no manager's PIN (the core's guard would, for a price that is not the catalog's);
 * - the cashier logged in is deactivated: the counter returns to the login at once, says why, keeps the open cart
 *   for the next person, and the staff screen shows the person deactivated.
 * Screenshots at 1024×768 and 1366×768 in the test's output directory and, with KASA_SHOTS=<dir>, in
 * <dir>/counter-follows-<what>-<lang>-<width>.png.
 */
import { inEachLanguage, loginFocused, shotsAndBack } from './languages.ts';
import type { Page } from '@playwright/test';
import type { Language, OrderView } from '../../shared/domain.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { mt } from '../../renderer/src/manager/i18n.ts';
import { interpolate } from '../../shared/i18n/catalog.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { addCashier, callOk, catalogProduct, pieceItem, readyToSell, rsd, scan } from './counter-support.ts';
import { expect, test, type KasaFixture } from './fixtures.ts';

const CASHIER = { name: 'Ана Анић', pin: '1357' };

const shots = (page: Page, what: string, lang: Language): Promise<void> =>
  shotsAndBack(page, `counter-follows-${what}-${lang}`);

/**
 * The sample catalog and a cashier (not a manager: nothing she does is approved by her own PIN), the counter reloaded
 * and the cashier logged in (in `lang`); returns the page.
 */
async function prepare(kasa: KasaFixture, lang: Language): Promise<Page> {
  await addCashier(kasa, CASHIER.name, CASHIER.pin);
  return readyToSell(kasa, { lang, pin: CASHIER.pin });
}

inEachLanguage((lang) => {
  test('a price changed by a manager reaches the quick key and the cart at once, and payment asks no PIN', async ({
    kasa,
  }) => {
    const ui = uiMessages[lang];
    const page = await prepare(kasa, lang);
    const bread = await catalogProduct(kasa, '1001');
    expect(bread.pricePara).toBe(6500);
    const rye = pieceItem('1002');
    const tile = page.getByRole('navigation', { name: ui.sale.quickKeys }).getByRole('button', { name: bread.name });
    await expect(tile).toContainText(rsd(6500));
    // The bread is in the cart at 65,00 (by its tile) and the rye bread by its barcode at 95,00.
    await tile.click();
    await scan(page, rye.barcode);
    const cart = page.getByRole('region', { name: ui.sale.cart });
    const breadLine = cart.getByRole('row', { name: interpolate(ui.sale.line, { index: 1, name: bread.name }) });
    const ryeLine = cart.getByRole('row', { name: interpolate(ui.sale.line, { index: 2, name: rye.name }) });
    await expect(breadLine).toContainText(rsd(6500));
    await expect(ryeLine).toContainText(rsd(9500));

    // A manager changes both prices at this till (the rye bread's stays a catalog price too), one after the other:
    // each change is followed at once and named by its notice (two changes that reach the counter together are
    // named by one notice that counts them, which is the store's test to show).
    const changes = [
      { p: bread, price: 70, was: 6500, now: 7000 },
      { p: await catalogProduct(kasa, '1002'), price: 99, was: 9500, now: 9900 },
    ] as const;
    for (const { p, price, was, now } of changes) {
      const put = await kasa.host.call('catalog.put', {
        code: p.code,
        name: p.name,
        price,
        label: p.label,
        unit: p.unit,
        group: p.group,
        favourite: p.favourite,
        barcodes: p.barcodes,
        approval: { managerPin: MANAGER_PIN },
      });
      expect(put.body.ok, JSON.stringify(put.body)).toBe(true);
      await expect(
        page.getByRole('status').filter({
          hasText: interpolate(ui.sale.priceFollowed, { name: p.name, was: rsd(was), now: rsd(now) }),
        }),
      ).toBeVisible();
    }
    // The tile, and both lines, each with its old price beside the new one.
    await expect(tile).toContainText(rsd(7000));
    await expect(breadLine).toContainText(rsd(7000));
    await expect(breadLine.getByTestId('price-was')).toHaveText(interpolate(ui.sale.priceWas, { was: rsd(6500) }));
    await expect(ryeLine).toContainText(rsd(9900));
    await expect(ryeLine.getByTestId('price-was')).toHaveText(interpolate(ui.sale.priceWas, { was: rsd(9500) }));
    // The search shows the new price as well.
    await page.getByRole('combobox', { name: ui.sale.search }).fill(bread.name.split(' ')[0] ?? '');
    await expect(page.getByRole('option', { name: new RegExp(bread.name) })).toContainText(rsd(7000));
    await page.keyboard.press('Escape');
    await expect(page.getByRole('combobox', { name: ui.sale.search })).toHaveValue('');
    await shots(page, 'price', lang);

    // One more bread by its tile: the same line, now 2 × 70,00.
    await tile.click();
    await expect(breadLine.getByTestId('line-total')).toHaveText(rsd(14000));
    await expect(page.getByTestId('cart-total')).toHaveText(rsd(14000 + 9900));
    // Payment: exact cash, no manager's PIN asked, sold at the catalog's prices.
    await page.keyboard.press('F12');
    await expect(page.getByRole('main', { name: ui.pay.title })).toBeVisible();
    await page.keyboard.press('F12');
    await expect(page.getByTestId('receipt-state')).toBeVisible();
    await expect(page.getByRole('dialog', { name: ui.approval.title })).toHaveCount(0);
    const r = await kasa.host.call<{ orders: OrderView[] }>('orders.list', { limit: 1 });
    const order = r.body.value?.orders[0];
    expect(order?.lines.map((l) => [l.name, l.quantityMilli, l.unitPricePara])).toEqual([
      [bread.name, 2000, 7000],
      [rye.name, 1000, 9900],
    ]);
  });

  test('a cashier deactivated while logged in: the login at once, the cart kept, the staff screen says so', async ({
    kasa,
  }) => {
    const ui = uiMessages[lang];
    const page = await prepare(kasa, lang);
    await expect(page.getByText(interpolate(ui.status.cashier, { name: CASHIER.name }))).toBeVisible();
    const rye = pieceItem('1002');
    await scan(page, rye.barcode);
    await scan(page, rye.barcode);
    const cart = page.getByRole('region', { name: ui.sale.cart });
    await expect(
      cart.getByRole('row', { name: interpolate(ui.sale.line, { index: 1, name: rye.name }) }),
    ).toBeVisible();
    const list = await kasa.host.call<{ staff: { id: number; name: string }[] }>('staff.list', {});
    const ana = list.body.value?.staff.find((s) => s.name === CASHIER.name);
    if (!ana) throw new Error('no cashier');

    // A manager deactivates her (here by the host's API, as the hub's pull or another till's change would).
    await callOk(kasa, 'staff.update', { managerPin: MANAGER_PIN, id: ana.id, active: false });
    const login = page.getByRole('main', { name: ui.login.title });
    await expect(login).toBeVisible();
    await expect(login.getByRole('status')).toContainText(interpolate(ui.login.sessionEnded, { name: CASHIER.name }));
    await expect(login.getByRole('status')).toContainText(interpolate(ui.login.cartKept, { count: 1 }));
    await shots(page, 'deactivated', lang);

    // The manager logs in: the open cart is there, and the staff screen shows her deactivated.
    await loginFocused(page, lang);
    const line = cart.getByRole('row', { name: interpolate(ui.sale.line, { index: 1, name: rye.name }) });
    await expect(line.getByTestId('line-total')).toHaveText(rsd(2 * rye.pricePara));
    await page.getByRole('button', { name: mt(lang, 'open') }).click();
    const mgr = page.getByRole('dialog', { name: mt(lang, 'title') });
    await mgr.getByRole('tab', { name: mt(lang, 'tab_staff') }).click();
    await expect(mgr.getByRole('row', { name: new RegExp(CASHIER.name) })).toContainText(mt(lang, 'staff_inactive'));
    await shots(page, 'staff', lang);
  });
});
