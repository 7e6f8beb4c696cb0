/**
 * The first real sale, end to end through the browser host in demo mode: an item typed in by hand with a
 * label from the gateway's tax rates, paid in cash with change, fiscalized by the embedded sandbox
 * gateway; the journal carries the fiscal markers and the QR on screen decodes to the receipt's
 * verification URL. And the language: Serbian Cyrillic by default, English with KASA_LANG=en.
 */
import { expect, test } from './fixtures.ts';
import { keepShot } from '../support/shots.ts';
import { lastReceiptShown, login, sellHandTypedBread } from './counter-support.ts';

test('sells a hand-typed item for cash in demo mode: journal with the fiscal markers, QR of the verification URL', async ({
  kasa,
}) => {
  const { page } = kasa;
  await login(page);
  await expect(page.getByRole('note').filter({ hasText: 'ДЕМО РЕЖИМ' })).toBeVisible();

  await sellHandTypedBread(page);
  const journal = page.getByTestId('journal');
  await expect(journal).toContainText('ФИСКАЛНИ РАЧУН');
  await expect(journal).toContainText('КРАЈ ФИСКАЛНОГ РАЧУНА');
  await expect(journal).toContainText(/Касир:\s+Менаџер/); // the logged-in person, sent as metaFields.cashier
  const { order, receipt } = await lastReceiptShown(kasa);
  expect(order.payments).toEqual([{ type: 'cash', amountPara: 17980 }]);
  expect(order.changePara).toBe(2020);
  await keepShot(page, 'slice-receipt', { fullPage: true });

  // E-mail the receipt from the receipt screen (Ctrl+E): the gateway records it (the sandbox never sends).
  await page.keyboard.press('Control+e');
  const mail = page.getByRole('region', { name: 'Рачун е-поштом' });
  await mail.getByLabel('Е-адреса купца').fill('kupac@example.rs');
  await page.keyboard.press('Enter');
  await expect(mail.getByRole('status')).toHaveText('Рачун је послат на kupac@example.rs.');
  await expect(page.getByTestId('receipt-state')).toBeVisible(); // Enter in the field did not start a new sale
  const emails = (await (await fetch(`${kasa.sandboxUrl}/__sandbox/emails`)).json()) as {
    emails: { email: string; invoiceNumber: string }[];
  };
  expect(emails.emails).toEqual([
    expect.objectContaining({ email: 'kupac@example.rs', invoiceNumber: receipt.invoiceNumber }),
  ]);
});

test.describe('English', () => {
  test.use({ kasaEnv: { KASA_LANG: 'en' }, kasaFirstRun: true });
  test('KASA_LANG=en shows the app in English; the first-run PIN 0000 must be changed before anything else', async ({
    kasa,
  }) => {
    const { page } = kasa;
    const screen = page.getByRole('main', { name: 'Cashier login' });
    await expect(screen).toBeVisible();
    // A new till says how to begin.
    await expect(screen.getByRole('note')).toHaveText(
      'A new till: the manager logs in the first time with PIN 0000 and sets their own PIN at once.',
    );
    await screen.getByLabel('PIN', { exact: true }).fill('0000');
    await page.keyboard.press('Enter');
    await expect(screen.getByText('The first-run PIN 0000 must be changed')).toBeVisible();
    /** The new PIN typed, then typed again (`repeated`), each ended by Enter. */
    const newPin = async (pin: string, repeated: string): Promise<void> => {
      await screen.getByLabel('New PIN', { exact: true }).fill(pin);
      await page.keyboard.press('Enter');
      await screen.getByLabel('Repeat the new PIN', { exact: true }).fill(repeated);
      await page.keyboard.press('Enter');
    };
    await newPin('0000', '0000');
    await expect(screen.getByText(/must not be 0000/)).toBeVisible();
    // The new PIN is typed twice: a typo is caught, nothing is changed.
    await newPin('731946', '731964');
    await expect(screen.getByText('The PINs do not match: type the new PIN again.')).toBeVisible();
    await newPin('731946', '731946');
    // A new till's setup flow (test/e2e/setup.spec.ts), left for later.
    await page
      .getByRole('main', { name: 'Setting up a new till' })
      .getByRole('button', { name: 'Set up later' })
      .click();
    await expect(page.getByRole('combobox', { name: 'Search or barcode' })).toBeFocused();
    await expect(page.getByRole('note').filter({ hasText: 'DEMO MODE' })).toBeVisible();
  });
});
