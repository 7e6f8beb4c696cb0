/**
 * The counter through the browser host: scanning, quantity, split payment with change, the receipt and
 * its QR; parked sales; training mode; a sale taken offline that fiscalizes itself when the gateway returns.
 */
import type { OrderView } from '../../shared/domain.ts';
import { expect, test, type KasaFixture } from './fixtures.ts';
import { withCheckDigit } from '../../electron/catalog/barcode.ts';
import { lineTotal } from '../../shared/money.ts';
import { decodeReceiptQr, pieceItem, rsd, sampleItems, scan } from './counter-support.ts';

async function ready(kasa: KasaFixture): Promise<void> {
  const r = await kasa.host.call('catalog.loadSample');
  expect(r.body.ok).toBe(true);
  await kasa.page.reload();
  await expect(kasa.page.getByRole('combobox', { name: 'Претрага или бар-код' })).toBeFocused();
}

async function lastOrder(kasa: KasaFixture): Promise<OrderView> {
  const r = await kasa.host.call<{ orders: OrderView[] }>('orders.list', { limit: 1 });
  const order = r.body.value?.orders[0];
  if (!order) throw new Error('no order');
  return order;
}

// Close the page's event stream before the fixture stops the host: the host's close() waits for open
// connections, and the EventSource reconnects on a kept-alive socket (reported to the host's owner).
test.afterEach(async ({ page }) => {
  await page.goto('about:blank');
});

const BREAD = pieceItem('1001');
const MILK = pieceItem('1006');
const OIL = pieceItem('1034');

