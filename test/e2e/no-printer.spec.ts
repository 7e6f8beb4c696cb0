/**
 * A till with no printer set says so on the counter, in each of its languages: the status bar's chip is
 * there from the login on, before any receipt is expected to print.
 */
import { expect, test } from './fixtures.ts';
import { callOk, login } from './counter-support.ts';
import { MANAGER_PIN } from '../support/session.ts';

// The printer set at the end listens on loopback: a destination the installer allows explicitly.
test.use({ kasaEnv: { KASA_PRINTER_ALLOW_LOOPBACK: '1' } });

test('the status bar says „Нема штампача“ while no printer is set, in Cyrillic, Latin and English', async ({
  kasa,
}) => {
  const { page } = kasa;
  await login(page);
  // The status bar's own name follows the language too.
  const bar = page.locator('footer.status-bar');
  const chip = bar.getByRole('button', { name: 'Нема штампача' });
  await expect(chip).toBeVisible();
  await expect(chip).toHaveAttribute('title', 'Штампач није подешен — Менаџер → Подешавања → Штампач');

  await bar.getByLabel('Језик').selectOption('sr-Latn');
  await expect(bar.getByRole('button', { name: 'Nema štampača' })).toBeVisible();
  await bar.getByLabel('Jezik').selectOption('en');
  await expect(bar.getByRole('button', { name: 'No printer' })).toBeVisible();
  await expect(bar.getByRole('button', { name: 'No printer' })).toHaveAttribute(
    'title',
    'No printer configured — Manager → Settings → Printer',
  );

  // A printer set elsewhere (here through the core) clears the chip by the status event, no reload.
  await callOk(kasa, 'printer.configure', {
    uri: 'tcp://127.0.0.1:9',
    profileId: 'generic-80',
    approval: { managerPin: MANAGER_PIN },
  });
  await expect(bar.getByRole('button', { name: 'No printer' })).toHaveCount(0);
});
