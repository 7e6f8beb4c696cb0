/**
 * Issue 42 at the hub UI in Chromium (a hub child process on PGlite, its manager and products put through the admin
 * API): the Цене tab creates a promotion (a price above the regular one and a period ending before it starts are
 * refused at their fields, in the till's words), a list for the whole chain, changes the promotion and deletes the
 * list; in Cyrillic, Latin and English. Screenshots at 1024×768 and 1366×768 go to `KASA_SHOTS`.
 */
import { expect, test } from '@playwright/test';
import { dayIn } from '../../shared/i18n/time.ts';
import { managedHub, switchHubLanguage } from './hub-support.ts';
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
  await rig.openAsManager(page, 'Цене');
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

test("a list's own prices by product, a business buyer's list for the chain and a chain's scheduled change", async ({
  page,
}) => {
  await rig.openAsManager(page, 'Цене');
  const section = page.getByRole('region', { name: 'Цене' });

  // A list with two product prices: the second row names a product the shop does not have, refused at that row.
  await section.getByRole('button', { name: 'Нови ценовник' }).click();
  const list = section.getByRole('form', { name: 'Нови ценовник' });
  await list.getByLabel('Назив', { exact: true }).fill('Недељне цене');
  await list.getByLabel('Приоритет').fill('2');
  await list.getByRole('button', { name: 'Додај артикал' }).click();
  await list.getByRole('button', { name: 'Додај артикал' }).click();
  await list.getByLabel('Артикал (шифра или назив), ред 1').fill('HL');
  await list.getByLabel('Цена (дин), ред 1').fill('99');
  await list.getByLabel('Артикал (шифра или назив), ред 2').fill('НЕМА');
  await list.getByLabel('Цена (дин), ред 2').fill('170');
  await list.getByRole('button', { name: 'Сачувај' }).click();
  const row2 = list.getByLabel('Артикал (шифра или назив), ред 2');
  await expect(row2).toHaveAttribute('aria-invalid', 'true');
  await expect(list.getByRole('alert')).toHaveText(
    'Артикал са шифром „НЕМА“ не постоји (Артикал (шифра или назив), ред 2).',
  );
  // A price that does not read, at its row's field, before anything is sent.
  await list.getByLabel('Цена (дин), ред 1').fill('девет');
  await list.getByRole('button', { name: 'Сачувај' }).click();
  await expect(list.getByLabel('Цена (дин), ред 1')).toHaveAttribute('aria-invalid', 'true');
  await expect(list.getByRole('alert')).toHaveText('Поље „Цена (дин), ред 1“ мора бити број.');
  await shotsAtTillSizes(page, 'hub-prices-items-refused', list);
  await list.getByLabel('Цена (дин), ред 1').fill('99');
  // The juice found by a part of its name: the search offers it, and the row sends its code.
  await row2.fill('Сок од јабуке 1 л');
  await expect(page.locator('#price-list-products option')).toHaveCount(1);
  await list.getByRole('button', { name: 'Сачувај' }).click();
  await expect(section.getByRole('status')).toContainText('Сачувано: Недељне цене');
  const lists = section.getByRole('table', { name: 'Ценовници' });
  await expect(lists.getByRole('row', { name: /Недељне цене/ })).toContainText(
    'цене 2 артикла: Хлеб 99,00, Сок од јабуке 1 л 170,00',
  );
  // Changed from its row: the rows come filled; one removed, nothing else lost.
  await lists.getByRole('button', { name: 'Измени Недељне цене' }).click();
  const edit = section.getByRole('form', { name: 'Нови ценовник' });
  await expect(edit.getByLabel('Артикал (шифра или назив), ред 2')).toHaveValue('SK');
  await edit.getByRole('button', { name: 'Уклони ред 1' }).click();
  await edit.getByRole('button', { name: 'Сачувај' }).click();
  await expect(lists.getByRole('row', { name: /Недељне цене/ })).toContainText(
    'цене 1 артикла: Сок од јабуке 1 л 170,00',
  );

  // A list's prices from a CSV file: a bad row named by line and column and nothing taken, then a good file.
  await section.getByRole('button', { name: 'Нови ценовник' }).click();
  const fromFile = section.getByRole('form', { name: 'Нови ценовник' });
  await fromFile.getByLabel('Назив', { exact: true }).fill('Из датотеке');
  const file = fromFile.getByLabel('Увези цене из CSV датотеке');
  const csv = (text: string) => ({ name: 'cene.csv', mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
  await file.setInputFiles(csv('\uFEFFшифра;цена;од;до\nHL;89,90;01.12.2026.;07.12.2026.\nSK;1,2,3\n'));
  await expect(fromFile.getByRole('alert')).toHaveText(
    'Ред 3, колона 2 (цена; Увези цене из CSV датотеке): „1,2,3“ није цена (1.234,50 са „;“ или 1234.50 са „,“). Ништа није увезено.',
  );
  await expect(fromFile.getByLabel('Артикал (шифра или назив), ред 1')).toHaveCount(0);
  await shotsAtTillSizes(page, 'hub-prices-csv-refused', fromFile);
  await file.setInputFiles(csv('HL;89,90;01.12.2026.;07.12.2026.\nSK;1.150,00;01.12.2026.;07.12.2026.\n'));
  await expect(fromFile.getByLabel('Артикал (шифра или назив), ред 2')).toHaveValue('SK');
  await expect(fromFile.getByLabel('Од датума')).toHaveValue('2026-12-01');
  await fromFile.getByRole('button', { name: 'Сачувај' }).click();
  await expect(lists.getByRole('row', { name: /Из датотеке/ })).toContainText(
    'цене 2 артикла: Хлеб 89,90, Сок од јабуке 1 л 1.150,00',
  );
  await lists.getByRole('button', { name: 'Обриши Из датотеке' }).click();
  await expect(lists.getByRole('row', { name: /Из датотеке/ })).toHaveCount(0);

  // A business buyer's list for the whole chain: a PIB with a wrong check digit refused at its field.
  await section.getByRole('button', { name: 'Нови ценовник' }).click();
  const buyer = section.getByRole('form', { name: 'Нови ценовник' });
  await buyer.getByLabel('Назив', { exact: true }).fill('Фирма доо');
  await buyer.getByLabel('Важи за').selectOption({ label: 'цео ланац' });
  await buyer.getByLabel('Купац').selectOption({ label: 'један пословни купац' });
  await buyer.getByLabel('ПИБ купца').fill('101134703');
  await buyer.getByLabel('Попуст (%)').fill('5');
  await buyer.getByLabel('Приоритет').fill('1');
  await buyer.getByRole('button', { name: 'Сачувај' }).click();
  await expect(buyer.getByLabel('ПИБ купца')).toHaveAttribute('aria-invalid', 'true');
  await expect(buyer.getByRole('alert')).toContainText('ПИБ купца');
  await buyer.getByLabel('ПИБ купца').fill('101134702');
  await buyer.getByRole('button', { name: 'Сачувај' }).click();
  await expect(lists.getByRole('row', { name: /Фирма доо/ })).toContainText('цео ланац');
  await expect(lists.getByRole('row', { name: /Фирма доо/ })).toContainText('купац ПИБ 101134702; −5 % на све артикле');

  // A new price for the whole chain from a moment on.
  await section.getByRole('button', { name: 'Закажи нову цену' }).click();
  const schedule = section.getByRole('form', { name: 'Закажи нову цену' });
  await schedule.getByLabel('Шифра артикла').fill('HL');
  await schedule.getByLabel('Важи за').selectOption({ label: 'цео ланац' });
  await schedule.getByLabel('Цена (дин)').fill('125');
  await schedule.getByLabel('Од тренутка').fill(`${day(3)}T07:00`);
  await schedule.getByRole('button', { name: 'Сачувај' }).click();
  const scheduled = section.getByRole('table', { name: 'Заказане цене' });
  await expect(scheduled.getByRole('row', { name: /Хлеб/ })).toContainText('цео ланац');
  await shotsAtTillSizes(page, 'hub-prices-items-cyrl', section);

  // The row's refusal in Latin and in English.
  for (const [lang, name, newList, add, save, expected] of [
    [
      'sr-Latn',
      'Cene',
      'Novi cenovnik',
      'Dodaj artikal',
      'Sačuvaj',
      'Artikal sa šifrom „NEMA“ ne postoji (Artikal (šifra ili naziv), red 1).',
    ],
    [
      'en',
      'Prices',
      'New price list',
      'Add a product',
      'Save',
      'There is no product with code “NEMA” (Product (code or name), row 1).',
    ],
  ] as const) {
    await switchHubLanguage(page, lang);
    const region = page.getByRole('region', { name });
    await region.getByRole('button', { name: newList }).click();
    const form = region.getByRole('form', { name: newList });
    await form.getByLabel(lang === 'en' ? 'Name' : 'Naziv', { exact: true }).fill('X');
    await form.getByRole('button', { name: add }).click();
    const first = lang === 'en' ? 'Product (code or name), row 1' : 'Artikal (šifra ili naziv), red 1';
    await form.getByLabel(first).fill('NEMA');
    await form.getByLabel(lang === 'en' ? 'Price (RSD), row 1' : 'Cena (din), red 1').fill('10');
    await form.getByRole('button', { name: save }).click();
    await expect(form.getByRole('alert')).toHaveText(expected);
    await shotsAtTillSizes(page, `hub-prices-items-${lang === 'en' ? 'en' : 'latn'}`, form);
    await form.getByRole('button', { name: lang === 'en' ? 'Cancel' : 'Odustani' }).click();
  }
});
