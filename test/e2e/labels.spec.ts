/**
 * Менаџер → Етикете (issue 42, docs/prices.md "Shelf labels") in Chromium through the browser host, in all three
 * languages: a group whose yogurt has no net quantity is refused with the product named; its net quantity entered,
 * the preview shows each label (the milk's promotion with its previous price and days, the unit prices); a label
 * size the preset does not take is refused at its field; the labels print as ZPL on a label printer listening on an
 * ephemeral TCP port (decoded: two labels with their barcodes). Screenshots at 1024×768 and 1366×768.
 */
import { inEachLanguage, managerT, openManagerTab, shotsAtTillSizes } from './languages.ts';
import { gs1CheckDigit } from '../../shared/labels/barcode.ts';
import { MANAGER_PIN, newProduct } from '../support/session.ts';
import { labelPrinter, parseZpl } from '../support/labels.ts';
import { expect, test, type KasaFixture } from './fixtures.ts';
import { callOk, putPromotion } from './counter-support.ts';

const MILK = '860000000001' + String(gs1CheckDigit('860000000001'));

async function put(kasa: KasaFixture, code: string, name: string, price: number): Promise<void> {
  await callOk(kasa, 'catalog.put', newProduct(code, price, 'Млечни', { name, label: 'A' }));
}

inEachLanguage({ env: { KASA_PRINTER_ALLOW_LOOPBACK: '1' } }, (lang) => {
  test('labels of a group: refused without a net quantity, previewed, printed as ZPL on a TCP port', async ({
    kasa,
  }) => {
    const { page } = kasa;
    const t = managerT(lang);
    const printer = await labelPrinter();
    const { port, jobs } = printer;
    try {
      await put(kasa, MILK, 'Млеко 1 л', 159.99);
      await put(kasa, 'JOG-5', 'Јогурт 500 г', 89.9);
      await putPromotion(kasa, { name: 'Недеља млека', priority: 1, code: MILK, price: 129.99 });
      await callOk(kasa, 'labels.productSet', {
        managerPin: MANAGER_PIN,
        code: MILK,
        netQuantity: 1,
        netUnit: 'l',
        unitPriceRequired: true,
      });
      await page.reload();
      const mgr = await openManagerTab(page, lang, 'tab_labels');
      const tab = mgr.getByRole('region', { name: t('labels_title') });
      await tab.getByRole('radio', { name: t('labels_sel_group') }).check();
      await tab.getByRole('combobox', { name: t('labels_group') }).selectOption('Млечни');
      await tab.getByRole('button', { name: t('labels_preview') }).click();
      await expect(tab.getByRole('alert')).toContainText('Јогурт 500 г');

      // The yogurt's net quantity: 0,5 kg.
      const netForm = tab.getByRole('form', { name: t('labels_net_form') });
      await netForm.getByLabel(t('labels_code')).fill('JOG-5');
      await netForm.getByLabel(t('labels_net'), { exact: true }).fill('0,5');
      await netForm.getByRole('button', { name: t('labels_net_save') }).click();
      await expect(tab.getByRole('status')).toHaveText(t('labels_net_saved'));

      await tab.getByRole('button', { name: t('labels_preview') }).click();
      const cards = tab.getByRole('list', { name: t('labels_preview_list') });
      const latin = lang === 'sr-Latn';
      const milk = cards.getByRole('listitem', { name: latin ? 'Mleko 1 l' : 'Млеко 1 л' });
      await expect(milk).toContainText('129,99');
      await expect(milk).toContainText(latin ? 'Stara cena: 159,99 din' : 'Стара цена: 159,99 дин');
      await expect(milk).toContainText(latin ? 'Jedinična cena: 129,99 din/l' : 'Јединична цена: 129,99 дин/л');
      const yogurt = cards.getByRole('listitem', { name: latin ? 'Jogurt 500 g' : 'Јогурт 500 г' });
      await expect(yogurt).toContainText(latin ? '179,80 din/kg' : '179,80 дин/кг');

      // The printer: a width the Xprinter does not take is refused at its field.
      const printerForm = tab.getByRole('form', { name: t('labels_printer_form') });
      await printerForm.getByLabel(t('labels_uri')).fill(`127.0.0.1:${port}`);
      await printerForm.getByLabel(t('labels_preset')).selectOption('xprinter-365b');
      await printerForm.getByLabel(t('labels_width')).fill('100');
      await printerForm.getByRole('button', { name: t('labels_printer_save') }).click();
      await expect(printerForm.getByRole('alert')).toContainText('80 mm');
      await printerForm.getByLabel(t('labels_preset')).selectOption('zebra-203');
      await printerForm.getByLabel(t('labels_width')).fill('58');
      await printerForm.getByRole('button', { name: t('labels_printer_save') }).click();
      await expect(tab.getByRole('status')).toHaveText(t('labels_printer_saved'));

      await tab.getByRole('button', { name: t('labels_preview') }).click();
      await tab.getByRole('button', { name: t('labels_print') }).click();
      await expect(tab.getByRole('status')).toHaveText(t('labels_printed', { count: 2 }));
      expect(jobs).toHaveLength(1);
      const labels = parseZpl((jobs[0] as Buffer).toString('latin1'));
      expect(labels.map((l) => l.elements.find((e) => e.kind === 'barcode'))).toMatchObject([
        { barcode: { symbology: 'code128', data: 'JOG-5' } },
        { barcode: { symbology: 'ean13', data: MILK } },
      ]);
      await tab.getByRole('button', { name: t('labels_preview') }).click();
      await expect(cards.getByRole('listitem')).toHaveCount(2);
      await shotsAtTillSizes(page, `labels-${lang}`, cards);
    } finally {
      await printer.close();
    }
  });
});
