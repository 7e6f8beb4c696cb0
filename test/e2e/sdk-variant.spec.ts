/**
 * One sale against the embedded sandbox in its `sdk` variant (KASA_SANDBOX_VARIANT=sdk): receipts come
 * without journal, archive records flat, tax rates as an array. The till still sells with the gateway's
 * labels and shows the journal (fetched from the archive) and its QR; while the gateway gives no journal
 * at all, the receipt screen says so instead of showing a blank receipt.
 */
import { expect, test } from './fixtures.ts';
import { lastReceiptShown, login, sellHandTypedBread } from './counter-support.ts';

test.use({ kasaEnv: { KASA_SANDBOX_VARIANT: 'sdk' } });

test('sdk sandbox: a cash sale shows its journal (from the archive) and QR; without any journal it says so', async ({
  kasa,
}) => {
  const { page } = kasa;
  await login(page);
  await sellHandTypedBread(page);
  const journal = page.getByTestId('journal');
  await expect(journal).toContainText('ФИСКАЛНИ РАЧУН');
  await expect(journal).toContainText('КРАЈ ФИСКАЛНОГ РАЧУНА');
  await lastReceiptShown(kasa);

  // The gateway withholds every journal: fiscalized, but no blank receipt on screen.
  await kasa.sandbox('journal', { withheld: true });
  await page.keyboard.press('Enter'); // the next sale
  await expect(page.getByRole('combobox', { name: 'Претрага или бар-код' })).toBeFocused();
  await sellHandTypedBread(page);
  await expect(page.getByTestId('journal')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'журнал још није стигао' })).toBeVisible();
});
