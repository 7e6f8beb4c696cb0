/**
 * One digit pad layout on every screen (issue 38), looked at in Chromium: the login PIN pad, the shift dialog's
 * amount pad, the discount's pad (with %) and a manager's approval PIN pad all show 7-8-9 on top with the same
 * keys. Screenshots at 1024×768 and 1366×768 (KASA_SHOTS=<dir> keeps them).
 */
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { loadSample, login, openShiftDialog, pieceItem, scan } from './counter-support.ts';
import { shotsAtTillSizes } from './languages.ts';

const BREAD = pieceItem('1001');

/** The pad's keys in order, by accessible name (a digit is its own), an empty place as `·`. */
const keys = (pad: Locator): Promise<string[]> =>
  pad.evaluate((el) =>
    [...el.children].map((c) => (c.tagName === 'BUTTON' ? (c.getAttribute('aria-label') ?? c.textContent) : '·')),
  );
const DIGITS = ['7', '8', '9', '4', '5', '6', '1', '2', '3'];

test('every digit pad has 7-8-9 on top and the same keys', async ({ kasa }) => {
  const { page } = kasa;
  await loadSample(kasa);
  await page.reload();

  const loginPad = page.getByRole('group', { name: 'Тастатура за PIN' });
  await expect(loginPad).toBeVisible();
  expect(await keys(loginPad)).toEqual([...DIGITS, '·', '0', 'Обриши знак', 'Обриши све']);
  await shotsAtTillSizes(page, 'pads-login');
  await login(page);

  const shift = await openShiftDialog(page, 'Нема смене');
  const amountPad = shift.getByRole('group', { name: 'Бројчана тастатура' });
  await expect(amountPad).toBeVisible();
  expect(await keys(amountPad)).toEqual([...DIGITS, 'Децимални зарез', '0', 'Обриши знак', 'Обриши све']);
  await shotsAtTillSizes(page, 'pads-shift');
  await page.keyboard.press('Escape');
  await expect(shift).toHaveCount(0);

  await scan(page, BREAD.barcode);
  // F6 acts on the selected cart line: wait for the scanned line before pressing it.
  await expect(page.getByRole('row', { name: new RegExp(BREAD.name) })).toBeVisible();
  await page.keyboard.press('F6');
  const discount = page.getByRole('dialog', { name: `Попуст на ставку: ${BREAD.name}` });
  const discountPad = discount.getByRole('group', { name: 'Бројчана тастатура' });
  await expect(discountPad).toBeVisible();
  expect(await keys(discountPad)).toEqual([...DIGITS, 'Децимални зарез', '0', 'Обриши знак', 'Проценат', 'Обриши све']);
  await shotsAtTillSizes(page, 'pads-discount');
  await discount.getByRole('radio', { name: 'цео рачун' }).check();
  await page.getByRole('dialog', { name: 'Попуст на цео рачун' }).getByLabel('Попуст (RSD)').fill('15%');
  await page.keyboard.press('Enter');
  const prompt = page.getByRole('dialog', { name: 'Одобрење менаџера' });
  const approvalPad = prompt.getByRole('group', { name: 'Тастатура за PIN' });
  await expect(approvalPad).toBeVisible();
  expect(await keys(approvalPad)).toEqual([...DIGITS, '·', '0', 'Обриши знак', 'Обриши све']);
  await shotsAtTillSizes(page, 'pads-approval');
});