test('scan three items, change a quantity, split cash + card, receipt with a QR of the verification URL', async ({
  kasa,
}, testInfo) => {
  const { page } = kasa;
  await ready(kasa);
  await expect(page.getByRole('note').filter({ hasText: 'ДЕМО РЕЖИМ' })).toBeVisible();

  for (const item of [BREAD, MILK, OIL]) await scan(page, item.barcode);
  const cart = page.getByRole('table', { name: 'Корпа' });
  await expect(cart.getByRole('row', { name: /^Ставка \d/ })).toHaveCount(3);
  await expect(cart.getByRole('row', { name: `Ставка 3: ${OIL.name}` })).toHaveAttribute('aria-selected', 'true');

  // Milk: select its line (arrow up from the last) and set 3 with F4.
  await page.keyboard.press('ArrowUp');
  await expect(cart.getByRole('row', { name: `Ставка 2: ${MILK.name}` })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('F4');
  const dialog = page.getByRole('dialog', { name: `Количина: ${MILK.name}` });
  await dialog.getByLabel(/Количина/).fill('3');
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(cart.getByRole('row', { name: `Ставка 2: ${MILK.name}` })).toContainText('3 ком');

  const total = BREAD.pricePara + 3 * MILK.pricePara + OIL.pricePara;
  await expect(page.getByTestId('cart-total')).toHaveText(rsd(total));
  await page.screenshot({ path: testInfo.outputPath('sale.png') });

  await page.keyboard.press('F12');
  await expect(page.getByRole('main', { name: 'Плаћање' })).toBeVisible();
  await page.getByLabel('Картица', { exact: true }).fill('500');
  await expect(page.getByLabel('Готовина', { exact: true })).toHaveValue(rsd(total - 50000));
  const cash = Math.ceil((total - 50000) / 10000) * 10000;
  await page.getByLabel('Готовина', { exact: true }).fill(String(cash / 100));
  await expect(page.getByTestId('change')).toHaveText(rsd(500 * 100 + cash - total));
  await page.keyboard.press('F12');

  await expect(page.getByTestId('receipt-state')).toHaveText('ФИСКАЛИЗОВАН');
  await expect(page.getByTestId('receipt-total')).toHaveText(rsd(total));
  await expect(page.getByTestId('receipt-change')).toHaveText(rsd(500 * 100 + cash - total));
  const order = await lastOrder(kasa);
  expect(order.state).toBe('fiscalized');
  expect(order.payments).toEqual([
    { type: 'cash', amountPara: total - 50000 },
    { type: 'card', amountPara: 50000 },
  ]);
  const receipt = order.receipt;
  if (!receipt) throw new Error('no receipt');
  await expect(page.getByTestId('journal')).toHaveText(receipt.journal);
  expect(await decodeReceiptQr(page, 'QR код рачуна')).toBe(receipt.verificationUrl);
  await page.screenshot({ path: testInfo.outputPath('receipt.png'), fullPage: true });

  // The next sale starts with one key.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('combobox', { name: 'Претрага или бар-код' })).toBeFocused();
  await expect(page.getByTestId('cart-total')).toHaveText('0,00');
});

test('park a sale, serve another customer, resume it (also after a reload)', async ({ kasa }) => {
  const { page } = kasa;
  await ready(kasa);
  const cart = page.getByRole('table', { name: 'Корпа' });
  await scan(page, BREAD.barcode);
  await scan(page, MILK.barcode);
  await expect(cart.getByRole('row', { name: /^Ставка \d/ })).toHaveCount(2);

  await page.keyboard.press('F9');
  const park = page.getByRole('dialog', { name: 'Паркирај продају' });
  await park.getByLabel('Назив (нпр. име купца)').fill('Петар');
  await page.keyboard.press('Enter');
  await expect(park).toHaveCount(0);
  await expect(page.getByText('Корпа је празна. Скенирајте производ.')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Претрага или бар-код' })).toBeFocused();
  await scan(page, OIL.barcode);
  await expect(cart.getByRole('row', { name: /^Ставка \d/ })).toHaveCount(1);

  await page.keyboard.press('F7');
  const parked = page.getByRole('dialog', { name: 'Паркиране продаје' });
  await parked.getByRole('button', { name: /^Настави: Петар — 2 ставки/ }).click();
  await expect(parked).toHaveCount(0);
  await expect(cart.getByRole('row', { name: /^Ставка \d/ })).toHaveCount(3);
  await expect(page.getByTestId('cart-total')).toHaveText(rsd(BREAD.pricePara + MILK.pricePara + OIL.pricePara));

  await page.keyboard.press('F7');
  await expect(parked.getByText('Нема паркираних продаја.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(parked).toHaveCount(0);
});

test('weighed goods by in-store barcode and by search, and a manual item with a label from the tax rates', async ({
  kasa,
}) => {
  const { page } = kasa;
  await ready(kasa);
  const cart = page.getByRole('table', { name: 'Корпа' });
  const cheese = sampleItems().find((i) => i.code === '1011');
  if (!cheese) throw new Error('no cheese in the sample');

  // 20 | 01011 | 00614 | check: 0,614 kg of item 1011.
  await scan(page, withCheckDigit('200101100614'));
  await expect(cart.getByRole('row', { name: `Ставка 1: ${cheese.name}` })).toContainText('0,614 kg');
  await expect(page.getByTestId('cart-total')).toHaveText(rsd(lineTotal(cheese.pricePara, 614)));

  // Search as you type (Latin for a Cyrillic name), Enter takes the first hit and asks for the weight.
  await page.keyboard.type('sir bel');
  await expect(page.getByRole('listbox', { name: 'Резултати претраге' }).getByRole('option').first()).toContainText(
    cheese.name,
  );
  await page.keyboard.press('Enter');
  const weight = page.getByRole('dialog', { name: `Количина: ${cheese.name}` });
  await weight.getByLabel(/Количина/).fill('0,5');
  await page.keyboard.press('Enter');
  await expect(cart.getByRole('row', { name: `Ставка 2: ${cheese.name}` })).toContainText('0,500 kg');

  await page.keyboard.press('F3');
  const manual = page.getByRole('dialog', { name: 'Ручни унос ставке' });
  await manual.getByLabel('Назив').fill('Поклон кеса');
  await manual.getByLabel('Јединична цена (RSD)').fill('49,90');
  await manual.getByLabel('Количина').fill('2');
  await manual.getByLabel('Пореска ознака').selectOption('F');
  await page.keyboard.press('Enter');
  await expect(cart.getByRole('row', { name: 'Ставка 3: Поклон кеса' })).toContainText('99,80');

  await page.keyboard.press('F12');
  await page.keyboard.press('F6');
  await page.keyboard.press('F12');
  await expect(page.getByTestId('receipt-state')).toHaveText('ФИСКАЛИЗОВАН');
  const order = await lastOrder(kasa);
  expect(order.lines.map((l) => [l.quantityMilli, l.labels])).toEqual([
    [614, ['E']],
    [500, ['E']],
    [2000, ['F']],
  ]);
  expect(order.payments).toEqual([{ type: 'card', amountPara: order.totalPara }]);
});

test.describe('training mode', () => {
  test.use({ kasaEnv: { KASA_TRAINING_MODE: '1' } });

  test('a training sale shows the banner and the training journal', async ({ kasa }, testInfo) => {
    const { page } = kasa;
    await ready(kasa);
    await expect(page.getByRole('note').filter({ hasText: 'РЕЖИМ ОБУКЕ' })).toBeVisible();
    await scan(page, BREAD.barcode);
    await expect(page.getByTestId('cart-total')).toHaveText(rsd(BREAD.pricePara));
    await page.keyboard.press('F12');
    await expect(page.getByLabel('Врста рачуна')).toHaveValue('training');
    await page.keyboard.press('F12');
    await expect(page.getByTestId('receipt-state')).toHaveText('ИЗДАТ: Обука — НИЈЕ ФИСКАЛНИ РАЧУН');
    const journal = page.getByTestId('journal');
    await expect(journal).toContainText('ТРЕНИНГ');
    await expect(journal).toContainText('ОВО НИЈЕ ФИСКАЛНИ РАЧУН');
    const order = await lastOrder(kasa);
    expect(order.invoiceType).toBe('training');
    await page.screenshot({ path: testInfo.outputPath('training-receipt.png'), fullPage: true });
  });
});

test('a sale taken offline shows NOT YET FISCALIZED, then fiscalizes itself when the gateway returns', async ({
  kasa,
}, testInfo) => {
  const { page } = kasa;
  await ready(kasa);
  await kasa.sandbox('offline', { offline: true });
  await scan(page, BREAD.barcode);
  await scan(page, OIL.barcode);
  await expect(page.getByTestId('cart-total')).toHaveText(rsd(BREAD.pricePara + OIL.pricePara));
  await page.keyboard.press('F12');
  await expect(page.getByRole('main', { name: 'Плаћање' })).toBeVisible();
  await page.keyboard.press('F5');
  await page.keyboard.press('F12');

  await expect(page.getByTestId('receipt-state')).toHaveText('НИЈЕ ЈОШ ФИСКАЛИЗОВАН');
  const status = page.getByRole('status', { name: 'Статус' });
  await expect(status.getByTestId('queued')).toHaveText('У реду: 1');
  await expect(status.getByTestId('oldest')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('receipt-offline.png'), fullPage: true });

  await kasa.sandbox('offline', { offline: false });
  // Only nudges the engine past its backoff; the page learns of the receipt from the order.updated event.
  await kasa.host.call('sync.now');
  await expect(page.getByTestId('receipt-state')).toHaveText('ФИСКАЛИЗОВАН', { timeout: 60_000 });
  const order = await lastOrder(kasa);
  if (!order.receipt) throw new Error('no receipt');
  expect(await decodeReceiptQr(page, 'QR код рачуна')).toBe(order.receipt.verificationUrl);
  await expect(status.getByTestId('queued')).toHaveText('У реду: 0');
});
