/** Steps at the hub's web UI shared by the hub's e2e specs. */
import { expect, type Page } from '@playwright/test';
import { MANAGER_PIN } from '../support/session.ts';
import { fieldDay } from './days.ts';

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

/**
 * The hub's report (its tab open) for the shop's day `day`: the day of the sale the test made, never "today", so a
 * run across the shop's midnight still finds it. Shown again until `shown` passes: a sale reaches the hub through
 * the till's outbox, in the background (`shown` asserts with a short timeout of its own, as one try).
 */
export async function showHubReport(page: Page, day: string, shown: () => Promise<void>): Promise<void> {
  for (const field of ['Од (дд.мм.гггг.)', 'До (дд.мм.гггг.)']) await page.getByLabel(field).fill(fieldDay(day));
  await expect(async () => {
    await page.getByRole('button', { name: 'Прикажи' }).click();
    await shown();
  }).toPass({ timeout: 30_000 });
}
