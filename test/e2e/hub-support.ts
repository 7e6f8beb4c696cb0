/** Steps at the hub's web UI shared by the hub's e2e specs. */
import { expect, type Page } from '@playwright/test';
import { MANAGER_PIN } from '../support/session.ts';

/**
 * Logs in at the hub's open page as the till's manager, who reaches the hub through the till's outbox: the PIN is
 * tried again until it works (a login slower than one try's wait is not sent twice: the PIN field is gone once it
 * went through). `words`: the login screen's names in the page's language (Serbian Cyrillic by default).
 */
export async function loginAtHub(
  page: Page,
  words: { pin: string; login: string; logout: string } = { pin: 'PIN менаџера', login: 'Пријава', logout: 'Одјава' },
  pin = MANAGER_PIN,
): Promise<void> {
  const logout = page.getByRole('button', { name: words.logout });
  await expect(async () => {
    if (!(await logout.isVisible())) {
      await page.getByLabel(words.pin).fill(pin);
      await page.getByRole('button', { name: words.login }).click();
    }
    await expect(logout).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 30_000 });
}
