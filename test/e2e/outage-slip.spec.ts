/**
 * An outage without an L-PFR and without a printer (#37 §4), through the browser host: the gateway goes
 * offline, a cash sale stays unsigned and the receipt screen says no slip was printed (the customer has nothing
 * on paper); Менаџер → Потребна пажња lists the sale as a late receipt not handed over, first not issued, then
 * issued once the gateway is back and waiting to be printed; with `offlineSales: refused` the banner says sales
 * are refused. Screenshots at 1024×768 and 1366×768 in Cyrillic, Latin and English go, when KASA_SHOTS=<dir>
 * is set, to <dir>/outage-<what>-<language>-<width>.png.
 */
import type { Locator, Page } from '@playwright/test';
import type { Language } from '../../shared/domain.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { callOk, payWithKeys, pieceItem, readyToSell as ready, scan } from './counter-support.ts';
import { expect, test } from './fixtures.ts';
import { shotsAtTillSizes } from './languages.ts';

const BREAD = pieceItem('1001');
const LANGUAGES: readonly { lang: Language; label: string }[] = [
  { lang: 'sr-Cyrl', label: 'Језик' },
  { lang: 'sr-Latn', label: 'Jezik' },
  { lang: 'en', label: 'Language' },
];

/** The window at both till sizes, in each language (switched in the status bar), back in Cyrillic after. */
async function shots(page: Page, what: string, show?: Locator): Promise<void> {
  const bar = page.locator('footer.status-bar');
  let current = 'Језик';
  for (const { lang, label } of LANGUAGES) {
    await bar.getByLabel(current).selectOption(lang);
    current = label;
    await expect(bar.getByLabel(label)).toBeVisible();
    await shotsAtTillSizes(page, `outage-${what}-${lang}`, show);
  }
  await bar.getByLabel(current).selectOption('sr-Cyrl');
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('no printer during an outage: the screen says no slip printed, the manager sees the late receipt', async ({
  kasa,
}) => {
  const page = await ready(kasa);
  await kasa.sandbox('offline', { offline: true });

  // The first sale after the internet drops waits its online budget, then stays unsigned.
  await scan(page, BREAD.barcode);
  await payWithKeys(page);
  await expect(page.getByTestId('receipt-state')).toHaveText('НИЈЕ ЈОШ ФИСКАЛИЗОВАН');
  const said = page.getByTestId('outage-slip');
  await expect(said).toHaveAttribute('data-slip', 'no_printer');
  await expect(said).toHaveText(
    'Слип није одштампан: штампач није подешен, купац нема ништа на папиру. Фискални рачун чека код менаџера ' +
      '(Потребна пажња).',
  );
  await expect(page.getByTestId('offline-banner')).toHaveText(
    'БЕЗ ИНТЕРНЕТА — рачуни нису фискални: купац добија слип „ОВО НИЈЕ ФИСКАЛНИ РАЧУН“',
  );
  await shots(page, 'counter-no-slip');
  // The other languages say it too (checked, not only photographed).
  const bar = page.locator('footer.status-bar');
  await bar.getByLabel('Језик').selectOption('en');
  await expect(said).toContainText('No slip was printed: no printer is set');
  await bar.getByLabel('Language').selectOption('sr-Latn');
  await expect(said).toContainText('Slip nije odštampan: štampač nije podešen');
  await bar.getByLabel('Jezik').selectOption('sr-Cyrl');
  const orderNumber = (await page.getByTestId('order-number').textContent()) ?? '';
  expect(orderNumber).not.toBe('');

  // Менаџер → Потребна пажња: the sale waits for its fiscal receipt, the customer got no slip.
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Менаџер (F11)' }).click();
  const mgr = page.getByRole('dialog', { name: 'Менаџер' });
  await mgr.getByRole('tab', { name: 'Потребна пажња' }).click();
  // By test id: the dialog's name follows the language the screenshots switch through.
  const late = page.getByTestId('late-receipts');
  const item = late.getByRole('listitem', { name: `Продаја ${orderNumber}` });
  await expect(item).toContainText('купац није добио ни слип (није било штампача)');
  await expect(item).toContainText('Фискални рачун још није издат');
  await expect(item).not.toContainText(/\d{4}-\d{2}-\d{2}T/);
  await shots(page, 'manager-not-issued', late);

  // The gateway is back: issued, and with no printer it waits on the list to be printed.
  await kasa.sandbox('offline', { offline: false });
  await kasa.host.call('sync.now');
  await expect(item).toContainText('је издат и чека да буде одштампан', { timeout: 45_000 });
  await expect(item.getByRole('button', { name: `Одштампај фискални рачун продаје ${orderNumber}` })).toBeVisible();
  await shots(page, 'manager-issued', late);
  // Printing needs a printer: the core says where to set one, in words.
  await item.getByRole('button', { name: `Одштампај фискални рачун продаје ${orderNumber}` }).click();
  await expect(late.getByRole('alert')).toContainText('Штампач није подешен');
});

test('offlineSales: refused — the banner says sales are refused, and a sale is refused in words', async ({ kasa }) => {
  await callOk(kasa, 'settings.update', { managerPin: MANAGER_PIN, offlineSales: 'refused' });
  const page = await ready(kasa);
  await kasa.sandbox('offline', { offline: true });
  // A proforma takes no money: it teaches the engine the gateway is gone without a refused sale.
  const proforma = await kasa.host.call('sales.checkout', {
    lines: [{ name: 'Хлеб', quantity: 1, unitPrice: 65, labels: ['A'] }],
    payments: [{ type: 'cash', amount: 65 }],
    invoiceType: 'proforma',
  });
  expect(proforma.status).toBeLessThan(500);
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toHaveText(
    'БЕЗ ИНТЕРНЕТА — продаја није могућа: радња не продаје без фискалног рачуна (Менаџер → Подешавања)',
    { timeout: 45_000 },
  );
  await expect(banner).toHaveAttribute('data-offline-sales', 'refused');
  await scan(page, BREAD.barcode);
  // Each F12 waits for the screen it acts on (a fast second F12 once landed before the payment screen).
  await payWithKeys(page);
  await expect(page.getByRole('alert').filter({ hasText: 'Продаја није могућа' })).toContainText(
    'радња је подесила да се без фискалног рачуна не продаје',
  );
  await shots(page, 'counter-refused');
});
