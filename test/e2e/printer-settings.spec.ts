/**
 * The printer section of the manager's Settings: an address the contract refuses is named next to its
 * field; a network printer (a TCP server in this test) configured through the form with the manager's
 * approval prints the test page and the reprint; the live status follows. With `KASA_PRINTER` set, the
 * section says the environment wins, and a saved address does not replace it.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AuditEntry } from '../../shared/contract/audit.ts';
import type { PrintStatus } from '../../shared/contract/printer.ts';
import { expect, test, type KasaFixture } from './fixtures.ts';
import { openManager } from './counter-support.ts';
import { MANAGER_PIN } from '../support/session.ts';

/** A network printer: every connection's bytes, delivered once the client closed its side. */
interface FakePrinter {
  port: number;
  /** The bytes of the n-th connection (0-based), once complete. */
  job(n: number): Promise<Buffer>;
  close(): Promise<void>;
}

async function startPrinter(): Promise<FakePrinter> {
  const done: Buffer[] = [];
  const waiters: { n: number; resolve: (b: Buffer) => void }[] = [];
  const server = net.createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => {
      done.push(Buffer.concat(chunks));
      for (const w of waiters.filter((w) => w.n < done.length)) w.resolve(done[w.n] as Buffer);
    });
    socket.on('error', () => undefined);
  });
  // Never 9100: a real printer may listen there.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    job: (n) =>
      n < done.length ? Promise.resolve(done[n] as Buffer) : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const ESC_AT = Buffer.from([0x1b, 0x40]);
const GS_V = Buffer.from([0x1d, 0x56]);
const DLE_EOT = Buffer.from([0x10, 0x04]);

/** A job's bytes after the real-time status requests (DLE EOT n) Kasa asks a printer before each job. */
function afterStatusRequests(bytes: Buffer): Buffer {
  let i = 0;
  while (bytes.subarray(i, i + 2).equals(DLE_EOT)) i += 3;
  return bytes.subarray(i);
}

/**
 * The next connection from `from` on that carried a job, skipping the idle status polls (a connection that
 * only asks DLE EOT and closes); returns it and the index after it.
 */
async function nextJob(
  printer: { job(n: number): Promise<Buffer> },
  from: number,
): Promise<{ bytes: Buffer; next: number }> {
  for (let n = from; ; n++) {
    const bytes = await printer.job(n);
    if (afterStatusRequests(bytes).length > 0) return { bytes, next: n + 1 };
  }
}

async function printStatus(kasa: KasaFixture): Promise<PrintStatus> {
  const r = await kasa.host.call<PrintStatus>('print.status');
  if (!r.body.value) throw new Error(JSON.stringify(r.body.error));
  return r.body.value;
}

// The test printers listen on loopback: a destination the installer allows explicitly.
test.use({ kasaEnv: { KASA_PRINTER_ALLOW_LOOPBACK: '1' } });

