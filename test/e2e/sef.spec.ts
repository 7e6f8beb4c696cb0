/**
 * Менаџер → Е-фактуре (issue 41, docs/sef.md) in three languages through the browser host and a real core in demo
 * mode (the embedded fake SEF): two sales to business buyers are offered an e-invoice; one reaches SEF and waits
 * for the buyer, the other is refused by SEF and the manager reads SEF's reason in words; the settings show demo
 * mode and never the key. Screenshots at both till sizes (KASA_SHOTS=<dir>: <dir>/sef-<lang>-<width>.png). From
 * Архива: a business sale's receipt offers the e-invoice and issues it; a private sale's does not.
 */
import type { OrderView } from '../../shared/domain.ts';
import { expect, test } from './fixtures.ts';
import { inEachLanguage, managerT, openManagerTab, shotsAtTillSizes } from './languages.ts';

const SALE = {
  lines: [{ name: 'Хлеб', quantity: 3, unitPrice: 80, labels: ['A'] }],
  payments: [{ type: 'cash', amount: 240 }],
};

inEachLanguage({ browserLocale: true }, (lang) => {
  test('a business sale offered „Е-фактура“, sent to SEF; a refusal shown with its reason', async ({ kasa }) => {
    const { page } = kasa;
    const t = managerT(lang);
    const good = (await kasa.host.call<OrderView>('sales.checkout', { ...SALE, buyerId: '10:101134702' })).body
      .value as OrderView;
    const refused = (await kasa.host.call<OrderView>('sales.checkout', { ...SALE, buyerId: '12:100002532:99999' })).body
      .value as OrderView;
    const mgr = await openManagerTab(page, lang, 'tab_sef');
    await expect(mgr.getByText(t('sef_demo'))).toBeVisible();

    const offers = mgr.getByRole('table', { name: t('sef_offers') });
    await offers.getByRole('button', { name: t('sef_issue', { order: good.orderNumber }) }).click();
    await expect(mgr.getByRole('status')).toHaveText(t('sef_issued', { order: good.orderNumber }));
    await offers.getByRole('button', { name: t('sef_issue', { order: refused.orderNumber }) }).click();
    await expect(mgr.getByRole('status')).toHaveText(t('sef_issued', { order: refused.orderNumber }));
    await expect(mgr.getByText(t('sef_offers_none'))).toBeVisible();

    const docs = mgr.getByRole('table', { name: t('sef_documents') });
    const row = (order: string) => docs.getByRole('row').filter({ hasText: order });
    await expect(async () => {
      await mgr.getByRole('button', { name: t('sef_refresh') }).click();
      await expect(row(good.orderNumber)).toContainText(t('sef_state_sent'), { timeout: 1000 });
      await expect(row(refused.orderNumber)).toContainText(t('sef_state_refused'), { timeout: 1000 });
    }).toPass();
    await expect(row(good.orderNumber)).toContainText('Купац д.о.о.');
    await expect(row(refused.orderNumber)).toContainText(
      t('sef_reason', { reason: 'JBKJS:99999 ne pripada PIB-u 100002532' }),
    );
    await expect(
      row(refused.orderNumber).getByRole('button', { name: t('sef_retry', { number: refused.orderNumber }) }),
    ).toBeVisible();
    await expect(
      row(good.orderNumber).getByRole('button', { name: t('sef_cancel', { number: good.orderNumber }) }),
    ).toBeVisible();

    const settings = mgr.getByRole('form', { name: t('sef_settings') });
    await expect(settings.getByLabel(t('sef_key'))).toHaveValue('');
    await expect(settings).toContainText(t('sef_key_none'));
    await shotsAtTillSizes(page, `sef-${lang}`, docs);
    await shotsAtTillSizes(page, `sef-settings-${lang}`, settings);
  });

  test('Архива: a business sale’s receipt offers „Е-фактура“ and issues it; a private one does not', async ({
    kasa,
  }) => {
    const { page } = kasa;
    const t = managerT(lang);
    const business = (await kasa.host.call<OrderView>('sales.checkout', { ...SALE, buyerId: '10:101134702' })).body
      .value as OrderView;
    const plain = (await kasa.host.call<OrderView>('sales.checkout', SALE)).body.value as OrderView;
    const mgr = await openManagerTab(page, lang, 'tab_archive');
    await mgr.getByRole('button', { name: t('search') }).click();
    const archive = mgr.getByRole('table', { name: t('tab_archive') });

    await archive.getByRole('button', { name: t('details', { order: plain.orderNumber }) }).click();
    const plainDetail = mgr.getByRole('region', {
      name: t('receipt', { invoice: plain.receipt?.invoiceNumber ?? '' }),
    });
    await expect(plainDetail.getByRole('button', { name: t('copy') })).toBeVisible();
    await expect(plainDetail.getByRole('button', { name: t('sef_issue_button') })).toHaveCount(0);

    await archive.getByRole('button', { name: t('details', { order: business.orderNumber }) }).click();
    const detail = mgr.getByRole('region', {
      name: t('receipt', { invoice: business.receipt?.invoiceNumber ?? '' }),
    });
    await detail.getByRole('button', { name: t('sef_issue_button') }).click();
    await expect(detail.getByRole('status')).toHaveText(t('sef_issued', { order: business.orderNumber }));
    await expect(detail.getByTestId('archive-sef')).toContainText(t('sef_issue', { order: business.orderNumber }));
    await expect(detail.getByRole('button', { name: t('sef_issue_button') })).toHaveCount(0);
    await shotsAtTillSizes(page, `archive-sef-${lang}`, detail);
  });
});
