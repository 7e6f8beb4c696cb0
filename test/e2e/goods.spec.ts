/**
 * Менаџер → Роба (issue 40, docs/goods.md) in three languages through the browser host and a real core: a supplier
 * whose PIB has a wrong check digit is refused in words and saved once fixed; a goods receipt is calculated and
 * posted; a sale, a refund and a price change follow; the KEP shows the receipt, the price change and the day's
 * turnover with the balance equal to the stock at retail price, and the counter's search shows what is on hand.
 * Screenshots at both till sizes (KASA_SHOTS=<dir>: <dir>/goods-<section>-<lang>-<width>.png).
 */
import type { ProductView } from '../../shared/contract/catalog.ts';
import type { OrderView } from '../../shared/domain.ts';
import { formatRsd } from '../../shared/money.ts';
import { retailFromMargin, valueAt } from '../../shared/goods/calc.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';
import { MANAGER_PIN, newProduct } from '../support/session.ts';
import { findLeaks } from '../support/language-leak.ts';
import { expect, test } from './fixtures.ts';
import { callOk } from './counter-support.ts';
import { inEachLanguage, managerT, openManagerTab, shotsAtTillSizes } from './languages.ts';
import { shopDay } from './days.ts';

inEachLanguage({ browserLocale: true }, (lang) => {
  test('supplier → goods receipt posted → sale → refund → price change → KEP rows and balance', async ({ kasa }) => {
    const { page } = kasa;
    const juice = { name: 'Сок од јабуке', label: 'A' };
    const product = await kasa.host.call<ProductView>('catalog.put', newProduct('E1', 100, 'Пиће', juice));
    const productId = product.body.value?.id ?? 0;
    const mgr = await openManagerTab(page, lang, 'tab_goods');
    const t = managerT(lang);

    // Suppliers: a PIB with a wrong check digit is refused at once, in words; the right one is saved.
    await mgr.getByRole('button', { name: t('goods_suppliers') }).click();
    const supplierForm = mgr.getByRole('form', { name: t('goods_supplier_new') });
    await supplierForm.getByLabel(t('goods_name')).fill('Воћар д.о.о.');
    await supplierForm.getByLabel(t('goods_pib')).fill('113460263');
    await supplierForm.getByLabel(t('pin')).fill(MANAGER_PIN);
    await supplierForm.getByRole('button', { name: t('goods_save_supplier') }).click();
    await expect(mgr.getByRole('alert')).toContainText(lang === 'en' ? 'check digit' : /контролна|kontrolna/);
    await supplierForm.getByLabel(t('goods_pib')).fill('113460262');
    await supplierForm.getByLabel(t('pin')).fill(MANAGER_PIN);
    await supplierForm.getByRole('button', { name: t('goods_save_supplier') }).click();
    await expect(mgr.getByRole('status')).toHaveText(t('goods_supplier_saved', { name: 'Воћар д.о.о.' }));
    await expect(mgr.getByRole('table', { name: t('goods_suppliers') })).toContainText('113460262');

    // A goods receipt: 10 at 50,00 with a 20 % margin, posted.
    await mgr.getByRole('button', { name: t('goods_receipts') }).click();
    // A select's name includes its chosen option: found by the start of its name.
    await mgr
      .getByRole('combobox', { name: new RegExp(`^${t('goods_supplier')}`) })
      .selectOption({ label: 'Воћар д.о.о.' });
    await mgr.getByLabel(t('goods_invoice_number')).fill('F-2026-17');
    const lineForm = mgr.getByRole('form', { name: t('goods_line') });
    await lineForm.getByLabel(t('goods_code_or_barcode')).fill('E1');
    await lineForm.getByLabel(t('goods_quantity')).fill('10');
    await lineForm.getByLabel(t('goods_purchase_price')).fill(lang === 'en' ? '50.00' : '50,00');
    await lineForm.getByLabel(t('goods_margin')).fill('20');
    await lineForm.getByRole('button', { name: t('goods_add_line') }).click();
    const actions = mgr.getByRole('form', { name: t('goods_receipt_actions') });
    await actions.getByLabel(t('pin')).fill(MANAGER_PIN);
    await actions.getByRole('button', { name: t('goods_save_draft') }).click();
    await expect(mgr.getByRole('status')).toHaveText(t('goods_draft_saved'));
    const retail = retailFromMargin(5000, 2000, 10);
    await expect(mgr.getByRole('table', { name: t('goods_lines') })).toContainText(formatRsd(retail));
    await shotsAtTillSizes(page, `goods-receipt-${lang}`);
    await actions.getByLabel(t('pin')).fill(MANAGER_PIN);
    await actions.getByRole('button', { name: t('goods_post') }).click();
    // Numbered by the shop's year, not the machine's (New Year's Eve after 23:00 UTC).
    const year = shopDay(new Date()).slice(0, 4);
    await expect(mgr.getByRole('status')).toHaveText(t('goods_posted', { number: `1/${year}` }));

    // A sale of 2, a refund of 1, then a new retail price of 150,00 for the 9 on hand.
    const sale = await kasa.host.call<OrderView>('sales.checkout', {
      lines: [{ name: 'Сок од јабуке', productId, quantity: 2, unitPrice: retail / 100, labels: ['A'] }],
      payments: [{ type: 'cash', amount: (2 * retail) / 100 }],
    });
    expect(sale.body.value?.state).toBe('fiscalized');
    const refund = await kasa.host.call<OrderView>('refunds.create', {
      managerPin: MANAGER_PIN,
      orderId: sale.body.value?.orderId,
      lines: [{ index: 0, quantity: 1 }],
      buyerId: '20:008123456',
      paymentType: 'cash',
    });
    expect(refund.body.value?.state).toBe('fiscalized');
    await callOk(kasa, 'catalog.put', newProduct('E1', 150, 'Пиће', { ...juice, create: false }));

    // The KEP: the receipt, the price change, the day's cash turnover; the balance is 9 × 150,00.
    await mgr.getByRole('button', { name: t('goods_kep'), exact: true }).click();
    const kep = mgr.getByRole('table', { name: t('goods_kep') });
    await expect(kep).toContainText(lang === 'en' ? 'Goods receipt no. 1/' : /Пријемница бр\. 1\/|Prijemnica br\. 1\//);
    await expect(kep).toContainText(lang === 'en' ? 'Price change no. 1/' : /Нивелација бр\. 1\/|Nivelacija br\. 1\//);
    // The header, the receipt, the price change and the cash turnover (sold at the book's price: no difference row).
    await expect(kep.getByRole('row')).toHaveCount(4);
    const closing = formatRsd(valueAt(9000, 15000));
    await expect(mgr.getByRole('status')).toContainText(closing);
    await expect(kep.getByRole('row').last()).toContainText(closing);
    expect(
      findLeaks(await mgr.innerText(), lang, ['Сок', 'од', 'јабуке', 'Воћар', 'д.о.о', 'F-2026-17', 'E1']),
    ).toEqual([]);
    await shotsAtTillSizes(page, `goods-kep-${lang}`);

    await mgr.getByRole('button', { name: t('goods_prices') }).click();
    await expect(mgr.getByRole('table', { name: t('goods_prices') })).toContainText(
      formatRsd(valueAt(9000, 15000) - valueAt(9000, retail)),
    );
    await mgr.getByRole('button', { name: t('goods_stock'), exact: true }).click();
    await expect(mgr.getByRole('table', { name: t('goods_stock') })).toContainText('Сок од јабуке');
    await shotsAtTillSizes(page, `goods-stock-${lang}`);

    // The counter's search shows what is on hand.
    await mgr.getByRole('button', { name: t('close') }).click();
    const ui = uiMessages[lang];
    await page.getByRole('combobox', { name: ui.sale.search }).fill('E1');
    await expect(page.getByRole('option', { name: /Сок од јабуке/ })).toContainText(
      ui.sale.onHand.replace('{quantity}', '9'),
    );
    await shotsAtTillSizes(page, `goods-counter-${lang}`);
  });
});
