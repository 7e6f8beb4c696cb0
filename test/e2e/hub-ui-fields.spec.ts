/**
 * Issue 38 at the hub UI in Chromium (a hub child process on PGlite, its staff put through the admin API): a
 * manager adds people (name, role, PIN; a short manager PIN and a name mixing scripts are refused at their
 * fields), the shop's last manager cannot deactivate herself (said in her row), barcode rules are edited in
 * fields (prefix, kind, code digits, value digits), each checked at its field, and a product's barcodes are
 * separated by commas as on the till. Screenshots at 1024×768 and 1366×768 go to `KASA_SHOTS`.
 */
import { expect, test } from '@playwright/test';
import { managedHub } from './hub-support.ts';
import { shotsAtTillSizes } from './languages.ts';

const ADMIN = 'e2e-admin-token-fields-0123456789abcdef';
const rig = managedHub('kasa-hub-fields-e2e-', ADMIN, { name: 'Јована', pin: '246810' });
const { admin } = rig;

test.beforeAll(async () => {
  expect(
    await admin('PUT', '/api/admin/products', {
      shopId: 1,
      products: [
        {
          code: '1001',
          name: 'Сок од јабуке 1 л',
          pricePara: 15_990,
          label: 'Ђ',
          unit: 'piece',
          barcodes: ['8600000100018', '8600000100025'],
        },
      ],
    }),
  ).toBe(200);
});

test('people added at the hub, the last manager stays, barcode rules in fields, barcodes by commas', async ({
  page,
}) => {
  await rig.openAsManager(page);

  // The shop's last manager deactivating herself: told in her row that she is the last, and what to do.
  await page.getByRole('tab', { name: 'Особље' }).click();
  const section = page.getByRole('region', { name: 'Особље' });
  const jovana = section.getByRole('row', { name: /Јована/ });
  await section.getByRole('button', { name: 'Искључи: Јована' }).click();
  const last = 'Последњи активни менаџер продавнице не може да се искључи: прво додајте или укључите другог менаџера.';
  await expect(jovana.getByRole('alert')).toHaveText(last);
  await expect(section.getByRole('button', { name: 'Искључи: Јована' })).toHaveAccessibleDescription(last);
  await expect(jovana).toContainText('Активна');
  await shotsAtTillSizes(page, 'hub-staff-last-manager', jovana);

  // Adding a person: a manager's PIN of 4 digits and a name mixing scripts are refused at their fields.
  await section.getByRole('button', { name: 'Додај особу' }).click();
  const form = section.getByRole('form', { name: 'Нова особа' });
  await form.getByLabel('Име и презиме').fill('Mилан'); // a Latin M
  await form.getByLabel('Улога').selectOption({ label: 'Менаџер' });
  await form.getByLabel('PIN').fill('1234');
  await form.getByRole('button', { name: 'Додај особу' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'Реч у пољу „Име и презиме“ меша ћирилицу и латиницу: пишите је једним писмом.',
  );
  await expect(form.getByLabel('Име и презиме')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Име и презиме').fill('Милан');
  await form.getByRole('button', { name: 'Додај особу' }).click();
  await expect(form.getByRole('alert')).toHaveText('PIN менаџера у пољу „PIN“ мора имати најмање 6 цифара.');
  await expect(form.getByLabel('PIN')).toHaveAttribute('aria-invalid', 'true');
  await shotsAtTillSizes(page, 'hub-staff-add-error', form);
  await form.getByLabel('PIN').fill('975310');
  await form.getByRole('button', { name: 'Додај особу' }).click();
  await expect(section.getByRole('status')).toContainText('Особа Милан је додата');
  await expect(section.getByRole('row', { name: /Милан/ })).toContainText('Менаџер');
  // A cashier too, with a PIN of 4 digits.
  await section.getByRole('button', { name: 'Додај особу' }).click();
  await form.getByLabel('Име и презиме').fill('Ана Анић');
  await form.getByLabel('PIN').fill('1357');
  await form.getByRole('button', { name: 'Додај особу' }).click();
  await expect(section.getByRole('row', { name: /Ана Анић/ })).toContainText('Касир');
  await shotsAtTillSizes(page, 'hub-staff-added', section);

  // Barcode rules in fields: an empty shop has none; a prefix out of 20–29 and digits not filling 10 are refused
  // at their fields; a good rule is saved and read back into the fields.
  await page.getByRole('tab', { name: 'Подешавања' }).click();
  const rules = page.getByRole('group', { name: 'Правила бар-кодова са ценом или тежином' });
  await expect(rules).toContainText('Нема правила бар-кодова');
  await rules.getByRole('button', { name: 'Додај правило' }).click();
  await rules.getByRole('button', { name: 'Додај правило' }).click();
  const first = rules.getByRole('group', { name: 'Правило 1' });
  const second = rules.getByRole('group', { name: 'Правило 2' });
  await first.getByLabel('Префикс').fill('19');
  await first.getByLabel('Врста').selectOption({ label: 'тежина' });
  await second.getByLabel('Префикс').fill('28');
  // The value digits follow the code digits (10 together).
  await second.getByLabel('Цифре шифре').fill('4');
  await expect(second.getByLabel('Цифре вредности')).toHaveValue('6');
  await second.getByLabel('Цифре вредности').fill('0');
  await page.getByRole('button', { name: 'Сачувај подешавања' }).click();
  await expect(first.getByRole('alert')).toHaveText('Префикс у пољу „Правило 1: Префикс“ је број од 20 до 29.');
  await expect(first.getByLabel('Префикс')).toHaveAttribute('aria-invalid', 'true');
  await expect(second.getByRole('alert')).toHaveText('У пољу „Правило 2: Цифре вредности“ упишите број од 1 до 9.');
  await shotsAtTillSizes(page, 'hub-rules-error', rules);
  await first.getByLabel('Префикс').fill('27');
  await second.getByLabel('Цифре вредности').fill('5');
  await expect(second.getByLabel('Цифре шифре')).toHaveValue('5');
  await page.getByRole('button', { name: 'Сачувај подешавања' }).click();
  await expect(page.getByRole('status')).toContainText('Подешавања сачувана');
  const held = await (
    await fetch(`${rig.hub.url}/api/admin/settings?shopId=1`, { headers: { authorization: `Bearer ${ADMIN}` } })
  ).json();
  expect(held).toEqual({
    settings: expect.objectContaining({
      barcodeRules: [
        { prefix: '27', kind: 'weight', codeLength: 5 },
        { prefix: '28', kind: 'price', codeLength: 5 },
      ],
    }),
  });
  await page.getByRole('tab', { name: 'Артикли' }).click();
  await page.getByRole('tab', { name: 'Подешавања' }).click();
  await expect(first.getByLabel('Префикс')).toHaveValue('27');
  await expect(first.getByLabel('Врста')).toHaveValue('weight');
  await expect(second.getByLabel('Цифре шифре')).toHaveValue('5');
  await shotsAtTillSizes(page, 'hub-rules', rules);

  // A product's barcodes, as on the till: separated by commas.
  await page.getByRole('tab', { name: 'Артикли' }).click();
  await page
    .getByRole('row', { name: /1001/ })
    .getByRole('button', { name: /Измени/ })
    .click();
  await expect(page.getByLabel('Бар-кодови (одвојени зарезом)')).toHaveValue('8600000100018, 8600000100025');
});
