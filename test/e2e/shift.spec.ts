/**
 * A shift on the counter through the browser host: open it with a 5.000,00 float, sell for cash, take
 * 1.000,00 out with a manager's PIN, close with the drawer counted by denomination 20,00 short: the
 * difference is shown and recorded with the counts. The manager's Смене tab lists the shift with its
 * figures, the short in red, and prints its report again (a fake Epson on a real socket: decoded, it is the
 * non-fiscal shift report). Then a sale outside a shift is refused with the reason.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  cashOut,
  loadSample,
  login,
  openShiftDialog,
  paperLines,
  payWithKeys,
  pieceItem,
  rsd,
  scan,
} from './counter-support.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { keepShot, shotsDir } from '../support/shots.ts';
import { shotsAtTillSizes } from './languages.ts';
import { DENOMINATIONS_PARA, type ShiftView } from '../../shared/contract/shifts.ts';
import { fieldDay, shopDay, todayInField } from './days.ts';
import { startFakeEpson, type FakeEpson } from '../printer/fake-epson.ts';

const BREAD = pieceItem('1001');

/** A step at both till sizes (the viewport is left at 1366×768), kept when KASA_SHOTS names a folder. */
const shots = (page: Page, name: string): Promise<void> => shotsAtTillSizes(page, `shifts-${name}`);

const printers: FakeEpson[] = [];
// The fake printer listens on loopback: a destination the installer allows explicitly.
test.use({ kasaEnv: { KASA_PRINTER_ALLOW_LOOPBACK: '1' } });
test.afterEach(async () => {
  for (const p of printers.splice(0)) await p.close();
});

