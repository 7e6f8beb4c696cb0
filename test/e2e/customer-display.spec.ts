/**
 * The customer display (issue 41 §3, docs/payments.md "The customer display") in Chromium: two pages, the till and a
 * tablet's display, on the browser host with the embedded sandbox gateway, for each till language with the display
 * in another language (its own, chosen when the manager made its address):
 * - the manager makes the display's address on the till (Менаџер → Подешавања → Екран за купца): the URL and its QR
 *   code (decoded from the screen's pixels) carry a display-only token; the display opens it and shows the shop's
 *   name;
 * - the display follows the counter: the cart as it is built (the promotion's name at its line), the total, „За
 *   уплату“ on the payment screen, the IPS QR code while the IPS dialog is open (decoded from the display page's
 *   pixels to the shop's account, the amount and the reference the cashier sees), idle again when it closes, and
 *   after a cash sale the amount paid, the change and „Хвала“;
 * - the display's token is refused by the till's commands; once the manager revokes it the display says so.
 * Screenshots of the display at 1024×768, 1366×768 and a tablet's 800×1280, and of the manager's section, with
 * KASA_SHOTS=<dir> in <dir>/display-<what>-<language>-<width>.png.
 */
import type { Page } from '@playwright/test';
import type { Language } from '../../shared/domain.ts';
import { PAYMENT_NAMES } from '../../shared/i18n/enums.ts';
import { parseIpsQr } from '../../shared/payments/ips-qr.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { mt } from '../../renderer/src/manager/i18n.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { callOk, decodeReceiptQr, loadSample, pieceItem, putPromotion, rsd, scan } from './counter-support.ts';
import { expect, test } from './fixtures.ts';
import { LANGUAGES, openManagerTab, shotsAtSizes, shotsAtTillSizes } from './languages.ts';

const DISPLAY_SIZES = [
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
  { width: 800, height: 1280 },
] as const;

/** The display page at the three sizes (a landscape screen, a wide one, a portrait tablet). */
async function displayShots(display: Page, name: string): Promise<void> {
  await shotsAtSizes(display, name, DISPLAY_SIZES);
  await display.setViewportSize(DISPLAY_SIZES[0]);
}

