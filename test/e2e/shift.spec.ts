/**
 * A shift on the counter through the browser host: open it with a 5.000,00 float, sell for cash, take
 * 1.000,00 out with a manager's PIN, close with the drawer counted 20,00 short: the difference is shown
 * and recorded. Then a sale outside a shift is refused with the reason.
 */
import { expect, test } from './fixtures.ts';
import { login, payWithKeys, pieceItem, rsd, scan } from './counter-support.ts';
import { MANAGER_PIN } from '../support/session.ts';

const BREAD = pieceItem('1001');

test('open a shift, sell, cash out, close 20,00 short; no sale after it without a shift', async ({
  kasa,
}, testInfo) => {
  const { page } = kasa;
  const r = await kasa.host.call('catalog.loadSample', { approval: { managerPin: MANAGER_PIN } });
  expect(r.body.ok).toBe(true);
  await page.reload();
  await login(page);

  await page.getByRole('button', { name: 'Нема смене' }).click();
  const dialog = page.getByRole('dialog', { name: 'Смена и каса' });
  await dialog.getByLabel('Почетни депозит (RSD)').fill('5.000,00');
  await dialog.getByRole('button', { name: 'Отвори смену' }).click();
  await expect(dialog.getByTestId('shift-expected')).toHaveText('5.000,00');
  await dialog.getByRole('button', { name: 'Затвори Esc' }).click();
  await expect(page.getByRole('button', { name: 'Смена отворена' })).toBeVisible();

  await scan(page, BREAD.barcode);
  await payWithKeys(page);
  await expect(page.getByTestId('receipt-state')).toBeVisible();
  await page.keyboard.press('Enter');

  await page.getByRole('button', { name: 'Смена отворена' }).click();
  await expect(dialog.getByTestId('shift-expected')).toHaveText(rsd(500_000 + BREAD.pricePara));
  const moves = dialog.getByRole('form', { name: 'Полози и подизања' });
  await moves.getByLabel('Врста').selectOption('out');
  await moves.getByLabel('Износ (RSD)').fill('1.000,00');
  await moves.getByLabel('Разлог').fill('Уплата у банку');
  await moves.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await moves.getByRole('button', { name: 'Евидентирај' }).click();
  const expected = 400_000 + BREAD.pricePara;
  await expect(dialog.getByTestId('shift-expected')).toHaveText(rsd(expected));
  await expect(dialog.getByRole('list', { name: 'Полози и подизања' })).toContainText(
    'Подизање: 1.000,00 RSD — Уплата у банку',
  );
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: testInfo.outputPath('shift-open-1024.png') });

  const closing = dialog.getByRole('form', { name: 'Затвори смену' });
  await closing.getByLabel('Избројано у каси (RSD)').fill(rsd(expected - 2_000));
  await closing.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await closing.getByRole('button', { name: 'Затвори смену' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Смена је затворена.' })).toContainText('Мањак: 20,00 RSD');
  await expect(dialog.getByTestId('shift-difference')).toHaveText('-20,00');
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.screenshot({ path: testInfo.outputPath('shift-closed-1366.png') });
  await dialog.getByRole('button', { name: 'Затвори Esc' }).click();
  await expect(page.getByRole('button', { name: 'Нема смене' })).toBeVisible();

  const day = await kasa.host.call<{ shifts: { differencePara: number }[] }>('shifts.list', {
    managerPin: MANAGER_PIN,
  });
  expect(day.body.value?.shifts.map((s) => s.differencePara)).toEqual([-2_000]);

  // The till works in shifts now: a sale outside one is refused, with the reason.
  await scan(page, BREAD.barcode);
  await payWithKeys(page);
  await expect(page.getByRole('alert')).toContainText('без отворене смене');
});
