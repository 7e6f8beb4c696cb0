/**
 * Nothing clipped at the two screens shops have, 1024×768 and 1366×768: the quick keys end inside the
 * viewport (they scroll, with a cue when more are hidden), and the receipt's QR is in view without
 * scrolling, also for a long receipt (only the journal scrolls).
 */
import { expect, test } from './fixtures.ts';
import {
  expectOneLine,
  expectQuickKeysFit,
  expectStatusBarFits,
  login,
  LONGEST_NAMES,
  nameShopLongest,
  payWithKeys,
  readyToSell,
  sampleItems,
  scan,
} from './counter-support.ts';
import { keepShot } from '../support/shots.ts';
import { TILL_SIZES } from './languages.ts';

test('quick keys and the receipt QR fit the viewport at 1024×768 and 1366×768', async ({ kasa }) => {
  const page = await readyToSell(kasa);
  for (const size of TILL_SIZES) {
    await page.setViewportSize(size);
    // The sample has more quick keys than fit: the list scrolls and says so.
    await expectQuickKeysFit(page, size);
    await expectStatusBarFits(page, size);
  }

  // A long receipt: twelve lines (all in the cart before paying: a scan is answered asynchronously).
  const items = sampleItems()
    .filter((i) => i.unit === 'kom' && i.barcode !== '')
    .slice(0, 12);
  for (const item of items) await scan(page, item.barcode);
  await expect(page.getByRole('table', { name: 'Корпа' }).getByRole('row', { name: /^Ставка \d/ })).toHaveCount(
    items.length,
  );
  await payWithKeys(page);
  await expect(page.getByTestId('receipt-state')).toBeVisible();
  const qr = page.getByRole('img', { name: /QR/ });
  for (const size of TILL_SIZES) {
    await page.setViewportSize(size);
    const box = await qr.boundingBox();
    expect(box, `QR at ${size.width}`).not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height, `QR bottom at ${size.width}`).toBeLessThanOrEqual(size.height);
    expect(box!.x + box!.width).toBeLessThanOrEqual(size.width);
  }
});

test('the header names the shop and the till; it and the status bar stay one line at both sizes', async ({ kasa }) => {
  const { page } = kasa;
  const header = page.getByRole('banner');
  const status = page.getByRole('status', { name: 'Статус' });
  // No names yet: the terminal id alone, as before.
  const info = await kasa.host.call<{ terminalId: string }>('app.info', {});
  const id = info.body.value?.terminalId ?? '';
  expect(id).not.toBe('');
  await login(page);
  await expect(header.getByTitle(`Терминал ${id}`)).toHaveText(id);
  // Long names (the setup flow allows 60 characters): the header cuts them, never a button.
  await nameShopLongest(kasa);
  await page.reload();
  await login(page);
  const { shopName, tillName } = LONGEST_NAMES;
  const place = header.getByTitle(`${shopName} · ${tillName} · Терминал ${id}`);
  await expect(place).toContainText(tillName);
  await expect(place).toContainText(id);
  for (const size of TILL_SIZES) {
    await page.setViewportSize(size);
    await expectOneLine(header, size.width, 'header');
    await expectOneLine(status, size.width, 'status bar');
    await expect(header.getByRole('button', { name: 'Менаџер (F11)' })).toBeInViewport({ ratio: 1 });
    await keepShot(page, `layout-counter-header-${size.width}`);
  }
});

test('a till with no products says where they come from, and opens the catalog', async ({ kasa }) => {
  const { page } = kasa;
  await login(page);
  const cart = page.getByRole('region', { name: 'Корпа' });
  await expect(cart).toContainText('Нема брзих тастера. Производе унесите у Каталогу');
  await cart.getByRole('button', { name: 'Отвори каталог F8' }).click();
  await expect(page.getByRole('main', { name: /Каталог/ })).toBeVisible();
});
