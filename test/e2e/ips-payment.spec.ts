/**
 * IPS instant payment at the counter (issue 41 §3), in Chromium through the browser host and the embedded sandbox
 * gateway, in all three languages:
 * - the manager enters the shop's IPS account: one with wrong check digits is refused at its field, in the
 *   language of the screen, and nothing is saved; the right one is saved;
 * - a sale: F12, then F7 „ИПС (инстант)“ shows the QR code, which decodes (from the screen's pixels) to the NBS IPS
 *   text for the shop's account and name, the amount due and the reference shown; Esc goes back to the payment
 *   screen unsold; again F7 and „Уплата стигла“ sells it; the receipt is fiscalized, shows the reference, and the
 *   gateway's archive has the receipt paid by `mobileMoney` with the reference in its metaFields.
 * Screenshots at 1024×768 and 1366×768 in the test's output directory and, with KASA_SHOTS=<dir>, in
 * <dir>/ips-<what>-<lang>-<width>.png.
 */
import type { OrderView } from '../../shared/domain.ts';
import { message } from '../../shared/messages.ts';
import { fieldLabel } from '../../shared/i18n/fields.ts';
import { parseIpsQr } from '../../shared/payments/ips-qr.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { mt } from '../../renderer/src/manager/i18n.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { decodeReceiptQr, managerTabOnSample, pieceItem, rsd, scan } from './counter-support.ts';
import { expect, test } from './fixtures.ts';
import { inEachLanguage, loginFocused, shotsAtTillSizes } from './languages.ts';

inEachLanguage((lang) => {
  test('the shop sets its IPS account; a sale paid by scanning the IPS QR code is fiscalized as an instant payment', async ({
    kasa,
  }) => {
    const { page } = kasa;
    const ui = uiMessages[lang];
    // The manager's settings: a wrong control pair is refused at the account field, nothing saved.
    const mgr = await managerTabOnSample(kasa, lang, 'tab_settings');
    const section = mgr.getByRole('region', { name: mt(lang, 'ips_title') });
    const account = section.getByLabel(mt(lang, 'ips_account'), { exact: true });
    await account.fill('840-955845-11');
    await section.getByLabel(mt(lang, 'ips_name'), { exact: true }).fill('Продавница Код Мике');
    await section.getByLabel(mt(lang, 'manager_pin'), { exact: true }).fill(MANAGER_PIN);
    await section.getByRole('button', { name: mt(lang, 'ips_save') }).click();
    const error = section.locator('#ips-ipsAccount-error');
    const expected = message(lang, 'ips_account_check', { field: fieldLabel(lang, 'ipsAccount') }).replace(
      fieldLabel(lang, 'ipsAccount'),
      mt(lang, 'ips_account'),
    );
    await expect(error).toHaveText(expected);
    await expect(error).toHaveRole('alert');
    await expect(account).toHaveAttribute('aria-invalid', 'true');
    const stored = await kasa.host.call<{ ipsAccount: string }>('settings.get', {});
    expect(stored.body.value?.ipsAccount).toBe('');
    await shotsAtTillSizes(page, `ips-settings-error-${lang}`, section);

    await account.fill('840-955845-10');
    await section.getByLabel(mt(lang, 'manager_pin'), { exact: true }).fill(MANAGER_PIN);
    await section.getByRole('button', { name: mt(lang, 'ips_save') }).click();
    await expect(section.getByRole('status')).toHaveText(mt(lang, 'ips_saved', { account: '840-0000000955845-10' }));
    await expect(error).toHaveCount(0);

    // A sale of two loaves of rye bread.
    await page.reload();
    await loginFocused(page, lang);
    const rye = pieceItem('1002');
    await scan(page, rye.barcode);
    await scan(page, rye.barcode);
    const due = rye.pricePara * 2;
    await expect(page.getByTestId('cart-total')).toHaveText(rsd(due));
    await page.keyboard.press('F12');
    const payment = page.getByRole('main', { name: ui.pay.title });
    await expect(payment).toBeVisible();
    const ipsButton = payment.getByRole('button', { name: new RegExp(`^${ui.ips.button.replace(/[()]/g, '\\$&')}`) });
    await expect(ipsButton).toContainText(rsd(due));
    await shotsAtTillSizes(page, `ips-payment-${lang}`);

    // F7: the code for what is due. Esc goes back to the payment screen, nothing sold.
    await page.keyboard.press('F7');
    const dialog = page.getByRole('dialog', { name: ui.ips.title });
    await expect(dialog.getByTestId('ips-amount')).toHaveText(`${rsd(due)} RSD`);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(payment).toBeVisible();

    await ipsButton.click();
    await expect(dialog.getByTestId('ips-amount')).toHaveText(`${rsd(due)} RSD`);
    const reference = (await dialog.getByTestId('ips-reference').textContent()) ?? '';
    expect(reference).toMatch(/^97\d{16}$/);
    // What the customer's phone reads, decoded from the screen's pixels.
    const read = await decodeReceiptQr(page, ui.ips.qr);
    expect(parseIpsQr(read ?? '')).toEqual({
      ok: true,
      fields: {
        kind: 'PT',
        account: '840000000095584510',
        name: 'Продавница Код Мике',
        amountPara: due,
        paymentCode: '221',
        reference,
      },
    });
    await shotsAtTillSizes(page, `ips-qr-${lang}`);

    // The transfer arrived: the sale is made and fiscalized with the instant payment.
    await dialog.getByRole('button', { name: ui.ips.arrived }).click();
    await expect(page.getByTestId('receipt-state')).toHaveText(ui.receipt.fiscalized);
    await expect(page.getByTestId('receipt-ips-reference')).toHaveText(reference);
    await shotsAtTillSizes(page, `ips-receipt-${lang}`);

    // At the gateway: the archived receipt was paid by mobileMoney and carries the reference.
    const orders = await kasa.host.call<{ orders: OrderView[] }>('orders.list', { limit: 5 });
    const order = orders.body.value?.orders.find((o) => o.ipsReference === reference);
    expect(order?.receipt?.invoiceNumber).toBeTruthy();
    await kasa.sandbox('archive-items', { included: true });
    const res = await fetch(
      `${kasa.sandboxUrl}/archive/receipts/${encodeURIComponent(order?.receipt?.invoiceNumber ?? '')}`,
      { headers: { Authorization: 'Bearer demo-key' } },
    );
    const archived = (await res.json()) as {
      receipt: { payments: { type: string; amount: number }[]; metaFields: Record<string, string> };
    };
    expect(archived.receipt.payments).toEqual([{ type: 'mobileMoney', amount: due / 100 }]);
    expect(archived.receipt.metaFields['ipsReference']).toBe(reference);
    expect(order?.receipt?.journal).toContain('Инстант плаћање');
  });
});