test('open a shift, sell, cash out, close 20,00 short; no sale after it without a shift', async ({ kasa }) => {
  const { page } = kasa;
  await loadSample(kasa);
  const printer = await startFakeEpson();
  printers.push(printer);
  const configured = await kasa.host.call('printer.configure', {
    uri: `tcp://127.0.0.1:${printer.port}`,
    profileId: 'epson-tm-t88v',
    autoPrint: true,
    approval: { managerPin: MANAGER_PIN },
  });
  expect(configured.body.ok).toBe(true);
  await page.reload();
  await login(page);

  await page.getByRole('button', { name: 'Нема смене' }).click();
  const opening = page.getByRole('dialog', { name: 'Смена и каса' });
  // The float touched in on the on-screen keypad, as on a till without a keyboard.
  const keypad = opening.getByRole('group', { name: 'Бројчана тастатура' });
  for (const key of ['5', '0', '0', '0', 'Децимални зарез', '0', '0'])
    await keypad.getByRole('button', { name: key, exact: true }).click();
  await expect(opening.getByLabel('Почетни депозит (RSD)')).toHaveValue('5000,00');
  await shots(page, 'shift-open-keypad');
  await opening.getByRole('button', { name: 'Отвори смену' }).click();
  // Opened: back to the sale, the float in the notice.
  await expect(opening).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'почетни депозит 5.000,00 RSD' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Смена отворена' })).toBeVisible();

  await scan(page, BREAD.barcode);
  await payWithKeys(page);
  await expect(page.getByTestId('receipt-state')).toBeVisible();
  await page.keyboard.press('Enter');
  // The shop's day of this shift: the lists below are asked for it, not for "today" (a run across midnight).
  const current = await kasa.host.call<ShiftView | null>('shifts.current', {});
  expect(current.body.value?.openedAt, JSON.stringify(current.body)).toBeTruthy();
  const shiftDay = shopDay(current.body.value?.openedAt ?? '');

  const dialog = await openShiftDialog(page, 'Смена отворена');
  // Blind until the count: no expected drawer on the screen.
  await expect(dialog.getByTestId('shift-expected')).toHaveCount(0);
  await cashOut(dialog, '1.000,00', 'Уплата у банку');
  const expected = 400_000 + BREAD.pricePara;
  await page.setViewportSize({ width: 1024, height: 768 });
  await keepShot(page, 'shift-open-1024');
  // The open shift's keypad types into the field last touched, and says which.
  await dialog.getByRole('form', { name: 'Затвори смену' }).getByLabel('PIN менаџера').focus();
  await expect(dialog.getByTestId('pad-target')).toHaveText('Тастатура уписује у: PIN менаџера (Затвори смену)');
  await shots(page, 'shift-keypad');

  const closing = dialog.getByRole('form', { name: 'Затвори смену' });
  // The drawer counted note by note: the largest first, as a cashier sorts them.
  let left = expected - 2_000;
  const counts: Record<string, number> = {};
  for (const d of DENOMINATIONS_PARA) {
    if (left >= d) counts[String(d)] = Math.floor(left / d);
    left -= (counts[String(d)] ?? 0) * d;
  }
  expect(left).toBe(0);
  await closing.getByRole('button', { name: 'По апоенима' }).click();
  for (const [d, n] of Object.entries(counts)) {
    const text = rsd(Number(d)).replace(/,00$/, '');
    await closing.getByRole('textbox', { name: `Комада од ${text} дин.` }).fill(String(n));
  }
  await expect(closing.getByLabel('Избројано у каси (RSD)')).toHaveValue(rsd(expected - 2_000));
  await shots(page, 'shift-denominations');
  await closing.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await closing.getByRole('button', { name: 'Затвори смену' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Смена је затворена.' })).toContainText('Мањак: 20,00 RSD');
  await expect(dialog.getByTestId('shift-difference')).toHaveText('-20,00');
  await expect(dialog.getByTestId('shift-expected')).toHaveText(rsd(expected));
  await page.setViewportSize({ width: 1366, height: 768 });
  await keepShot(page, 'shift-closed-1366');
  await dialog.getByRole('button', { name: 'Назад Esc' }).click();
  await expect(page.getByRole('button', { name: 'Нема смене' })).toBeVisible();

  const day = await kasa.host.call<{ shifts: { differencePara: number; countedDetail: unknown }[] }>('shifts.list', {
    managerPin: MANAGER_PIN,
    day: shiftDay,
  });
  expect(day.body.value?.shifts.map((s) => s.differencePara)).toEqual([-2_000]);
  expect(day.body.value?.shifts[0]?.countedDetail).toEqual(counts);

  // The manager sees the day's shifts and prints this one again.
  const opened = shopDay(new Date());
  await page.getByRole('button', { name: 'Менаџер (F11)' }).click();
  const mgr = page.getByRole('dialog', { name: 'Менаџер' });
  await mgr.getByRole('tab', { name: 'Смене' }).click();
  // The shop's day in Serbian whatever the browser's locale and the machine's zone; a day that does not exist is said
  // at the field.
  const dayField = mgr.getByLabel('Дан (дд.мм.гггг.)');
  await expect(dayField).toHaveValue(todayInField(opened));
  await dayField.fill('31.02.2026.');
  await mgr.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await mgr.getByRole('button', { name: 'Прикажи' }).click();
  await expect(dayField).toHaveAttribute('aria-invalid', 'true');
  await expect(mgr.getByRole('alert').first()).toHaveText(
    'Датум није исправан: унесите дан, месец и годину, нпр. 26.11.2026.',
  );
  await expect(mgr.getByRole('alert').last()).toHaveText('Исправите датум у пољу „Дан“.');
  await expect(mgr.getByRole('table', { name: 'Смене дана' })).toHaveCount(0);
  await shots(page, 'manager-date-error');
  // The day before the shift's has no shift; the next day button comes back to the shift's day.
  await dayField.fill(fieldDay(shiftDay));
  await mgr.getByRole('button', { name: 'Претходни дан: Дан' }).click();
  await mgr.getByRole('button', { name: 'Прикажи' }).click();
  await expect(mgr.getByText('Тог дана није било смена.')).toBeVisible();
  await mgr.getByRole('button', { name: 'Следећи дан: Дан' }).click();
  await expect(dayField).toHaveValue(fieldDay(shiftDay));
  await mgr.getByLabel('PIN менаџера').fill(MANAGER_PIN);
  await mgr.getByRole('button', { name: 'Прикажи' }).click();
  const table = mgr.getByRole('table', { name: 'Смене дана' });
  const row = table.getByRole('row', { name: /Менаџер/ });
  await expect(row.getByRole('cell')).toHaveText([
    /^\d\d:\d\d$/,
    /^\d\d:\d\d$/,
    '5.000,00',
    rsd(BREAD.pricePara),
    '0,00',
    '1.000,00',
    rsd(expected),
    rsd(expected - 2_000),
    '-20,00 мањак',
    'Штампај',
  ]);
  await expect(row.getByRole('cell', { name: '-20,00 мањак' })).toHaveCSS('color', 'rgb(176, 0, 32)');
  await shots(page, 'manager-shifts-date');
  const reportsBefore = (await paperText()).split('ИЗВЕШТАЈ О СМЕНИ').length;
  await row.getByRole('button', { name: /^Штампај извештај смене: Менаџер, \d\d:\d\d$/ }).click();
  await expect(mgr.getByRole('status')).toHaveText('Послато на штампач.');
  await expect.poll(async () => (await paperText()).split('ИЗВЕШТАЈ О СМЕНИ').length).toBe(reportsBefore + 1);
  expect(await paperText()).toContain('НИЈЕ ФИСКАЛНИ ДОКУМЕНТ');
  if (shotsDir()) {
    // The report's from and to days, for the screenshots (leaving the tab forgets the shifts shown).
    await mgr.getByRole('tab', { name: 'Извештај' }).click();
    await shots(page, 'manager-report-dates');
  }
  await mgr.getByRole('button', { name: 'Затвори', exact: true }).click();

  // The till works in shifts now: the counter says a sale needs a shift, and F12 opens the shift dialog.
  await expect(page.getByRole('alert').filter({ hasText: 'Смена није отворена' })).toBeVisible();
  await scan(page, BREAD.barcode);
  await expect(page.getByRole('button', { name: 'Отвори смену F12' })).toBeVisible();
  await page.keyboard.press('F12');
  await expect(page.getByRole('main', { name: 'Плаћање' })).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'Смена и каса' }).getByLabel('Почетни депозит (RSD)')).toBeFocused();
  // The core refuses it anyway, whatever sends it.
  const refused = await kasa.host.call('sales.checkout', {
    lines: [{ name: BREAD.name, quantity: 1, unitPrice: BREAD.pricePara / 100, labels: ['E'] }],
    payments: [{ type: 'cash', amount: BREAD.pricePara / 100 }],
  });
  expect(JSON.stringify(refused.body)).toContain('без отворене смене');

  async function paperText(): Promise<string> {
    return paperLines(printer, 'epson-tm-t88v').join('\n');
  }
});
