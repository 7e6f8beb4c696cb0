/**
 * Stock-taking (попис, issue 40 part 2, docs/goods.md) in three languages through the browser host and a real core:
 * a manager starts a count of one group, a sale goes through during it, a count is typed and a handheld's CSV is
 * read (a bad row refused naming its row), the count is posted, the KEP shows its surplus and shortage, and the
 * count's and the KEP's A4 PDFs download. Screenshots at both till sizes (KASA_SHOTS=<dir>).
 */
import fs from 'node:fs';
import type { ProductView } from '../../shared/contract/catalog.ts';
import type { ReceiptView, SupplierView } from '../../shared/contract/goods.ts';
import type { OrderView } from '../../shared/domain.ts';
import { formatRsd } from '../../shared/money.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { findLeaks } from '../support/language-leak.ts';
import { expect, test } from './fixtures.ts';
import { inEachLanguage, managerT, openManagerTab, shotsAtTillSizes } from './languages.ts';
import { shopDay } from './days.ts';

inEachLanguage({ browserLocale: true }, (lang) => {
  test('start a count → sell during it → typed and CSV counts → post → KEP rows; the PDFs download', async ({
    kasa,
  }) => {
    const { page } = kasa;
    const approval = { managerPin: MANAGER_PIN };
    const ids = new Map<string, number>();
    for (const [code, name, group] of [
      ['S1', 'Сок од јабуке', 'Пиће'],
      ['S2', 'Кисела вода', 'Пиће'],
      ['S3', 'Хлеб бели', 'Пекара'],
    ] as const) {
      const p = await kasa.host.call<ProductView>('catalog.put', {
        code,
        create: true,
        name,
        price: 100,
        label: 'A',
        unit: 'piece',
        group,
        favourite: false,
        barcodes: [],
        approval,
      });
      ids.set(code, p.body.value?.id ?? 0);
    }
    const supplier = await kasa.host.call<SupplierView>('suppliers.put', {
      managerPin: MANAGER_PIN,
      name: 'Велепродаја',
      pib: '101134702',
    });
    const draft = await kasa.host.call<ReceiptView>('goods.receiptSave', {
      managerPin: MANAGER_PIN,
      supplierId: supplier.body.value?.id,
      invoiceNumber: 'F-1',
      invoiceDate: shopDay(new Date()),
      lines: ['S1', 'S2', 'S3'].map((code) => ({ code, quantity: 10, purchasePrice: 50, retailPrice: 100 })),
    });
    expect(
      (await kasa.host.call('goods.receiptPost', { managerPin: MANAGER_PIN, id: draft.body.value?.id })).body.ok,
    ).toBe(true);

    const mgr = await openManagerTab(page, lang, 'tab_goods');
    const t = managerT(lang);
    // The documents are numbered by the shop's year, not the machine's (New Year's Eve after 23:00 UTC).
    const year = shopDay(new Date()).slice(0, 4);
    const number = `1/${year}`;

    // A manager starts a count of the drinks.
    await mgr.getByRole('button', { name: t('goods_counts'), exact: true }).click();
    const start = mgr.getByRole('form', { name: t('goods_count_start') });
    await start.getByRole('checkbox', { name: 'Пиће' }).check();
    await start.getByLabel(t('pin')).fill(MANAGER_PIN);
    await start.getByRole('button', { name: t('goods_count_start_groups') }).click();
    await expect(mgr.getByRole('status').filter({ hasText: t('goods_count_started', { number }) })).toBeVisible();
    const lines = mgr.getByRole('table', { name: t('goods_count_lines') });
    await expect(lines.getByRole('row')).toHaveCount(3);

    // Selling goes on: 3 juices leave; the shelf then holds 7 and 6 are found.
    const sale = await kasa.host.call<OrderView>('sales.checkout', {
      lines: [{ name: 'Сок од јабуке', productId: ids.get('S1'), quantity: 3, unitPrice: 100, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 300 }],
    });
    expect(sale.body.value?.state).toBe('fiscalized');
    const enter = mgr.getByRole('form', { name: t('goods_count_enter') });
    await enter.getByLabel(t('goods_code_or_barcode')).fill('S1');
    await enter.getByLabel(t('goods_counted'), { exact: true }).fill('6');
    await enter.getByRole('button', { name: t('goods_count_enter') }).click();
    await expect(mgr.getByRole('status').filter({ hasText: t('goods_count_entered', { code: 'S1' }) })).toBeVisible();
    const juice = lines.getByRole('row').filter({ hasText: 'Сок од јабуке' });
    await expect(juice).toContainText(`-1 (${t('goods_shortage')})`);

    // The handheld's CSV: a bad quantity is refused naming its row and column, nothing saved; then the right one.
    const csvInput = enter.getByLabel(t('goods_count_csv'));
    await csvInput.setInputFiles({
      name: 'ruc.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('šifra;količina\nS2;abc\n'),
    });
    await expect(mgr.getByRole('alert')).toContainText(
      lang === 'en' ? 'row 2, column 2' : lang === 'sr-Latn' ? 'red 2, kolona 2' : 'ред 2, колона 2',
    );
    await csvInput.setInputFiles({
      name: 'ruc.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('šifra;količina\nS2;11\n'),
    });
    await expect(
      mgr.getByRole('status').filter({ hasText: t('goods_count_imported', { name: 'ruc.csv' }) }),
    ).toBeVisible();
    await expect(lines.getByRole('row').filter({ hasText: 'Кисела вода' })).toContainText(`1 (${t('goods_surplus')})`);
    expect(
      findLeaks(await mgr.innerText(), lang, [
        'Сок',
        'од',
        'јабуке',
        'Кисела',
        'вода',
        'Пиће',
        'Пекара',
        'S1',
        'S2',
        'ruc.csv',
      ]),
    ).toEqual([]);
    await shotsAtTillSizes(page, `stocktake-open-${lang}`);

    // A manager posts it; the count's A4 PDF downloads.
    const post = mgr.getByRole('form', { name: t('goods_count_post_actions') });
    await post.getByLabel(t('pin')).fill(MANAGER_PIN);
    await post.getByRole('button', { name: t('goods_count_post') }).click();
    await expect(mgr.getByRole('status').filter({ hasText: t('goods_count_posted', { number }) })).toBeVisible();
    const [countPdf] = await Promise.all([
      page.waitForEvent('download'),
      mgr.getByRole('button', { name: t('goods_pdf_of', { number }) }).click(),
    ]);
    expect(countPdf.suggestedFilename()).toBe(`popis-1-${year}.pdf`);
    expect(
      fs
        .readFileSync(await countPdf.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await shotsAtTillSizes(page, `stocktake-posted-${lang}`);

    // The KEP: the count's surplus (debit) and shortage (credit), each 100,00; its PDF downloads.
    await mgr.getByRole('button', { name: t('goods_kep'), exact: true }).click();
    const kep = mgr.getByRole('table', { name: t('goods_kep') });
    const word = { 'sr-Cyrl': 'Попис бр.', 'sr-Latn': 'Popis br.', en: 'Stock-taking no.' }[lang];
    await expect(kep.getByRole('row').filter({ hasText: `${word} ${number}` })).toHaveCount(2);
    await expect(
      kep
        .getByRole('row')
        .filter({ hasText: `${word} ${number}` })
        .first(),
    ).toContainText(formatRsd(10_000));
    const [kepPdf] = await Promise.all([
      page.waitForEvent('download'),
      mgr.getByRole('button', { name: t('goods_kep_pdf') }).click(),
    ]);
    expect(kepPdf.suggestedFilename()).toMatch(/^KEP-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.pdf$/);
    await shotsAtTillSizes(page, `stocktake-kep-${lang}`);

    // The reorder list: bread's minimum of 12 puts 2 on the supplier's list.
    await mgr.getByRole('button', { name: t('goods_reorder'), exact: true }).click();
    const minimum = mgr.getByRole('form', { name: t('goods_minimum_set') });
    await minimum.getByLabel(t('goods_code'), { exact: true }).fill('S3');
    await minimum.getByLabel(t('goods_minimum'), { exact: true }).fill('12');
    await minimum.getByLabel(t('pin')).fill(MANAGER_PIN);
    await minimum.getByRole('button', { name: t('goods_minimum_save') }).click();
    const order = mgr.getByRole('table', { name: 'Велепродаја (101134702)' });
    await expect(order.getByRole('row').filter({ hasText: 'Хлеб бели' })).toContainText('2');
    const [reorderPdf] = await Promise.all([
      page.waitForEvent('download'),
      mgr.getByRole('button', { name: t('goods_reorder_pdf') }).click(),
    ]);
    expect(reorderPdf.suggestedFilename()).toMatch(/^narucivanje-\d{4}-\d{2}-\d{2}\.pdf$/);
    await shotsAtTillSizes(page, `stocktake-reorder-${lang}`);
    await mgr.getByRole('button', { name: t('goods_shop'), exact: true }).click();
    await expect(mgr.getByRole('checkbox', { name: t('goods_no_negative_counted') })).not.toBeChecked();
    await shotsAtTillSizes(page, `stocktake-shop-${lang}`);
  });
});
