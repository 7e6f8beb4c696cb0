/**
 * Products on the till, in Cyrillic, through the browser host and a real core: a manager adds a product by
 * hand on the catalog screen (F8), the counter sells it by its barcode, its price is changed and the next
 * scan rings the new price, then it is deleted (asked first) and no longer scans.
 */
import { withCheckDigit } from '../../electron/catalog/barcode.ts';
import type { ProductPage } from '../../shared/contract/catalog.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { approveAsManager, login, payWithKeys, readyToSell, scan } from './counter-support.ts';
import { expect, test } from './fixtures.ts';

const COFFEE = withCheckDigit('860999900001');

test('a product added by hand is sold by its barcode, its price changed, then deleted', async ({ kasa }) => {
  const { page } = kasa;
  await login(page);
  await page.keyboard.press('F8');
  const screen = page.getByRole('main', { name: 'Каталог' });
  const products = screen.getByRole('region', { name: 'Производи' });
  await expect(products.getByText('Нема производа.')).toBeVisible();

  await products.getByRole('button', { name: 'Додај производ' }).click();
  const form = page.getByRole('dialog', { name: 'Нови производ' });
  await form.getByLabel('Шифра').fill('T100');
  await form.getByLabel('Назив').fill('Кафа Златна 200 г');
  // A price typed the Serbian way: thousands with a dot, decimals after a comma. A third decimal is caught.
  await form.getByLabel('Цена (RSD)').fill('1.234,567');
  await form.getByRole('button', { name: 'Сачувај' }).click();
  await expect(form.getByRole('alert')).toHaveText('Цена мора бити износ са највише две децимале, нпр. 1.234,50.');
  await form.getByLabel('Цена (RSD)').fill('1.234,50');
  // The labels offered are the gateway's current ones.
  expect((await form.getByLabel('Пореска ознака').locator('option').allTextContents()).join(' ')).toContain('Ж');
  await form.getByLabel('Пореска ознака').selectOption('A');
  await form.getByLabel('Бар-кодови (одвојени зарезом)').fill(COFFEE);
  await form.getByLabel('Група').fill('Кафа');
  await form.getByLabel('Брзи тастер на каси').check();
  await form.getByRole('button', { name: 'Сачувај' }).click();
  await approveAsManager(page);
  await expect(form).toHaveCount(0);
  await expect(products.getByRole('status')).toHaveText('Производ „Кафа Златна 200 г“ је сачуван.');
  const list = products.getByRole('table', { name: 'Производи' });
  await expect(list.getByRole('row', { name: /Кафа Златна 200 г/ })).toContainText('1.234,50');

  // A second product may not take the coffee's barcode: refused at the barcode field, nothing saved.
  await products.getByRole('button', { name: 'Додај производ' }).click();
  const second = page.getByRole('dialog', { name: 'Нови производ' });
  await second.getByLabel('Шифра').fill('T101');
  await second.getByLabel('Назив').fill('Чај');
  await second.getByLabel('Цена (RSD)').fill('150');
  await second.getByLabel('Бар-кодови (одвојени зарезом)').fill(COFFEE);
  await second.getByRole('button', { name: 'Сачувај' }).click();
  await approveAsManager(page);
  // The core's field (`barcodes.0`) is named by the label the person sees.
  await expect(second.getByRole('alert')).toHaveText(
    `Бар-код „${COFFEE}“ у пољу „Бар-кодови (одвојени зарезом)“ већ припада производу „Кафа Златна 200 г“.`,
  );
  await expect(second.getByLabel('Бар-кодови (одвојени зарезом)')).toHaveAttribute('aria-invalid', 'true');
  await second.getByRole('button', { name: 'Откажи' }).click();
  await expect(list.getByRole('row')).toHaveCount(2);

  // The counter sells it by its barcode at the catalog price.
  await page.keyboard.press('Escape');
  await scan(page, COFFEE);
  const cart = page.getByRole('table', { name: 'Корпа' });
  await expect(cart.getByRole('row', { name: 'Ставка 1: Кафа Златна 200 г' })).toBeVisible();
  await expect(page.getByTestId('cart-total')).toHaveText('1.234,50');
  await payWithKeys(page);
  await expect(page.getByTestId('receipt-state')).toHaveText('ФИСКАЛИЗОВАН');
  await page.keyboard.press('Enter');

  // A new price: the next scan rings it.
  await page.keyboard.press('F8');
  await products.getByRole('button', { name: 'Измени „Кафа Златна 200 г“' }).click();
  const edit = page.getByRole('dialog', { name: 'Измена производа' });
  await expect(edit.getByLabel('Шифра')).toBeDisabled();
  await expect(edit.getByLabel('Цена (RSD)')).toHaveValue('1.234,50');
  await edit.getByLabel('Цена (RSD)').fill('1.299,00');
  await edit.getByRole('button', { name: 'Сачувај' }).click();
  await approveAsManager(page);
  await expect(edit).toHaveCount(0);
  await expect(list.getByRole('row', { name: /Кафа Златна 200 г/ })).toContainText('1.299,00');
  await page.keyboard.press('Escape');
  await scan(page, COFFEE);
  await expect(page.getByTestId('cart-total')).toHaveText('1.299,00');

  // Delete, asked first: gone from the list, and a scan no longer finds it.
  await page.keyboard.press('F8');
  await products.getByRole('button', { name: 'Измени „Кафа Златна 200 г“' }).click();
  await edit.getByRole('button', { name: 'Обриши производ' }).click();
  await expect(edit.getByText('Обрисати производ „Кафа Златна 200 г“? Издати рачуни остају какви јесу.')).toBeVisible();
  await edit.getByRole('button', { name: 'Да, обриши' }).click();
  await approveAsManager(page);
  await expect(edit).toHaveCount(0);
  await expect(products.getByText('Нема производа.')).toBeVisible();
  const left = await kasa.host.call<ProductPage>('catalog.list', {});
  expect(left.body.value?.total).toBe(0);
  const audit = await kasa.host.call<{ entries: { action: string; approver: string | null }[] }>('audit.list', {
    managerPin: MANAGER_PIN,
  });
  const actions = (audit.body.value?.entries ?? []).map((e) => e.action);
  expect(actions).toEqual(
    expect.arrayContaining(['catalog.productAdded', 'catalog.productChanged', 'catalog.productRemoved']),
  );
});

test.describe('a till configured for a store hub', () => {
  // Nothing listens on port 1: the till is configured for a hub it cannot reach, which already makes the
  // hub the catalog's owner (once enrolled its products overwrite the till's by code).
  test.use({ kasaEnv: { KASA_HUB_URL: 'http://127.0.0.1:1' } });

  test('says the hub owns the catalog and offers no editing', async ({ kasa }) => {
    const page = await readyToSell(kasa);
    await page.keyboard.press('F8');
    const products = page.getByRole('region', { name: 'Производи' });
    await expect(products.getByRole('note')).toHaveText(
      'Каталогом ове продавнице управља хаб продавнице: производи се додају, мењају и бришу на хабу.',
    );
    await expect(products.getByRole('table', { name: 'Производи' }).getByRole('row').nth(1)).toBeVisible();
    await expect(products.getByRole('button', { name: 'Додај производ' })).toHaveCount(0);
    await expect(products.getByRole('button', { name: /^Измени/ })).toHaveCount(0);
  });
});
