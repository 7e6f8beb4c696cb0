/**
 * Staff management at the till's Менаџер → Особље, through the browser host and the sandbox gateway: a
 * manager picks a person, deactivates them (whose next login is refused in words) or gives them a new PIN;
 * refusals appear at their field. Screenshots of the tab at 1024x768 and 1366x768
 * are kept when KASA_SHOTS names a folder.
 */
import type { Page } from '@playwright/test';
import { expect, test, type KasaFixture } from './fixtures.ts';
import { enterPin, login, openManager } from './counter-support.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { shotsAndBack } from './languages.ts';

async function cashier(kasa: KasaFixture, name: string, pin: string): Promise<void> {
  const r = await kasa.host.call('staff.create', { managerPin: MANAGER_PIN, name, role: 'cashier', pin });
  if (!r.body.ok) throw new Error(JSON.stringify(r.body));
}

const shots = (page: Page, name: string): Promise<void> => shotsAndBack(page, `staff-${name}`);

/** Closes the manager screens and hands the till to the next person (the login screen). */
async function changeCashier(page: Page): Promise<void> {
  await page.getByRole('dialog', { name: 'Менаџер' }).getByRole('button', { name: 'Затвори', exact: true }).click();
  await page.getByRole('button', { name: /Промени касира/ }).click();
  await expect(page.getByRole('main', { name: 'Пријава касира' })).toBeVisible();
}

test('deactivate a cashier, whose next login is refused', async ({ kasa }) => {
  await cashier(kasa, 'Ана Анић', '1357');
  const mgr = await openManager(kasa.page, 'Особље');
  const table = mgr.getByRole('table', { name: 'Особље' });
  await expect(table.getByRole('columnheader', { name: 'Е-пошта', exact: true })).toBeVisible();

  // The till's only manager cannot deactivate themself: told at the state field that they are the last one and
  // what to do (issue 38), nothing changes.
  await mgr.getByRole('button', { name: 'Измени: Менаџер' }).click();
  const self = mgr.getByRole('form', { name: 'Искључивање и поновно укључивање' });
  await self.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await self.getByRole('button', { name: 'Искључи: Менаџер' }).click();
  await expect(self.getByRole('alert')).toContainText('Последњи активни менаџер не може бити искључен');
  await expect(self.getByRole('alert')).toContainText('прво додајте или укључите другог менаџера');
  await expect(self.getByLabel('Стање')).toHaveValue('Активна');
  await self.scrollIntoViewIfNeeded();
  await shots(kasa.page, 'till-last-manager');

  await mgr.getByRole('button', { name: 'Измени: Ана Анић' }).click();
  const activity = mgr.getByRole('form', { name: 'Искључивање и поновно укључивање' });
  await activity.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await activity.getByRole('button', { name: 'Искључи: Ана Анић' }).click();
  await expect(mgr.getByRole('status')).toContainText('Особа Ана Анић је искључена');
  await expect(table.getByRole('row', { name: /Ана Анић/ })).toContainText('Искључена');
  await expect(activity.getByRole('button', { name: 'Поново укључи: Ана Анић' })).toBeVisible();
  await shots(kasa.page, 'till-deactivated');

  await changeCashier(kasa.page);
  const screen = kasa.page.getByRole('main', { name: 'Пријава касира' });
  await screen.getByLabel('PIN', { exact: true }).fill('1357');
  await kasa.page.keyboard.press('Enter');
  await expect(kasa.page.getByRole('alert')).toContainText(
    'Ова особа је искључена и не може да се пријави. Обратите се менаџеру.',
  );
  await expect(screen).toBeVisible();
});

test('reset a PIN', async ({ kasa }) => {
  await cashier(kasa, 'Ана Анић', '1357');
  const mgr = await openManager(kasa.page, 'Особље');
  await mgr.getByRole('button', { name: 'Измени: Ана Анић' }).click();
  const reset = mgr.getByRole('form', { name: 'Промена PIN-а особе' });
  // Letters: refused at the new PIN's field, in Serbian, nothing changed.
  await reset.getByLabel('Нови PIN особе').fill('12ab');
  await reset.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await reset.getByRole('button', { name: 'Постави нови PIN' }).click();
  const error = reset.getByRole('alert');
  await expect(error).toHaveText('PIN у пољу „Нови PIN особе“ мора имати 4 до 8 цифара.');
  await expect(reset.getByLabel('Нови PIN особе')).toHaveAttribute('aria-invalid', 'true');
  await shots(kasa.page, 'till-pin-error');

  await reset.getByLabel('Нови PIN особе').fill('8642');
  await reset.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await reset.getByRole('button', { name: 'Постави нови PIN' }).click();
  await expect(mgr.getByRole('status')).toHaveText('Нови PIN за особу Ана Анић је постављен.');
  // Never shown back: the field is empty again.
  await expect(reset.getByLabel('Нови PIN особе')).toHaveValue('');

  await changeCashier(kasa.page);
  const screen = kasa.page.getByRole('main', { name: 'Пријава касира' });
  await screen.getByLabel('PIN', { exact: true }).fill('1357');
  await kasa.page.keyboard.press('Enter');
  await expect(kasa.page.getByRole('alert')).toBeVisible();
  await enterPin(kasa.page, '8642');
  await expect(kasa.page.getByRole('status').filter({ hasText: 'Ана Анић' }).first()).toBeVisible();
});

test('edit a person’s details: a duplicate name is refused at the name field', async ({ kasa }) => {
  await cashier(kasa, 'Ана Анић', '1357');
  await cashier(kasa, 'Бора Борић', '2468');
  await login(kasa.page);
  await kasa.page.getByRole('button', { name: 'Менаџер (F11)' }).click();
  const mgr = kasa.page.getByRole('dialog', { name: 'Менаџер' });
  await mgr.getByRole('tab', { name: 'Особље' }).click();
  await mgr.getByRole('button', { name: 'Измени: Ана Анић' }).click();
  const details = mgr.getByRole('form', { name: 'Подаци особе' });
  await details.getByLabel('Име').fill('Бора Борић');
  await details.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await details.getByRole('button', { name: 'Сачувај измене' }).click();
  await expect(details.getByRole('alert')).toHaveText('Име „Бора Борић“ у пољу „Име“ већ има друга особа.');
  await shots(kasa.page, 'till-edit-error');
  await details.getByLabel('Име').fill('Ана Петровић');
  await details.getByLabel('Е-пошта').fill('ana@example.com');
  await details.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await details.getByRole('button', { name: 'Сачувај измене' }).click();
  await expect(mgr.getByRole('status')).toHaveText('Измене су сачуване: Ана Петровић.');
  await expect(mgr.getByRole('table', { name: 'Особље' }).getByRole('row', { name: /Ана Петровић/ })).toContainText(
    'ana@example.com',
  );
});
