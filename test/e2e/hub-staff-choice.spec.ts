/**
 * The till's staff choice in Chromium (#25), against a real hub process (PGlite, plain HTTP on loopback): the shop
 * already has a manager, so after enrolment this till's manager is not merged; the Хаб tab shows both lists. A PIN
 * that is not a hub manager's is refused at its field; mapped to the hub's manager, the till takes that person and
 * the list goes away. With KASA_SHOTS=<dir> the choice is photographed at 1024×768 and 1366×768
 * (staff-choice-*.png).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { openManager } from './counter-support.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { managedHub } from './hub-support.ts';
import { wholePageShots } from './languages.ts';

const ADMIN = 'e2e-admin-token-staff-choice-0123456789';
const rig = managedHub('kasa-hub-staff-e2e-', ADMIN, { name: 'Ана', pin: '246810' });

test.use({ kasaEnv: { KASA_TERMINAL_ID: 'HUBIDS1' } });

const photograph = (page: Page, name: string): Promise<void> => wholePageShots(page, `staff-choice-${name}`);

test("enrolled into a shop with a manager, the till's manager waits for the choice and is mapped", async ({ kasa }) => {
  const mgr = await openManager(kasa.page, 'Хаб');
  const form = mgr.getByRole('form', { name: 'Упиши касу у хаб' });
  await form.getByLabel('Адреса хаба').fill(rig.hub.url);
  await form.getByLabel('Једнократни код за упис').fill(rig.hub.enrolCode);
  await form.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await form.getByRole('button', { name: 'Упиши касу у хаб' }).click();

  const choice = mgr.getByRole('form', { name: 'Особље: ова каса и хаб' });
  await expect(choice.getByRole('table', { name: 'Особље продавнице на хабу' })).toContainText('Ана');
  const pick = choice.getByRole('combobox', { name: /Менаџер/ });
  await expect(pick).toHaveValue('');
  await photograph(kasa.page, 'waiting');

  // This till's own manager PIN is not a manager's at the hub: refused at the field, nothing changes.
  await pick.selectOption({ label: 'То је Ана (Менаџер) са хаба' });
  const hubPin = choice.getByLabel('PIN менаџера продавнице на хабу');
  await hubPin.fill(MANAGER_PIN);
  await choice.getByRole('button', { name: 'Усклади особље' }).click();
  await expect(choice.locator('#hub-staff-hubPin-error')).toContainText('није PIN активног менаџера');
  await expect(hubPin).toHaveAttribute('aria-invalid', 'true');
  await photograph(kasa.page, 'refused');

  await hubPin.fill('246810');
  await choice.getByRole('button', { name: 'Усклади особље' }).click();
  await expect(mgr.getByText('Особље је усклађено — повезано: 1, додато: 0.')).toBeVisible();
  await expect(choice).toHaveCount(0);
  await photograph(kasa.page, 'done');
});
