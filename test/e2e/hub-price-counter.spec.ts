/**
 * Issue 38 §1 and §2 as the shop met them. A price changed at the store hub (65,00 → 70,00) while the counter shows the
 * quick key. A hub (child process, PGlite) owns the catalog of a till (the browser host) enrolled with it; the
 * cashier has the bread in the cart by its tile. Within the hub's pull (about a second) the tile and the cart line
 * show 70,00, and payment asks no manager's PIN („… није цена из каталога“). Serbian Cyrillic; the screens are
 * the ones counter-follows.spec.ts photographs in all three languages. And a cashier deactivated at the hub while
 * logged in at the till: the counter shows the login within the pull, and the next person finds the cart.
 */
import { expect, test } from '@playwright/test';
import type { OrderView } from '../../shared/domain.ts';
import { hashPin } from '../../shared/node/pin.ts';
import type { HostProcess } from '../support/host-process.ts';
import { MANAGER_PIN } from '../support/session.ts';
import type { HubProcess } from '../support/hub-process.ts';
import { login, payWithKeys, rsd } from './counter-support.ts';
import { hubAndTill } from './hub-support.ts';

const ADMIN = 'e2e-hub-price-admin-token-0123456789abcd';
const rig = hubAndTill('kasa-hub-price-e2e-', ADMIN);
let hub: HubProcess;
let till: HostProcess;

const BREAD = { code: '2001', name: 'Хлеб бели 500 г', group: 'Пекара', label: 'E', unit: 'piece', favourite: true };

/** A call to the hub's admin API that must answer 200. */
const admin = (method: string, route: string, body: unknown) => rig.admin(method, route, body, 200);

const putBread = (pricePara: number) =>
  admin('PUT', '/api/admin/products', { shopId: hub.shopId, products: [{ ...BREAD, pricePara }] });

async function tillPrice(): Promise<number | undefined> {
  const r = await till.call<{ unitPricePara: number }>('catalog.byBarcode', { code: BREAD.code });
  return r.body.value?.unitPricePara;
}

test.beforeAll(async () => {
  hub = await rig.start();
  await putBread(6500);
  till = await rig.enrol('PRICEE2E');
  await expect(async () => expect(await tillPrice()).toBe(6500)).toPass({ timeout: 20_000 });
});
test.afterEach(async ({ page }) => {
  await page.goto('about:blank');
});

test('a price changed at the hub reaches the quick key and the cart at once; payment asks no PIN', async ({ page }) => {
  await page.goto(`${till.url}#token=${till.token}`);
  await login(page, MANAGER_PIN);
  const tile = page.getByRole('navigation', { name: 'Брзи тастери' }).getByRole('button', { name: BREAD.name });
  await expect(tile).toContainText(rsd(6500));
  await tile.click();
  const line = page.getByRole('region', { name: 'Корпа' }).getByRole('row', { name: `Ставка 1: ${BREAD.name}` });
  await expect(line).toContainText(rsd(6500));

  await putBread(7000);
  // The hub is pulled every second: the tile and the line follow within the default wait, not after a minute.
  await expect(tile).toContainText(rsd(7000));
  await expect(line).toContainText(rsd(7000));
  await expect(line.getByTestId('price-was')).toHaveText(`било ${rsd(6500)}`);
  await tile.click();
  await expect(line.getByTestId('line-total')).toHaveText(rsd(14000));

  await payWithKeys(page);
  await expect(page.getByTestId('receipt-state')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Одобрење менаџера' })).toHaveCount(0);
  const r = await till.call<{ orders: OrderView[] }>('orders.list', { limit: 1 });
  expect(r.body.value?.orders[0]?.lines.map((l) => [l.quantityMilli, l.unitPricePara])).toEqual([[2000, 7000]]);
});

test('a cashier deactivated at the hub while logged in: the till returns to the login within the pull', async ({
  page,
}) => {
  await admin('PUT', '/api/admin/staff', {
    shopId: hub.shopId,
    staff: [{ name: 'Вера Вуковић', role: 'cashier', pinHash: await hashPin('1357') }],
  });
  await expect(async () => {
    const r = await till.call<{ staff: { name: string }[] }>('staff.list', {});
    expect(r.body.value?.staff.map((p) => p.name)).toContain('Вера Вуковић');
  }).toPass({ timeout: 15_000 });
  await page.goto(`${till.url}#token=${till.token}`);
  await login(page, '1357');
  await page.getByRole('navigation', { name: 'Брзи тастери' }).getByRole('button', { name: BREAD.name }).click();

  await admin('POST', '/api/admin/staff/active', { shopId: hub.shopId, name: 'Вера Вуковић', active: false });
  const screen = page.getByRole('main', { name: 'Пријава касира' });
  await expect(screen).toBeVisible();
  await expect(screen.getByRole('status')).toContainText('Особа Вера Вуковић је искључена и одјављена.');
  await login(page, MANAGER_PIN);
  await expect(
    page.getByRole('region', { name: 'Корпа' }).getByRole('row', { name: `Ставка 1: ${BREAD.name}` }),
  ).toBeVisible();
});
