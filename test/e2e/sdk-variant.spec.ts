/**
 * One sale against the embedded sandbox in its `sdk` variant (KASA_SANDBOX_VARIANT=sdk): receipts come
 * without journal, archive records flat, tax rates as an array. The till still sells with the gateway's
 * labels and shows the journal (fetched from the archive) and its QR; while the gateway gives no journal
 * at all, the receipt screen says so instead of showing a blank receipt.
 */
import { expect, test } from './fixtures.ts';
import { decodeReceiptQr, login } from './counter-support.ts';
import type { OrderView } from '../../shared/domain.ts';

test.use({ kasaEnv: { KASA_SANDBOX_VARIANT: 'sdk' } });

async function sell(page: import('@playwright/test').Page): Promise<void> {
  await page.keyboard.press('F3');
  const manual = page.getByRole('dialog', { name: 'Ручни унос ставке' });
  await manual.getByLabel('Назив').fill('Хлеб домаћи');
  await manual.getByLabel('Јединична цена (RSD)').fill('89,90');
  await manual.getByLabel('Количина').fill('2');
  // The labels come from the SDK-shaped tax-rates reply (an array of groups).
  const labels = await manual.getByLabel('Пореска ознака').locator('option').allTextContents();
  expect(labels.join(' ')).toContain('Ж');
  await manual.getByLabel('Пореска ознака').selectOption('A');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cart-total')).toHaveText('179,80');
  await page.keyboard.press('F12');
  await page.getByLabel('Готовина', { exact: true }).fill('200');
  await page.keyboard.press('F12');
  await expect(page.getByTestId('receipt-state')).toHaveText('ФИСКАЛИЗОВАН');
}

test('sdk sandbox: a cash sale shows its journal (from the archive) and QR; without any journal it says so', async ({ kasa }) => {
  const { page } = kasa;
  await login(page);
  await sell(page);
  const journal = page.getByTestId('journal');
  await expect(journal).toContainText('ФИСКАЛНИ РАЧУН');
  await expect(journal).toContainText('КРАЈ ФИСКАЛНОГ РАЧУНА');
  const list = await kasa.host.call<{ orders: OrderView[] }>('orders.list', { limit: 1 });
  const order = list.body.value?.orders[0];
  if (!order?.receipt) throw new Error('the order has no receipt');
  expect(await decodeReceiptQr(page, 'QR код рачуна')).toBe(order.receipt.verificationUrl);

  // The gateway withholds every journal: fiscalized, but no blank receipt on screen.
  await kasa.sandbox('journal', { withheld: true });
  await page.keyboard.press('Enter'); // the next sale
  await expect(page.getByRole('combobox', { name: 'Претрага или бар-код' })).toBeFocused();
  await sell(page);
  await expect(page.getByTestId('journal')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'журнал још није стигао' })).toBeVisible();
});
