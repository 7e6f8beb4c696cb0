/**
 * Staff at the hub UI in Chromium: a hub (child process, PGlite) and a till (the browser host) enrolled with
 * it. A cashier made on the till reaches the hub; the hub's manager deactivates her (the till then refuses
 * her login), reactivates her and sets her a new PIN that logs in at the till; a manager's PIN shorter than
 * 6 digits is refused at the field. Screenshots at 1024x768 and 1366x768 are kept
 * when KASA_SHOTS names a folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { HostProcess } from '../support/host-process.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { startHubProcess, type HubProcess } from '../support/hub-process.ts';
import { enrolledTill, loginAtHub, stopTillAndHub } from './hub-support.ts';
import { shotsAtTillSizes } from './languages.ts';

let hub: HubProcess;
let till: HostProcess;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-staff-e2e-'));

test.beforeAll(async () => {
  hub = await startHubProcess({
    KASA_HUB_DATA: path.join(dir, 'hub'),
    KASA_HUB_ADMIN_TOKEN: 'e2e-admin-token-0123456789abcdefgh',
  });
  till = await enrolledTill(hub, 'STAFF1');
  const made = await till.call('staff.create', {
    managerPin: MANAGER_PIN,
    name: 'Ана Анић',
    role: 'cashier',
    pin: '1357',
  });
  expect(made.body.ok).toBe(true);
});
test.afterAll(() => stopTillAndHub(till, hub, dir));

const shots = (page: Page, name: string): Promise<void> => shotsAtTillSizes(page, `staff-${name}`);

/** What the till answers a login with this PIN: the person's name, or the refusal's words. */
async function tillLogin(pin: string): Promise<string> {
  const r = await till.call<{ name: string }>('staff.login', { pin });
  return r.body.ok ? (r.body.value?.name ?? '') : (r.body.error?.message ?? '');
}

/** Whether the till has the person as active (its staff list; the hub's changes arrive with the staff sync). */
async function tillSeesActive(name: string): Promise<boolean | null> {
  const r = await till.call<{ staff: { name: string; active: boolean }[] }>('staff.list', {});
  return r.body.value?.staff.find((p) => p.name === name)?.active ?? null;
}

/**
 * A new PIN for `name` through the staff section's form: the form says the PIN's rule for the person's role
 * (`rule`), `pin` is typed and set. Gives the form (it stays to show what was refused).
 */
async function setPin(section: Locator, name: string, rule: string, pin: string): Promise<Locator> {
  await section.getByRole('button', { name: `Нови PIN: ${name}` }).click();
  const form = section.getByRole('form', { name: `Нови PIN за особу ${name}` });
  await expect(form).toContainText(rule);
  await form.getByLabel('Нови PIN особе').fill(pin);
  await form.getByRole('button', { name: 'Постави PIN' }).click();
  return form;
}

test('at the hub: deactivate a cashier (the till refuses her), reactivate her, and reset her PIN', async ({ page }) => {
  await page.goto(hub.url);
  // The till's manager reaches the hub through the till's outbox: the PIN works once it arrived.
  await loginAtHub(page);

  await page.getByRole('tab', { name: 'Особље' }).click();
  const section = page.getByRole('region', { name: 'Особље' });
  const ana = section.getByRole('row', { name: /Ана Анић/ });
  // The cashier made on the till arrives with the till's outbox.
  await expect(async () => {
    if (!(await ana.isVisible())) {
      await page.getByRole('tab', { name: 'Артикли' }).click();
      await page.getByRole('tab', { name: 'Особље' }).click();
    }
    await expect(ana).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 30_000 });

  // The manager, the shop's last, cannot deactivate themself: said in their row (issue 38).
  await section.getByRole('button', { name: 'Искључи: Менаџер' }).click();
  await expect(
    section
      .getByRole('row', { name: /Менаџер/ })
      .first()
      .getByRole('alert'),
  ).toHaveText('Последњи активни менаџер продавнице не може да се искључи: прво додајте или укључите другог менаџера.');

  await section.getByRole('button', { name: 'Искључи: Ана Анић' }).click();
  await expect(section.getByRole('status')).toContainText('Особа Ана Анић је искључена');
  await expect(ana).toContainText('Искључена');
  // Waited for through the till's list, not by trying PINs (wrong ones count toward the till's lockout).
  await expect.poll(() => tillSeesActive('Ана Анић'), { timeout: 30_000 }).toBe(false);
  expect(await tillLogin('1357')).toBe('Ова особа је искључена и не може да се пријави. Обратите се менаџеру.');

  // A manager's PIN at the hub has at least 6 digits: said under the field, and refused there.
  const mine = await setPin(section, 'Менаџер', 'Менаџер: од 6 до 8 цифара.', '1234');
  await expect(mine.getByRole('alert')).toHaveText('PIN менаџера у пољу „Нови PIN особе“ мора имати најмање 6 цифара.');
  await expect(mine.getByLabel('Нови PIN особе')).toHaveAttribute('aria-invalid', 'true');
  await shots(page, 'hub-pin-error');

  // Her new PIN, then she is reactivated: the till gets both (in the hub's order) and she logs in with it.
  await setPin(section, 'Ана Анић', 'Касир: од 4 до 8 цифара.', '8642');
  await expect(section.getByRole('status')).toContainText('Нови PIN за особу Ана Анић је постављен');
  await section.getByRole('button', { name: 'Поново укључи: Ана Анић' }).click();
  await expect(ana).toContainText('Активна');
  await expect.poll(() => tillSeesActive('Ана Анић'), { timeout: 30_000 }).toBe(true);
  expect(await tillLogin('8642')).toBe('Ана Анић');
  await shots(page, 'hub-list');

  await page.getByRole('tab', { name: 'Дневник' }).click();
  const audit = page.getByRole('table', { name: 'Дневник' });
  // The audit's sentences (shared/i18n/audit.ts), with the person's name in them.
  await expect(audit.getByRole('row', { name: /На хабу искључена особа Ана Анић/ })).toBeVisible();
  await expect(audit.getByRole('row', { name: /На хабу постављен нови PIN особе Ана Анић/ })).toBeVisible();
});
