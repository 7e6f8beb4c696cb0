/**
 * A new till set up by its owner alone, from an empty data dir: the first-run PIN, the new PIN typed twice
 * (a typo caught), then the setup flow (names, language, no printer for now, the sample catalog), ending on
 * the sale screen with the sample's quick keys. A reload does not bring the flow back; the names are kept
 * in the core. Each step fits 1024×768 and 1366×768 (KASA_SHOTS=<dir> also saves screenshots of them).
 */
import net from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { keepShot } from '../support/shots.ts';
import { sampleItems, setNewManagerPin } from './counter-support.ts';
import { countText } from '../../shared/i18n/plural.ts';

const NEW_PIN = '731946';
const SIZES = [
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
] as const;

/** The step's whole form, its Back/Next row included, is inside the viewport at both sizes. */
async function fitsBothSizes(page: Page, step: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    const flow = page.getByRole('main', { name: 'Подешавање нове касе' });
    const nav = flow.getByRole('button', { name: 'Назад' });
    const box = await nav.boundingBox();
    expect(box, `${step} at ${size.width}`).not.toBeNull();
    expect(box!.y + box!.height, `${step} at ${size.width}`).toBeLessThanOrEqual(size.height);
    const clipped = await flow.evaluate((el) => el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth);
    expect(clipped, `${step} at ${size.width} scrolls`).toBe(false);
    await keepShot(page, `setup-${step}-${size.width}`);
  }
}

test.use({ kasaFirstRun: true });

test('a new till: first-run PIN, the new PIN typed twice, the setup flow once, then the sale screen', async ({
  kasa,
}) => {
  const { page } = kasa;
  const login = page.getByRole('main', { name: 'Пријава касира' });
  await expect(login.getByRole('note')).toContainText('0000');
  // The new PIN twice: a typo is caught and nothing is changed.
  await setNewManagerPin(page, NEW_PIN, '731964');

  // 1. Names: the shop, the till, and the manager's own name instead of „Менаџер“.
  const flow = page.getByRole('main', { name: 'Подешавање нове касе' });
  await expect(flow.getByRole('heading', { name: 'Радња', level: 2 })).toBeFocused();
  await expect(flow.getByText('Корак 1 од 5')).toBeVisible();
  await expect(flow.getByRole('list', { name: 'Кораци подешавања' }).getByRole('listitem')).toHaveCount(5);
  await expect(flow.getByLabel('Име менаџера')).toHaveValue('Менаџер');
  await flow.getByLabel('Назив радње').fill('Продавница Код Мике');
  await flow.getByLabel('Назив касе').fill('Каса 1');
  await flow.getByLabel('Име менаџера').fill('Мика Микић');
  await fitsBothSizes(page, '1-names');
  await flow.getByRole('button', { name: 'Даље' }).click();

  // 2. Language: stays Cyrillic.
  await expect(flow.getByText('Корак 2 од 5')).toBeVisible();
  const languages = flow.getByRole('group', { name: 'Језик касе' });
  await expect(languages.getByRole('radio', { name: 'Српски (ћирилица)' })).toBeChecked();
  await fitsBothSizes(page, '2-language');
  await flow.getByRole('button', { name: 'Даље' }).click();

  // 3. Printer: a wrong address is caught at its field; then none for now.
  await expect(flow.getByRole('heading', { name: 'Штампач', level: 2 })).toBeFocused();
  await flow.getByLabel('Адреса штампача').fill('http://printer');
  await flow.getByRole('button', { name: 'Сачувај и одштампај пробну страну' }).click();
  await expect(flow.getByLabel('Адреса штампача')).toHaveAttribute('aria-invalid', 'true');
  await fitsBothSizes(page, '3-printer');
  await flow.getByRole('button', { name: 'Без штампача за сада' }).click();

  // 4. Catalog: the sample.
  await expect(flow.getByText('Корак 4 од 5')).toBeVisible();
  await flow.getByRole('button', { name: 'Учитај пример каталога' }).click();
  const count = sampleItems().length;
  await expect(flow.getByRole('status')).toHaveText(
    `Пример каталога је учитан: ${countText('sr-Cyrl', count, 'product')}.`,
  );
  await fitsBothSizes(page, '4-catalog');
  await flow.getByRole('button', { name: 'Даље' }).click();

  // 5. Done: demo mode and where the key goes later.
  await expect(flow.getByRole('note')).toContainText('Менаџер → Подешавања → Налог фискалног сервиса');
  await fitsBothSizes(page, '5-done');
  await flow.getByRole('button', { name: 'Почни продају' }).click();

  // The sale screen, with the sample's quick keys, no printer, and the manager's new name.
  await expect(page.getByRole('combobox', { name: 'Претрага или бар-код' })).toBeFocused();
  const keys = page.getByRole('navigation', { name: 'Брзи тастери' });
  await expect(keys.getByRole('button', { name: /Хлеб бели 500 г/ })).toBeVisible();
  await expect(page.getByText('Нема штампача')).toBeVisible();
  await expect(page.getByRole('status', { name: 'Статус' })).toContainText('Мика Микић');

  // A restart: the login, then straight to the sale screen; the flow is not shown again.
  await page.reload();
  await page.getByRole('main', { name: 'Пријава касира' }).getByLabel('PIN', { exact: true }).fill(NEW_PIN);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('combobox', { name: 'Претрага или бар-код' })).toBeFocused();
  await expect(page.getByRole('main', { name: 'Подешавање нове касе' })).toHaveCount(0);

  // The names are kept in the core.
  const settings = await kasa.host.call<{ shopName: string; tillName: string; setupDone: boolean }>('settings.get', {});
  expect(settings.body.value).toMatchObject({ shopName: 'Продавница Код Мике', tillName: 'Каса 1', setupDone: true });
  const info = await kasa.host.call<{ setupPending: boolean; language: string }>('app.info', {});
  expect(info.body.value).toMatchObject({ setupPending: false, language: 'sr-Cyrl' });
  const staff = await kasa.host.call<{ staff: { name: string; role: string }[] }>('staff.list', {});
  expect(staff.body.value?.staff.filter((p) => p.role === 'manager').map((p) => p.name)).toEqual(['Мика Микић']);
});

