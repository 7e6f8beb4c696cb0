/**
 * The counter through the browser host: scanning, quantity, split payment with change, the receipt and
 * its QR; parked sales; training mode; a sale taken offline that fiscalizes itself when the gateway returns.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OrderView } from '../../shared/domain.ts';
import type { Locator } from '@playwright/test';
import { expect, test, type KasaFixture } from './fixtures.ts';
import { withCheckDigit } from '../../electron/catalog/barcode.ts';
import { lineTotal } from '../../shared/money.ts';
import {
  addCashier,
  expectStatusBarFits,
  lastOrder,
  lastReceiptShown,
  login,
  payWithKeys,
  pieceItem,
  readyToSell as ready,
  rsd,
  sampleItems,
  scan,
} from './counter-support.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { keepShot } from '../support/shots.ts';

const BREAD = pieceItem('1001');
const MILK = pieceItem('1006');
const OIL = pieceItem('1034');

/** Ready to sell, bread and milk scanned: the cart, its two lines shown. */
async function breadAndMilkInCart(kasa: KasaFixture): Promise<Locator> {
  const page = await ready(kasa);
  const cart = page.getByRole('table', { name: 'Корпа' });
  await scan(page, BREAD.barcode);
  await scan(page, MILK.barcode);
  await expect(cart.getByRole('row', { name: /^Ставка \d/ })).toHaveCount(2);
  return cart;
}

test('scan three items, change a quantity, split cash + card, receipt with a QR of the verification URL', async ({
  kasa,
}) => {
  const page = await ready(kasa);
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
  await keepShot(page, 'counter-sale');

  await page.keyboard.press('F12');
  await expect(page.getByRole('main', { name: 'Плаћање' })).toBeVisible();
  await page.getByLabel('Платна картица', { exact: true }).fill('500');
  await expect(page.getByLabel('Готовина', { exact: true })).toHaveValue(rsd(total - 50000));
  const cash = Math.ceil((total - 50000) / 10000) * 10000;
  await page.getByLabel('Готовина', { exact: true }).fill(String(cash / 100));
  await expect(page.getByTestId('change')).toHaveText(rsd(500 * 100 + cash - total));
  await page.keyboard.press('F12');

  await expect(page.getByTestId('receipt-state')).toHaveText('ФИСКАЛИЗОВАН');
  await expect(page.getByTestId('receipt-total')).toHaveText(rsd(total));
  await expect(page.getByTestId('receipt-change')).toHaveText(rsd(500 * 100 + cash - total));
  const { order, receipt } = await lastReceiptShown(kasa);
  expect(order.state).toBe('fiscalized');
  expect(order.payments).toEqual([
    { type: 'cash', amountPara: total - 50000 },
    { type: 'card', amountPara: 50000 },
  ]);
  await expect(page.getByTestId('journal')).toHaveText(receipt.journal);
  await keepShot(page, 'counter-receipt', { fullPage: true });

  // The next sale starts with one key.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('combobox', { name: 'Претрага или бар-код' })).toBeFocused();
  await expect(page.getByTestId('cart-total')).toHaveText('0,00');
});

