/**
 * The installed-printer picker in Менаџер → Подешавања → Штампач, against a real private cupsd (Debian's
 * `cups`, started by this test on its own Unix socket, reached by the app through `CUPS_SERVER`): the
 * queues are listed with the default marked, choosing one fills the printer address, and once saved the
 * test page comes out of the queue's device, a TCP printer this test listens on. The picker's name in
 * Cyrillic, Latin and English. Skipped, with the reason printed, where cupsd cannot run.
 */
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import { openManager } from './counter-support.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { cupsdSkipReason, lpadmin, startCupsd, stopCupsd, type Cupsd } from '../printer/cupsd.ts';

const skipReason = cupsdSkipReason();
if (skipReason) console.warn(`test/e2e/printer-installed.spec.ts skipped: ${skipReason}`);

// Known before cupsd starts, so the app can be given it; the same worker runs the hooks and the test.
const CUPS_DIR = path.join(os.tmpdir(), `kasa-cups-e2e-${process.pid}`);
let cupsd: Cupsd | null = null;
let server: net.Server | null = null;
const jobs: Buffer[] = [];

test.beforeAll(async () => {
  if (skipReason) return;
  // The queue's device: a TCP printer on an ephemeral port (never 9100).
  server = net.createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => {
      jobs.push(Buffer.concat(chunks));
      socket.end();
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  cupsd = await startCupsd(CUPS_DIR);
  lpadmin(cupsd, ['-p', 'Kasa-POS80', '-E', '-v', `socket://127.0.0.1:${port}`, '-m', 'raw']);
  lpadmin(cupsd, ['-p', 'Kuhinja', '-E', '-v', `socket://127.0.0.1:${port}`, '-m', 'raw']);
  lpadmin(cupsd, ['-d', 'Kasa-POS80']);
});

test.afterAll(async () => {
  if (cupsd) await stopCupsd(cupsd);
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

test.describe('installed printers', () => {
  test.skip(skipReason !== null, skipReason ?? '');
  // The app's `lp` / `lpstat` children reach the test's cupsd, as a till reaches its CUPS server.
  test.use({ kasaEnv: { CUPS_SERVER: path.join(CUPS_DIR, 'cups.sock') } });

  test('a manager picks a CUPS queue from the list, saves it, and the test page prints through it', async ({
    kasa,
  }) => {
    const { page } = kasa;
    const mgr = await openManager(page, 'Подешавања');
    const section = mgr.getByRole('region', { name: 'Штампач' });
    const picker = section.getByRole('combobox', { name: 'Инсталирани штампачи' });
    await expect(picker.locator('option')).toHaveText(['Изаберите штампач…', 'Kasa-POS80 (подразумевани)', 'Kuhinja']);
    await expect(picker).toHaveAccessibleDescription('Избор попуњава адресу штампача; сачувајте га PIN-ом менаџера.');
    const address = section.getByLabel('Адреса штампача');
    await expect(address).toHaveValue('');

    await picker.selectOption({ label: 'Kuhinja' });
    await expect(address).toHaveValue('cups://Kuhinja');
    await picker.selectOption({ label: 'Kasa-POS80 (подразумевани)' });
    await expect(address).toHaveValue('cups://Kasa-POS80');
    // A typed address that is no installed printer leaves the picker on its prompt.
    await address.fill('tcp://127.0.0.1:9');
    await expect(picker).toHaveValue('');
    await picker.selectOption({ label: 'Kasa-POS80 (подразумевани)' });

    await section.getByLabel('PIN менаџера').fill(MANAGER_PIN);
    await section.getByRole('button', { name: 'Сачувај штампач' }).click();
    await expect(section.getByRole('status')).toHaveText('Подешавања штампача су сачувана.');
    await expect(section.getByTestId('printer-uri')).toHaveText('cups://Kasa-POS80');
    await expect(picker).toHaveValue('cups://Kasa-POS80');

    // The test page goes through lp and cupsd's raw queue to the TCP printer: ESC @ … GS V (the cut).
    await section.getByRole('button', { name: 'Пробна штампа' }).click();
    await expect.poll(() => jobs.length).toBe(1);
    const page1 = jobs[0]!;
    expect(page1.subarray(0, 2)).toEqual(Buffer.from([0x1b, 0x40]));
    expect(page1.includes(Buffer.from([0x1d, 0x56]))).toBe(true);

    // The picker's name and the default's mark in Latin and English.
    await mgr.getByRole('button', { name: 'Затвори' }).click();
    const bar = page.locator('footer.status-bar');
    for (const [lang, langLabel, open, title, tab, region, label, chosen] of [
      [
        'sr-Latn',
        'Језик',
        'Menadžer (F11)',
        'Menadžer',
        'Podešavanja',
        'Štampač',
        'Instalirani štampači',
        'Kasa-POS80 (podrazumevani)',
      ],
      ['en', 'Jezik', 'Manager (F11)', 'Manager', 'Settings', 'Printer', 'Installed printers', 'Kasa-POS80 (default)'],
    ] as const) {
      await bar.getByLabel(langLabel).selectOption(lang);
      await page.getByRole('button', { name: open }).click();
      const dialog = page.getByRole('dialog', { name: title });
      await dialog.getByRole('tab', { name: tab }).click();
      const p = dialog.getByRole('region', { name: region }).getByRole('combobox', { name: label });
      await expect(p.locator('option:checked')).toHaveText(chosen);
      await dialog.getByRole('button', { name: lang === 'en' ? 'Close' : 'Zatvori' }).click();
    }
  });
});
