/**
 * Issue 38, a week at the counter (refunds, advances, times, printer, words), through the browser host with the
 * host process and the browser both in New York's time zone, as a till whose clock was set to the wrong zone:
 * the manager's Смене tab shows Belgrade's times and day; the refund picker says when, who, what and how much and
 * pays back by the original's tender; the open advances say what they are for; a printer address typed without
 * `tcp://` is saved; the status bar says what it counts; a manager logged in is not asked for her PIN.
 * `KASA_SHOTS=<dir>` keeps screenshots of each at 1024×768 and 1366×768.
 */
import { expect, test } from './fixtures.ts';
import { login } from './counter-support.ts';
import { expectStatusBarFits } from './counter-support.ts';
import { shotsAtTillSizes, TILL_SIZES } from './languages.ts';
import { formatMoment } from '../../shared/i18n/time.ts';
import { fieldDay, shopDay, todayInField } from './days.ts';

test.use({
  timezoneId: 'America/New_York',
  kasaEnv: { TZ: 'America/New_York', KASA_PRINTER_ALLOW_LOOPBACK: '1' },
});
async function openTab(page: import('@playwright/test').Page, tab: string) {
  await page.getByRole('button', { name: 'Менаџер (F11)' }).click();
  const mgr = page.getByRole('dialog', { name: 'Менаџер' });
  await mgr.getByRole('tab', { name: tab }).click();
  return mgr;
}

test("the manager's shifts in Belgrade's time, not the machine's; no PIN asked of her", async ({ kasa }) => {
  const { page } = kasa;
  // The browser really is in New York.
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/New_York');
  const opened = await kasa.host.call<{ openedAt: string }>('shifts.open', { openingFloat: 100 });
  const openedAt = opened.body.value?.openedAt ?? '';
  expect(openedAt).not.toBe('');
  const before = shopDay(new Date());
  await login(page);
  const mgr = await openTab(page, 'Смене');
  // The tab opens on the shop's day, not New York's; the list is then asked for the shift's own day.
  const dayField = mgr.getByLabel('Дан (дд.мм.гггг.)');
  await expect(dayField).toHaveValue(todayInField(before));
  await dayField.fill(fieldDay(shopDay(openedAt)));
  // The PIN field says it is not needed; nothing typed in it.
  await expect(mgr.getByLabel('PIN менаџера (није потребан)')).toHaveValue('');
  await mgr.getByRole('button', { name: 'Прикажи' }).click();
  const row = mgr.getByRole('table', { name: 'Смене дана' }).getByRole('row', { name: /Менаџер/ });
  await expect(row.getByRole('cell').first()).toHaveText(formatMoment(openedAt, 'sr-Cyrl', { timeOnly: true }));
  await shotsAtTillSizes(page, 'friction-shifts-belgrade-time');
});

test('refund picker, tender by default; open advances with their description; printer without tcp://', async ({
  kasa,
}) => {
  const { page } = kasa;
  const sold = await kasa.host.call<{ orderId: number }>('sales.checkout', {
    lines: [
      { name: 'Хлеб', quantity: 3, unitPrice: 80, labels: ['A'] },
      { name: 'Млеко', quantity: 2, unitPrice: 150, labels: ['A'] },
    ],
    payments: [{ type: 'card', amount: 540 }],
  });
  const saleId = sold.body.value?.orderId ?? 0;
  const order = await kasa.host.call<{ createdAt: string }>('orders.get', { orderId: saleId });
  const advance = await kasa.host.call<{ orderId: number }>('sales.checkout', {
    invoiceType: 'advance',
    lines: [{ name: 'Кухиња по мери', quantity: 1, unitPrice: 10000, labels: ['A'] }],
    payments: [{ type: 'cash', amount: 10000 }],
  });
  expect(advance.body.ok).toBe(true);
  await login(page);

  // Refunds: when, who, what, how much; the card sale is paid back to the card.
  const mgr = await openTab(page, 'Поврат');
  const picker = mgr.getByLabel('Последње продаје');
  const when = formatMoment(order.body.value?.createdAt ?? '', 'sr-Cyrl');
  await expect(picker.locator(`option[value="${saleId}"]`)).toHaveText(`${when} · Менаџер · Хлеб, Млеко · 540,00`);
  await picker.selectOption(String(saleId));
  await expect(mgr.getByLabel('Начин повраћаја')).toHaveValue('card');
  await mgr.getByLabel('Количина за поврат: Хлеб').fill('пет');
  await mgr.getByRole('button', { name: 'Изврши поврат' }).click();
  await expect(mgr.locator('#refund-line-0-error')).toContainText('мора бити број');
  await shotsAtTillSizes(page, 'friction-refund');

  // Advances: the open list says what it is for.
  await mgr.getByRole('tab', { name: 'Аванси' }).click();
  await expect(mgr.getByRole('listitem').filter({ hasText: 'Кухиња по мери ·' }).first()).toContainText('10.000,00');
  await mgr
    .getByRole('button', { name: /^Изабери / })
    .first()
    .click();
  await expect(mgr.getByLabel('Цена 1')).toHaveValue('10.000,00');
  await expect(mgr.getByRole('combobox', { name: 'Ознака 1' })).toContainText('A — ');
  await shotsAtTillSizes(page, 'friction-advances');

  // Printer: the address as the self-test page prints it.
  await mgr.getByRole('tab', { name: 'Подешавања' }).click();
  const printer = mgr.getByRole('region', { name: 'Штампач' });
  await printer.getByLabel('Адреса штампача').fill('192.168.1.50:9100');
  await printer.getByRole('button', { name: 'Сачувај штампач' }).click();
  await expect(printer.getByTestId('printer-uri')).toHaveText('tcp://192.168.1.50:9100');
  await shotsAtTillSizes(page, 'friction-printer', printer);

  // The status bar says what it counts, on one line at both sizes.
  await mgr.getByRole('button', { name: 'Затвори' }).click();
  await expect(page.getByTestId('queued')).toHaveText(/^Чека: \d+ рачун/);
  for (const size of TILL_SIZES) {
    await page.setViewportSize(size);
    await expectStatusBarFits(page, size);
  }
  await shotsAtTillSizes(page, 'friction-status-bar');
});