test('a manager configures a network printer, prints a test page and reprints it', async ({ kasa }) => {
  const printer = await startPrinter();
  try {
    const mgr = await openManager(kasa.page, 'Подешавања');
    const section = mgr.getByRole('region', { name: 'Штампач' });
    const status = section.getByTestId('printer-state');
    await expect(status).toHaveText('Није подешен');
    await expect(section.getByTestId('printer-source')).toHaveText('(није подешена)');
    await expect(section.getByRole('note')).toHaveCount(0);

    // A file that is no printer device is refused next to the address field, in Serbian, naming the field.
    const address = section.getByLabel('Адреса штампача');
    await address.fill('/tmp/x');
    await section.getByLabel('PIN менаџера').fill(MANAGER_PIN);
    await section.getByRole('button', { name: 'Сачувај штампач' }).click();
    const addressError = section.locator('#printer-uri-error');
    await expect(addressError).toHaveText(
      /^Адреса штампача у пољу „Адреса штампача“ мора бити мрежна адреса \(192\.168\.1\.50:9100 или tcp:\/\//,
    );
    await expect(addressError).toHaveRole('alert');
    await expect(address).toHaveAttribute('aria-invalid', 'true');
    await expect(address).toHaveAccessibleDescription(/„Адреса штампача“ мора бити/);
    expect((await printStatus(kasa)).uriSource).toBe('none');

    // The profile list shows paper width and name.
    const profile = section.getByLabel('Профил штампача');
    await expect(profile.locator('option[value="generic-58"]')).toHaveText(/^58 mm · Општи ESC\/POS/);

    const uri = `tcp://127.0.0.1:${printer.port}`;
    await address.fill(uri);
    await profile.selectOption('generic-58');
    await section.getByLabel('Заглавље рачуна (необавезно)').fill('Продавница Кипарис\nНови Сад');
    await section.getByLabel('Штампај сваки рачун чим буде фискализован').uncheck();
    await section.getByLabel('PIN менаџера').fill(MANAGER_PIN);
    await section.getByRole('button', { name: 'Сачувај штампач' }).click();
    await expect(section.getByRole('status')).toHaveText('Подешавања штампача су сачувана.');
    await expect(addressError).toHaveCount(0);
    await expect(section.getByLabel('PIN менаџера')).toHaveValue('');
    await expect(status).toHaveText('Спреман');
    await expect(section.getByTestId('printer-uri')).toHaveText(uri);
    await expect(section.getByTestId('printer-source')).toHaveText('(из подешавања)');
    await expect(section.getByTestId('printer-profile')).toContainText('58 mm');
    expect(await printStatus(kasa)).toMatchObject({
      uri,
      uriSource: 'settings',
      profileId: 'generic-58',
      autoPrint: false,
    });
    // The change was approved by the manager's PIN, and that approval is in the audit log.
    const audit = (
      await kasa.host.call<{ entries: AuditEntry[] }>('audit.list', { managerPin: MANAGER_PIN, limit: 20 })
    ).body.value;
    // The PIN travelled with printer.configure: one entry with the actor and the approving manager.
    expect(audit?.entries.find((e) => e.action === 'approved.printer.configure')).toMatchObject({
      approver: 'Менаџер',
    });

    // The test page reaches the printer: initialize, …, cut. The status follows the event.
    await expect(section.getByTestId('printer-last-printed')).toHaveText('—');
    await section.getByRole('button', { name: 'Пробна штампа' }).click();
    const { bytes: first, next } = await nextJob(printer, 0);
    // The printer may be asked its state first (this profile answers DLE EOT). This one never answers, so
    // once an idle poll found it silent, jobs go without asking (electron/printer/service.ts, `silent`);
    // either way the page prints all the same.
    expect(afterStatusRequests(first).subarray(0, 2).equals(ESC_AT)).toBe(true);
    expect(first.includes(GS_V)).toBe(true);
    await expect(section.getByTestId('printer-last-printed')).not.toHaveText('—');
    await expect(status).toHaveText('Спреман');
    await expect(section.getByTestId('printer-queued')).toHaveText('0');
    await expect(section.getByRole('status')).toHaveText(/^Пробна страна је послата штампачу \(посао \d+\)\.$/);

    // Reprint last: the test page again.
    await section.getByRole('button', { name: 'Одштампај последње поново' }).click();
    await expect(section.getByRole('status')).toHaveText(/^Последњи посао је поново послат штампачу \(посао \d+\)\.$/);
    const { bytes: second } = await nextJob(printer, next);
    expect(second.includes(ESC_AT)).toBe(true);
    expect(second.includes(GS_V)).toBe(true);
    await expect(section.getByTestId('printer-queued')).toHaveText('0');

    // Every control of the section is reachable with the keyboard, in order.
    await address.focus();
    await kasa.page.keyboard.press('Tab');
    await expect(profile).toBeFocused();
  } finally {
    await printer.close();
  }
});

test('a wrong manager PIN saves nothing', async ({ kasa }) => {
  const printer = await startPrinter();
  try {
    // A manager logged in is not asked for her PIN (issue 38 §7; a cashier still is:
    // test/hostile/self-approval.test.ts); a PIN typed is checked all the same.
    const mgr = await openManager(kasa.page, 'Подешавања');
    const section = mgr.getByRole('region', { name: 'Штампач' });
    await section.getByLabel('Адреса штампача').fill(`tcp://127.0.0.1:${printer.port}`);
    await section.getByLabel('PIN менаџера').fill('9876');
    await section.getByRole('button', { name: 'Сачувај штампач' }).click();
    await expect(section.getByRole('alert')).toBeVisible();
    await expect(section.getByTestId('printer-state')).toHaveText('Није подешен');
    expect((await printStatus(kasa)).uriSource).toBe('none');
  } finally {
    await printer.close();
  }
});

test.describe('with KASA_PRINTER set', () => {
  const envFile = path.join(os.tmpdir(), `kasa-e2e-printer-${process.pid}.bin`);
  test.use({ kasaEnv: { KASA_PRINTER: envFile, KASA_PRINTER_ALLOW_LOOPBACK: '1' } });
  test.afterEach(() => fs.rmSync(envFile, { force: true }));

  test('the environment wins over the saved address, and the section says so', async ({ kasa }) => {
    const printer = await startPrinter();
    try {
      const mgr = await openManager(kasa.page, 'Подешавања');
      const section = mgr.getByRole('region', { name: 'Штампач' });
      await expect(section.getByTestId('printer-uri')).toHaveText(envFile);
      await expect(section.getByTestId('printer-source')).toHaveText('(из променљиве окружења KASA_PRINTER)');
      await expect(section.getByRole('note')).toContainText(
        'Адреса сачувана овде важи тек кад та променљива није задата.',
      );
      // The environment's address is not offered as the saved one.
      await expect(section.getByLabel('Адреса штампача')).toHaveValue('');

      await section.getByLabel('Адреса штампача').fill(`tcp://127.0.0.1:${printer.port}`);
      await section.getByLabel('PIN менаџера').fill(MANAGER_PIN);
      await section.getByRole('button', { name: 'Сачувај штампач' }).click();
      await expect(section.getByRole('status')).toHaveText('Подешавања штампача су сачувана.');
      await expect(section.getByTestId('printer-uri')).toHaveText(envFile);
      await expect(section.getByRole('note')).toBeVisible();
      expect(await printStatus(kasa)).toMatchObject({ uri: envFile, uriSource: 'env' });

      // Printing goes to the environment's printer, not to the saved one.
      await section.getByRole('button', { name: 'Пробна штампа' }).click();
      await expect(section.getByTestId('printer-last-printed')).not.toHaveText('—');
      const bytes = fs.readFileSync(envFile);
      expect(bytes.subarray(0, 2).equals(ESC_AT)).toBe(true);
      expect(bytes.includes(GS_V)).toBe(true);
    } finally {
      await printer.close();
    }
  });
});