test('park a sale, serve another customer, resume it (also after a reload); two carts are never merged', async ({
  kasa,
}) => {
  const { page } = kasa;
  const cart = await breadAndMilkInCart(kasa);
  const rows = cart.getByRole('row', { name: /^Ставка \d/ });

  await page.keyboard.press('F9');
  const park = page.getByRole('dialog', { name: 'Паркирај продају' });
  await park.getByLabel('Назив (нпр. име купца)').fill('Петар');
  await page.keyboard.press('Enter');
  await expect(park).toHaveCount(0);
  await expect(page.getByText('Корпа је празна. Скенирајте производ.')).toBeVisible();

  await page.reload();
  // A reload ends the cashier's session.
  await login(page);
  await scan(page, OIL.barcode);
  await expect(rows).toHaveCount(1);

  // Another customer's cart is open: Resume asks first (it used to merge both carts into one sale).
  await page.keyboard.press('F7');
  const parked = page.getByRole('dialog', { name: 'Паркиране продаје' });
  const resumePetar = parked.getByRole('button', { name: /^Настави: Петар — 2 ставке/ });
  await resumePetar.click();
  const ask = page.getByRole('dialog', { name: 'Корпа није празна' });
  await expect(ask).toContainText(`друга продаја (1 ставка, ${rsd(OIL.pricePara)} RSD)`);
  await expect(ask).toContainText('„Петар“');
  // Cancel: nothing changes, the open cart stays alone, Петар stays parked.
  await ask.getByRole('button', { name: 'Откажи' }).click();
  await expect(ask).toHaveCount(0);
  await expect(resumePetar).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(parked).toHaveCount(0);
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId('cart-total')).toHaveText(rsd(OIL.pricePara));

  // Esc on the question cancels too (and closes the list, as Esc does).
  await page.keyboard.press('F7');
  await resumePetar.click();
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(rows).toHaveCount(1);

  // Park the current cart and resume: exactly Петар's two lines, and the oil cart waits among the parked.
  await page.keyboard.press('F7');
  await resumePetar.click();
  await expect(ask.getByRole('button', { name: 'Паркирај тренутну и настави' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(ask).toHaveCount(0);
  await expect(parked).toHaveCount(0);
  await expect(rows).toHaveCount(2);
  await expect(cart.getByRole('row', { name: `Ставка 1: ${BREAD.name}` })).toBeVisible();
  await expect(cart.getByRole('row', { name: `Ставка 2: ${MILK.name}` })).toBeVisible();
  await expect(page.getByTestId('cart-total')).toHaveText(rsd(BREAD.pricePara + MILK.pricePara));

  // The oil cart comes back the same way: Петар's cart is parked in its turn, never merged.
  await page.keyboard.press('F7');
  await parked.getByRole('button', { name: /^Настави: Без назива — 1 ставка/ }).click();
  await ask.getByRole('button', { name: 'Паркирај тренутну и настави' }).click();
  await expect(rows).toHaveCount(1);
  await expect(cart.getByRole('row', { name: `Ставка 1: ${OIL.name}` })).toBeVisible();

  await page.keyboard.press('F7');
  await expect(parked.getByRole('button', { name: /^Настави: / })).toHaveCount(1);
  await expect(parked.getByRole('button', { name: /^Настави: Без назива — 2 ставке/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(parked).toHaveCount(0);
});

test('a reload with a cart open brings the cart back; a sold cart never comes back', async ({ kasa }) => {
  const { page } = kasa;
  const cart = await breadAndMilkInCart(kasa);

  // The open cart lives in the core: a reload (or a crash) and a new login bring it back.
  await page.reload();
  await login(page);
  await expect(page.getByRole('status').filter({ hasText: 'Враћена је отворена продаја (2 ставке).' })).toBeVisible();
  await expect(cart.getByRole('row', { name: /^Ставка \d/ })).toHaveCount(2);
  await expect(page.getByTestId('cart-total')).toHaveText(rsd(BREAD.pricePara + MILK.pricePara));

  await payWithKeys(page);
  await expect(page.getByTestId('receipt-state')).toBeVisible();
  await page.reload();
  await login(page);
  await expect(page.getByText('Корпа је празна. Скенирајте производ.')).toBeVisible();
});

test('weighed goods by in-store barcode and by search, and a manual item with a label from the tax rates', async ({
  kasa,
}) => {
  const page = await ready(kasa);
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

  await payWithKeys(page, () => page.keyboard.press('F6'));
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
  test('switching it needs a manager PIN; a training sale shows the banner and the training journal', async ({
    kasa,
  }) => {
    await addCashier(kasa);
    const page = await ready(kasa, { pin: '1111' });
    const banner = page.getByRole('note').filter({ hasText: 'РЕЖИМ ОБУКЕ' });
    const toggle = page.getByRole('button', { name: 'Обука' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    const prompt = page.getByRole('dialog', { name: 'Одобрење менаџера' });
    await expect(prompt).toContainText('Укључивање режима обуке.');
    // The cashier's own PIN, then a wrong one: refused with the core's reason, nothing changes.
    for (const [pin, reason] of [
      ['1111', 'Потребно је одобрење менаџера'],
      ['9876', 'Погрешан PIN'],
    ] as const) {
      await prompt.getByLabel('PIN менаџера').fill(pin);
      await page.keyboard.press('Enter');
      await expect(prompt.getByRole('alert')).toContainText(`Није одобрено: ${reason}`);
      await expect(prompt.getByLabel('PIN менаџера')).toHaveValue('');
    }
    await expect(banner).toHaveCount(0);
    expect((await kasa.host.call<{ trainingMode: boolean }>('app.info')).body.value?.trainingMode).toBe(false);

    await prompt.getByLabel('PIN менаџера').fill(MANAGER_PIN);
    await page.keyboard.press('Enter');
    await expect(prompt).toHaveCount(0);
    // The core switched it; the banner follows the core.
    await expect(banner).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect((await kasa.host.call<{ trainingMode: boolean }>('app.info')).body.value?.trainingMode).toBe(true);
    await page.reload();
    await login(page, '1111');
    await expect(banner).toBeVisible();

    await scan(page, BREAD.barcode);
    await expect(page.getByTestId('cart-total')).toHaveText(rsd(BREAD.pricePara));
    await payWithKeys(page, () => expect(page.getByLabel('Врста рачуна')).toHaveValue('training'));
    await expect(page.getByTestId('receipt-state')).toHaveText('ИЗДАТ: Обука — НИЈЕ ФИСКАЛНИ РАЧУН');
    const journal = page.getByTestId('journal');
    await expect(journal).toContainText('ТРЕНИНГ');
    await expect(journal).toContainText('ОВО НИЈЕ ФИСКАЛНИ РАЧУН');
    const order = await lastOrder(kasa);
    expect(order.invoiceType).toBe('training');
    expect(order.cashier).toBe('Ана Анић');
    await keepShot(page, 'counter-training-receipt', { fullPage: true });
  });
});

test('a sale taken offline shows NOT YET FISCALIZED, then fiscalizes itself when the gateway returns', async ({
  kasa,
}) => {
  const page = await ready(kasa);
  await kasa.sandbox('offline', { offline: true });
  await scan(page, BREAD.barcode);
  await scan(page, OIL.barcode);
  await expect(page.getByTestId('cart-total')).toHaveText(rsd(BREAD.pricePara + OIL.pricePara));
  await payWithKeys(page, () => page.keyboard.press('F5'));

  await expect(page.getByTestId('receipt-state')).toHaveText('НИЈЕ ЈОШ ФИСКАЛИЗОВАН');
  const status = page.getByRole('status', { name: 'Статус' });
  await expect(status.getByTestId('queued')).toHaveText('Чека: 1 рачун');
  await expect(status.getByTestId('oldest')).toBeVisible();
  // Without an L-PFR no receipt is fiscal while the gateway is away, and the counter says so plainly.
  await expect(page.getByRole('note').filter({ hasText: 'БЕЗ ИНТЕРНЕТА' })).toHaveText(
    'БЕЗ ИНТЕРНЕТА — рачуни нису фискални: купац добија слип „ОВО НИЈЕ ФИСКАЛНИ РАЧУН“',
  );
  const banner = await page.getByTestId('offline-banner').boundingBox();
  await page.setViewportSize({ width: 1024, height: 768 });
  // One line at the narrowest till: the sale screen below keeps its room.
  expect((await page.getByTestId('offline-banner').boundingBox())?.height).toBe(banner?.height);
  // The status bar's busiest state (offline, a queue, its age, no printer) still fits one line at 1024 px.
  await expectStatusBarFits(page, { width: 1024, height: 768 });
  await keepShot(page, 'counter-receipt-offline', { fullPage: true });

  await kasa.sandbox('offline', { offline: false });
  // Only nudges the engine past its backoff; the page learns of the receipt from the order.updated event.
  await kasa.host.call('sync.now');
  await expect(page.getByTestId('receipt-state')).toHaveText('ФИСКАЛИЗОВАН', { timeout: 60_000 });
  await lastReceiptShown(kasa);
  await expect(status.getByTestId('queued')).toHaveText('Чека: 0 рачуна');
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
});

test('nothing is sold before a cashier logs in; the name goes into the receipt request; F1 changes the cashier', async ({
  kasa,
}) => {
  const { page } = kasa;
  await addCashier(kasa);
  expect((await kasa.host.call('catalog.loadSample', { approval: { managerPin: MANAGER_PIN } })).body.ok).toBe(true);
  await page.reload();
  const loginScreen = page.getByRole('main', { name: 'Пријава касира' });
  await expect(loginScreen).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Претрага или бар-код' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Менаџер (F11)' })).toHaveCount(0);
  // A scan at the login screen sells nothing.
  await scan(page, BREAD.barcode);
  await expect(page.getByRole('table', { name: 'Корпа' })).toHaveCount(0);
  // The scan's digits landed in the PIN field and were refused; wait for that answer before typing again.
  await expect(loginScreen.getByRole('alert')).toBeVisible();
  await expect(loginScreen.getByRole('button', { name: /^Пријава/ })).toBeEnabled();

  await loginScreen.getByLabel('PIN', { exact: true }).fill('4321');
  await expect(loginScreen.getByRole('alert')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(loginScreen.getByRole('alert')).toContainText('Пријава није успела');
  await login(page, '1111');
  const status = page.getByRole('status', { name: 'Статус' });
  await expect(status.getByTestId('cashier')).toHaveText('Касир: Ана Анић');

  await scan(page, BREAD.barcode);
  await expect(page.getByTestId('cart-total')).toHaveText(rsd(BREAD.pricePara));
  await payWithKeys(page);
  await expect(page.getByTestId('receipt-state')).toHaveText('ФИСКАЛИЗОВАН');
  const sold = await lastOrder(kasa);
  const order = await kasa.host.call<OrderView>('orders.get', { orderId: sold.orderId });
  expect(order.body.value?.cashier).toBe('Ана Анић');

  await page.keyboard.press('F1');
  await expect(loginScreen).toBeVisible();
  await login(page);
  await expect(status.getByTestId('cashier')).toHaveText('Касир: Менаџер');
  const audit = await kasa.host.call<{ entries: { actor: string | null; action: string }[] }>('audit.list', {
    managerPin: MANAGER_PIN,
  });
  // Newest first; the oldest is the fixture's own login over the API (past the first-run PIN).
  expect(audit.body.value?.entries.filter((e) => e.action === 'staff.login').map((e) => e.actor)).toEqual([
    'Менаџер',
    'Ана Анић',
    'Менаџер',
  ]);
});

test('a discount beyond the limit is approved when it is entered, with the reason; the checkout asks nothing more', async ({
  kasa,
}) => {
  const page = await ready(kasa);
  await scan(page, BREAD.barcode);
  await scan(page, MILK.barcode);
  const gross = BREAD.pricePara + MILK.pricePara;

  // 15 % on the whole sale: beyond the till's 10 %, so the manager is asked now, and told why.
  await page.keyboard.press('F6');
  const discount = page.getByRole('dialog', { name: `Попуст на ставку: ${MILK.name}` });
  await discount.getByRole('radio', { name: 'цео рачун' }).check();
  await page.getByRole('dialog', { name: 'Попуст на цео рачун' }).getByLabel('Попуст (RSD)').fill('15%');
  await page.keyboard.press('Enter');
  const prompt = page.getByRole('dialog', { name: 'Одобрење менаџера' });
  await expect(prompt).toContainText('попуст на целу продају је већи од дозвољених 10 %');
  // Cancelled: the cart keeps its total.
  await page.keyboard.press('Escape');
  await expect(prompt).toHaveCount(0);
  await expect(page.getByTestId('cart-total')).toHaveText(rsd(gross));

  await page.keyboard.press('F6');
  await discount.getByRole('radio', { name: 'цео рачун' }).check();
  await page.getByRole('dialog', { name: 'Попуст на цео рачун' }).getByLabel('Попуст (RSD)').fill('15%');
  await page.keyboard.press('Enter');
  await prompt.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await page.keyboard.press('Enter');
  await expect(prompt).toHaveCount(0);
  const total = gross - Math.round((gross * 15) / 100);
  await expect(page.getByTestId('cart-total')).toHaveText(rsd(total));

  // No second prompt at checkout: the approval given at entry covers exactly these lines.
  await payWithKeys(page);
  await expect(page.getByTestId('receipt-state')).toHaveText('ФИСКАЛИЗОВАН');
  await expect(prompt).toHaveCount(0);
  const order = await lastOrder(kasa);
  expect(order.totalPara).toBe(total);
  const audit = await kasa.host.call<{ entries: { action: string; approver: string | null }[] }>('audit.list', {
    managerPin: MANAGER_PIN,
  });
  const approved = (audit.body.value?.entries ?? []).filter((e) => e.action.startsWith('approved.sales.'));
  expect(approved.map((e) => [e.action, e.approver]).sort()).toEqual([
    ['approved.sales.approveDiscount', 'Менаџер'],
    ['approved.sales.checkout', 'Менаџер'],
  ]);
});

test('a price change, and removing a line once payment has started, need a manager PIN', async ({ kasa }) => {
  const { page } = kasa;
  const cart = await breadAndMilkInCart(kasa);

  // F5: a new price for the selected line (milk), applied only once a manager approves it.
  await page.keyboard.press('F5');
  const priceDialog = page.getByRole('dialog', { name: `Цена ставке: ${MILK.name}` });
  await priceDialog.getByLabel('Јединична цена (RSD)').fill('100');
  await page.keyboard.press('Enter');
  const prompt = page.getByRole('dialog', { name: 'Одобрење менаџера' });
  await expect(prompt).toContainText(`Промена цене: ${MILK.name}, ${rsd(MILK.pricePara)} → 100,00 RSD.`);
  await prompt.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await page.keyboard.press('Enter');
  await expect(prompt).toHaveCount(0);
  await expect(page.getByTestId('cart-total')).toHaveText(rsd(BREAD.pricePara + 10000));

  // Before a tender a line goes without asking; once one was entered on the payment screen (F5: cash = the
  // total) it needs a manager.
  await page.keyboard.press('F12');
  await expect(page.getByRole('main', { name: 'Плаћање' })).toBeVisible();
  await page.keyboard.press('F5');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('combobox', { name: 'Претрага или бар-код' })).toBeFocused();
  await cart.getByRole('button', { name: `Уклони ставку: ${BREAD.name}` }).click();
  await expect(prompt).toContainText(`Уклањање ставке после почетка плаћања: ${BREAD.name}.`);
  await page.keyboard.press('Escape');
  await expect(prompt).toHaveCount(0);
  await expect(cart.getByRole('row', { name: /^Ставка \d/ })).toHaveCount(2);
  await cart.getByRole('button', { name: `Уклони ставку: ${BREAD.name}` }).click();
  await prompt.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await page.keyboard.press('Enter');
  await expect(prompt).toHaveCount(0);
  await expect(cart.getByRole('row', { name: /^Ставка \d/ })).toHaveCount(1);
  await expect(page.getByTestId('cart-total')).toHaveText('100,00');

  // The core checks the overridden price again when the sale is sent: the manager's PIN
  // travels with the checkout.
  await payWithKeys(page);
  await expect(prompt).toContainText('Потребно је одобрење менаџера');
  await prompt.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await page.keyboard.press('Enter');
  await expect(prompt).toHaveCount(0);
  await expect(page.getByTestId('receipt-state')).toHaveText('ФИСКАЛИЗОВАН');
  const order = await lastOrder(kasa);
  expect(order.lines.map((l) => [l.name, l.unitPricePara])).toEqual([[MILK.name, 10000]]);
  const audit = await kasa.host.call<{ entries: { actor: string | null; action: string }[] }>('audit.list', {
    managerPin: MANAGER_PIN,
  });
  const actions = audit.body.value?.entries.map((e) => e.action) ?? [];
  expect(actions).toContain('approve.price_override');
  expect(actions).toContain('approve.void_line');
  expect(actions).toContain('approved.sales.checkout');
});

test.describe('print again', () => {
  // A receipt printer that is a file: the original prints by itself once the receipt is fiscalized.
  const printerFile = path.join(os.tmpdir(), `kasa-e2e-printer-${process.pid}.bin`);
  test.use({ kasaEnv: { KASA_PRINTER: printerFile } });
  test.afterAll(() => fs.rmSync(printerFile, { force: true }));

  test('a printed fiscal receipt is printed again as a fiscal copy referencing it (queued while offline)', async ({
    kasa,
  }) => {
    const page = await ready(kasa);
    await scan(page, BREAD.barcode);
    await payWithKeys(page);
    await expect(page.getByTestId('receipt-state')).toHaveText('ФИСКАЛИЗОВАН');
    const sale = await lastOrder(kasa);
    await expect
      .poll(
        async () => (await kasa.host.call<{ queued: number; lastPrintedAt: string | null }>('print.status')).body.value,
      )
      .toMatchObject({ queued: 0, lastPrintedAt: expect.any(String) });

    await page.getByRole('button', { name: 'Штампај поново' }).click();
    // A fiscal copy needs a manager's approval in the core.
    const prompt = page.getByRole('dialog', { name: 'Одобрење менаџера' });
    await prompt.getByLabel('PIN менаџера').fill(MANAGER_PIN);
    await page.keyboard.press('Enter');
    await expect(prompt).toHaveCount(0);
    const copy = page.getByRole('region', { name: 'Фискална копија' });
    await expect(copy.getByRole('status')).toContainText('је издата и штампа се');
    const ledger = async () =>
      (
        (await (await fetch(`${kasa.sandboxUrl}/__sandbox/ledger`)).json()) as {
          receipts: { invoiceType: string; transactionType: string; referentDocumentNumber: string | null }[];
        }
      ).receipts;
    expect((await ledger()).filter((r) => r.invoiceType === 'copy')).toEqual([
      expect.objectContaining({ transactionType: 'sale', referentDocumentNumber: sale.receipt?.invoiceNumber }),
    ]);

    // Offline: the copy is queued and shown as not yet fiscalized.
    await kasa.sandbox('offline', { offline: true });
    await page.getByRole('button', { name: 'Штампај поново' }).click();
    await prompt.getByLabel('PIN менаџера').fill(MANAGER_PIN);
    await page.keyboard.press('Enter');
    await expect(prompt).toHaveCount(0);
    await expect(copy.getByRole('status')).toContainText('НИЈЕ ЈОШ ФИСКАЛИЗОВАНА');
    await kasa.sandbox('offline', { offline: false });
    await kasa.host.call('sync.now');
    await expect(copy.getByRole('status')).toContainText('је издата', { timeout: 60_000 });
    expect((await ledger()).filter((r) => r.invoiceType === 'copy')).toHaveLength(2);
  });
});
