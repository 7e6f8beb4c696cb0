/**
 * Issue 42 at the hub UI in Chromium (a hub child process on PGlite, its manager and products put through the admin
 * API): the Цене tab creates a promotion (a price above the regular one and a period ending before it starts are
 * refused at their fields, in the till's words), a list for the whole chain, changes the promotion and deletes the
 * list; in Cyrillic, Latin and English. Screenshots at 1024×768 and 1366×768 go to `KASA_SHOTS`.
 */
import { expect, test } from '@playwright/test';
import { dayIn } from '../../shared/i18n/time.ts';
import { managedHub } from './hub-support.ts';
import { shotsAtTillSizes } from './languages.ts';

const ADMIN = 'e2e-admin-token-prices-0123456789abcdef';
const rig = managedHub('kasa-hub-prices-e2e-', ADMIN, { name: 'Јована', pin: '246810' });
const { admin } = rig;
const day = (offset: number): string => dayIn(new Date(Date.now() + offset * 86_400_000), 'Europe/Belgrade');

test.beforeAll(async () => {
  const product = (code: string, name: string, pricePara: number, group: string) => ({
    code,
    name,
    pricePara,
    label: 'Ђ',
    unit: 'piece',
    group,
  });
  expect(
    await admin('PUT', '/api/admin/products', {
      shopId: 1,
      products: [product('HL', 'Хлеб', 120_00, 'Пекара'), product('SK', 'Сок од јабуке 1 л', 200_00, 'Пиће')],
    }),
  ).toBe(200);
});

test('the Цене tab: a promotion and a chain list made, refused at their fields, changed and deleted', async ({
  page,
}) => {
  await rig.openAsManager(page);
  await page.getByRole('tab', { name: 'Цене' }).click();
  const section = page.getByRole('region', { name: 'Цене' });

  // A promotion: a price above the regular one, then a period ending before it starts, each at its field.
  // „Нова акција“ opened and filled: a promotional price on a product, priority 1, days from today.
  const newPromotion = async (name: string, price: string, from: number, to: number) => {
    await section.getByRole('button', { name: 'Нова акција' }).click();
    const opened = section.getByRole('form', { name: 'Нова акција' });
    for (const [label, value] of [
      ['Назив', name],
      ['Шифра артикла', 'HL'],
      ['Цена (дин)', price],
      ['Приоритет', '1'],
      ['Од датума', day(from)],
      ['До датума', day(to)],
    ] as const)
      await opened.getByLabel(label).fill(value);
    return opened;
  };
  const form = await newPromotion('Викенд акција', '150', -1, 2);
  await form.getByRole('button', { name: 'Сачувај' }).click();
  await expect(form.getByRole('alert')).toHaveText('Акцијска цена у пољу „Цена (дин)“ мора бити нижа од редовне цене.');
  await expect(form.getByLabel('Цена (дин)')).toHaveAttribute('aria-invalid', 'true');
  await shotsAtTillSizes(page, 'hub-prices-refused', form);
  await form.getByLabel('Цена (дин)').fill('90');
  await form.getByLabel('До датума').fill(day(-2));
  await form.getByRole('button', { name: 'Сачувај' }).click();
  await expect(form.getByRole('alert')).toHaveText('Датум у пољу „До датума“ не сме бити пре почетног датума.');
  await form.getByLabel('До датума').fill(day(2));
  await form.getByRole('button', { name: 'Сачувај' }).click();
  await expect(section.getByRole('status')).toContainText('Сачувано: Викенд акција');
  const promotions = section.getByRole('table', { name: 'Акције' });
  await expect(promotions.getByRole('row', { name: /Викенд акција/ })).toContainText('Хлеб: цена 90,00');

  // A second promotion on the bread, same priority, overlapping days: refused at the priority, naming the first.
  const beside = await newPromotion('Друга акција', '80', 0, 1);
  await beside.getByRole('button', { name: 'Сачувај' }).click();
  await expect(beside.getByRole('alert')).toHaveText(
    'У истом периоду на исти артикал већ важи акција „Викенд акција“ истог приоритета: промените приоритет или период (Приоритет).',
  );
  await expect(beside.getByLabel('Приоритет')).toHaveAttribute('aria-invalid', 'true');
  await shotsAtTillSizes(page, 'hub-prices-overlap', beside);
  await beside.getByRole('button', { name: 'Одустани' }).click();

  // A list for the whole chain: 10 % off the drinks.
  await section.getByRole('button', { name: 'Нови ценовник' }).click();
  const list = section.getByRole('form', { name: 'Нови ценовник' });
  await list.getByLabel('Назив').fill('Пиће −10 %');
  await list.getByLabel('Важи за').selectOption({ label: 'цео ланац' });
  await list.getByLabel('Група артикала').fill('Пиће');
  await list.getByLabel('Попуст (%)').fill('10');
  await list.getByLabel('Приоритет').fill('1');
  await list.getByRole('button', { name: 'Сачувај' }).click();
  const lists = section.getByRole('table', { name: 'Ценовници' });
  await expect(lists.getByRole('row', { name: /Пиће −10 %/ })).toContainText('цео ланац');
  await expect(lists.getByRole('row', { name: /Пиће −10 %/ })).toContainText('−10 % на групу „Пиће“');
  await shotsAtTillSizes(page, 'hub-prices-cyrl', section);

  // The promotion changed from its row: the form comes filled.
  await promotions.getByRole('button', { name: 'Измени Викенд акција' }).click();
  const edit = section.getByRole('form', { name: 'Нова акција' });
  await expect(edit.getByLabel('Шифра артикла')).toHaveValue('HL');
  await edit.getByLabel('Цена (дин)').fill('95');
  await edit.getByRole('button', { name: 'Сачувај' }).click();
  await expect(promotions.getByRole('row', { name: /Викенд акција/ })).toContainText('цена 95,00');

  // Latin and English.
  await page.getByLabel('Језик').selectOption('sr-Latn');
  const latin = page.getByRole('region', { name: 'Cene' });
  await expect(latin.getByRole('table', { name: 'Akcije' })).toContainText('ovu prodavnicu');
  await shotsAtTillSizes(page, 'hub-prices-latn', latin);
  await page.getByLabel('Jezik').selectOption('en');
  const english = page.getByRole('region', { name: 'Prices' });
  await expect(english.getByRole('table', { name: 'Price lists' })).toContainText('−10 % off the group “Пиће”');
  await shotsAtTillSizes(page, 'hub-prices-en', english);

  // The list deleted.
  await english.getByRole('button', { name: 'Delete Пиће −10 %' }).click();
  await expect(english.getByRole('status')).toHaveText('Deleted.');
  await expect(english.getByRole('table', { name: 'Price lists' })).toHaveCount(0);
});