for (const [i, lang] of LANGUAGES.entries()) {
  // The display speaks its own language, never the cashier's.
  const shown: Language = LANGUAGES[(i + 1) % LANGUAGES.length] ?? 'sr-Cyrl';
  test.describe(lang, () => {
    test.use({ kasaEnv: { KASA_LANG: lang } });

    test(`a tablet's display in ${shown} follows the counter: cart, promotion, IPS QR, change and thanks`, async ({
      kasa,
      context,
    }) => {
      const { page } = kasa;
      const ui = uiMessages[lang];
      const dw = uiMessages[shown].display;
      await loadSample(kasa);
      await callOk(kasa, 'settings.update', {
        managerPin: MANAGER_PIN,
        shopName: 'Продавница Код Мике',
        ipsAccount: '840-955845-10',
        ipsName: 'Код Мике',
      });
      await putPromotion(kasa, { name: 'Викенд акција', priority: 10, code: '1002', price: 59.99 });
      await page.reload();

      // The manager makes the tablet's address, in the display's language.
      const mgr = await openManagerTab(page, lang, 'tab_settings');
      const section = mgr.getByRole('region', { name: mt(lang, 'display_title') });
      const form = section.getByRole('form', { name: mt(lang, 'display_create') });
      await form.getByLabel(mt(lang, 'display_label'), { exact: true }).fill('Таблет на пулту');
      // A select's name is its label and its chosen option: the form has one.
      await form.getByRole('combobox').selectOption(shown);
      await form.getByRole('button', { name: mt(lang, 'display_create') }).click();
      await expect(section.getByRole('status')).toHaveText(mt(lang, 'display_created', { label: 'Таблет на пулту' }));
      const url = await section.getByLabel(mt(lang, 'display_url'), { exact: true }).inputValue();
      expect(url).toMatch(/\/display#token=[\w-]{43}$/);
      expect(await decodeReceiptQr(page, mt(lang, 'display_qr'))).toBe(url);
      await expect(section.getByRole('table', { name: mt(lang, 'display_list') })).toContainText('Таблет на пулту');
      await shotsAtTillSizes(page, `display-manager-${lang}`, section);
      const token = /#token=(.+)$/.exec(url)?.[1] ?? '';
      // The display's token opens no command of the till.
      const refused = await fetch(new URL('/api/orders.list', kasa.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: '{}',
      });
      expect(refused.status).toBe(401);

      // The tablet opens it: the shop's name, in the display's language; the token leaves the address bar.
      const display = await context.newPage();
      const pageErrors: string[] = [];
      display.on('pageerror', (e) => pageErrors.push(e.message));
      await display.setViewportSize(DISPLAY_SIZES[0]);
      await display.goto(url);
      const screen = display.getByRole('main', { name: dw.title });
      await expect(screen.getByTestId('display-shop')).toHaveText('Продавница Код Мике');
      await expect(screen).toContainText(dw.welcome);
      expect(display.url()).not.toContain('token');
      await displayShots(display, `display-idle-${shown}`);

      // The cart as it is built: a loaf at the promotion's price, and another item.
      await page.keyboard.press('Escape');
      await expect(mgr).toHaveCount(0);
      const rye = pieceItem('1002');
      const other = pieceItem('1001');
      await scan(page, rye.barcode);
      await scan(page, rye.barcode);
      await scan(page, other.barcode);
      const lines = screen.getByTestId('display-line');
      await expect(lines).toHaveCount(2);
      await expect(lines.first()).toContainText('Викенд акција');
      await expect(lines.first()).toContainText('59,99');
      await expect(lines.first()).toContainText('119,98');
      const due = await page.getByTestId('cart-total').textContent();
      await expect(screen.getByTestId('display-total')).toHaveText(`${due ?? ''} RSD`);
      await displayShots(display, `display-cart-${shown}`);

      // The payment screen: what is due. F7: the IPS code on the display, scannable from its pixels.
      await page.keyboard.press('F12');
      await expect(page.getByRole('main', { name: ui.pay.title })).toBeVisible();
      await expect(screen).toContainText(dw.toPay);
      await page.keyboard.press('F7');
      const dialog = page.getByRole('dialog', { name: ui.ips.title });
      const reference = (await dialog.getByTestId('ips-reference').textContent()) ?? '';
      expect(reference).toMatch(/^97\d{16}$/);
      await expect(screen.getByRole('img', { name: dw.qr })).toBeVisible();
      const duePara = Math.round(Number((due ?? '').replace(/\./g, '').replace(',', '.')) * 100);
      for (const size of DISPLAY_SIZES) {
        await display.setViewportSize(size);
        expect(parseIpsQr((await decodeReceiptQr(display, dw.qr)) ?? '')).toEqual({
          ok: true,
          fields: {
            kind: 'PT',
            account: '840000000095584510',
            name: 'Код Мике',
            amountPara: duePara,
            paymentCode: '221',
            reference,
          },
        });
      }
      await displayShots(display, `display-ips-${shown}`);

      // The customer pays cash instead: Esc closes the code on the display too; 500 in cash, the change shown.
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(screen.getByRole('img', { name: dw.qr })).toHaveCount(0);
      await page.getByLabel(PAYMENT_NAMES[lang].cash, { exact: true }).fill('500');
      await page.keyboard.press('F12');
      await expect(page.getByTestId('receipt-state')).toHaveText(ui.receipt.fiscalized);
      await expect(screen.getByTestId('display-thanks')).toHaveText(dw.thanks);
      await expect(screen.getByTestId('display-paid')).toHaveText(`${rsd(50000)} RSD`);
      await expect(screen.getByTestId('display-change')).toHaveText(`${rsd(50000 - duePara)} RSD`);
      await displayShots(display, `display-thanks-${shown}`);

      // The next sale: idle again.
      await page.keyboard.press('Enter');
      await expect(screen.getByTestId('display-shop')).toHaveText('Продавница Код Мике');

      // Revoked: the display is closed out and says why.
      await callOk(kasa, 'display.tokenRevoke', { managerPin: MANAGER_PIN, id: 1 });
      await expect(screen.getByRole('alert')).toHaveText(dw.noToken);
      expect(pageErrors).toEqual([]);
      await display.close();
    });
  });
}