test.describe('a network printer', () => {
  // The test's printer listens on this machine: only an installer may allow a loopback printer.
  test.use({ kasaEnv: { KASA_PRINTER_ALLOW_LOOPBACK: '1' } });
  test('the printer step saves a network printer and prints its test page; a reload half-way brings the flow back', async ({
    kasa,
  }) => {
    const { page } = kasa;
    // A network printer on an ephemeral port (never 9100): the first connection's bytes, once it closed.
    let received: (bytes: Buffer) => void = () => undefined;
    const firstJob = new Promise<Buffer>((resolve) => (received = resolve));
    const server = net.createServer((socket) => {
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => received(Buffer.concat(chunks)));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      await setNewManagerPin(page, NEW_PIN);
      const flow = page.getByRole('main', { name: 'Подешавање нове касе' });
      await flow.getByLabel('Назив радње').fill('Код Мике');
      await flow.getByRole('button', { name: 'Даље' }).click();
      // A reload half-way: the manager logs in again and the flow is back, at its start.
      await expect(flow.getByText('Корак 2 од 5')).toBeVisible();
      await page.reload();
      await page.getByRole('main', { name: 'Пријава касира' }).getByLabel('PIN', { exact: true }).fill(NEW_PIN);
      await page.keyboard.press('Enter');
      await expect(flow.getByText('Корак 1 од 5')).toBeVisible();
      await expect(flow.getByLabel('Назив радње')).toHaveValue('Код Мике');
      await flow.getByRole('button', { name: 'Даље' }).click();
      await flow.getByRole('button', { name: 'Даље' }).click();
      await flow.getByLabel('Адреса штампача').fill(`tcp://127.0.0.1:${port}`);
      await expect(flow.getByRole('checkbox', { name: 'Назив радње у заглављу рачуна' })).toBeChecked();
      await flow.getByRole('button', { name: 'Сачувај и одштампај пробну страну' }).click();
      await expect(flow.getByRole('status')).toContainText('Пробна страна је послата штампачу');
      expect((await firstJob).length).toBeGreaterThan(0);
      const status = await kasa.host.call<{ uri: string | null }>('print.status', {});
      expect(status.body.value?.uri).toBe(`tcp://127.0.0.1:${port}`);
      await flow.getByRole('button', { name: 'Подеси касније' }).click();
      await expect(page.getByRole('combobox', { name: 'Претрага или бар-код' })).toBeFocused();
      await expect(page.getByText('Нема штампача')).toHaveCount(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
