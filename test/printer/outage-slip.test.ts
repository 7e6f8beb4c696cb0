/**
 * An outage without an L-PFR is what the counter says it is (#37 §4). The whole core (createCore) on a real
 * SQLite file, the embedded sandbox gateway over HTTP switched offline with its control, a real TCP printer on
 * an ephemeral port decoded with the project's ESC/POS decoder, and the core's clock injected:
 * - a sale nobody can sign prints the non-fiscal slip (marked at head and foot, the order, the items, the
 *   total, the payment, the time of sale in Serbian local time, the shop);
 * - once the gateway is back the fiscal receipt prints at that till as a late receipt, even more than five
 *   minutes later and with the printer down in between (a late receipt is never held for its age), and the
 *   manager's list shows it until it is printed (or e-mailed where the buyer gave an address);
 * - with no printer the counter is told no slip printed, and the manager prints the late receipt later;
 * - `offlineSales: refused` refuses such a sale in the user's language with nothing saved.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../support/cleanups.ts';
import type { Core } from '../../electron/core.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { journalLines } from '../../electron/printer/layout.ts';
import type { LateReceipt } from '../../shared/contract/printer.ts';
import type { OrderView, SyncStatus } from '../../shared/domain.ts';
import { startCaptureServer, until, type CaptureServer } from './helpers.ts';
import { BREAD_AND_MILK, closeCores, control, fails, MANAGER_PIN, ok, startCore } from '../support/session.ts';

afterEach(closeCores);
const later = cleanupAfterEach();

const MINUTE = 60_000;
// A cheap 58 mm clone: Cyrillic in its CP1251 page, QR as an image, no status answers (so no polls on the port).
const profile = findPreset('pos-5890')!;
const decode = (b: Buffer) => decodeEscPos(b, { codePages: codePageNumbers(profile) });
const NOT_FISCAL = 'ОВО НИЈЕ ФИСКАЛНИ РАЧУН';

interface Checkout {
  orderId: number;
  orderNumber: string;
  state: string;
  outageSlip?: string;
}

async function startTill(clock: () => number, printer: boolean): Promise<{ core: Core; server: CaptureServer }> {
  const core = await startCore({
    now: clock,
    env: { KASA_LANG: 'sr-Cyrl', KASA_PRINTER_ALLOW_LOOPBACK: '1' },
  });
  const server = await startCaptureServer();
  later(() => server.close());
  await ok(core, 'settings.update', { managerPin: MANAGER_PIN, shopName: 'Продавница Код Мике', tillName: 'Каса 1' });
  if (printer) await configurePrinter(core, server.port);
  return { core, server };
}

const configurePrinter = (core: Core, port: number) =>
  ok(core, 'printer.configure', {
    uri: `tcp://127.0.0.1:${port}`,
    profileId: profile.id,
    autoPrint: true,
    approval: { managerPin: MANAGER_PIN },
  });

/**
 * The sandbox goes offline and the engine has noticed: a proforma (it takes no money, so it is never refused nor
 * gets a slip) waits its online budget and teaches the engine the gateway is gone.
 */
async function goOffline(core: Core): Promise<void> {
  await control(core, 'offline', { offline: true });
  await ok(core, 'sales.checkout', { ...BREAD_AND_MILK, invoiceType: 'proforma' });
  for (let i = 0; i < 400; i++) {
    const s = await ok<SyncStatus>(core, 'sync.status');
    if (!s.online) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the engine never noticed the gateway was gone');
}

async function backOnline(core: Core, orderId: number): Promise<void> {
  await control(core, 'offline', { offline: false });
  await ok(core, 'sync.now');
  for (let i = 0; i < 400; i++) {
    const o = await ok<OrderView>(core, 'orders.get', { orderId });
    if (o.state === 'fiscalized') return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the order was never fiscalized');
}

const jobs = (core: Core) =>
  core.db
    .prepare<[], { id: number; kind: string; order_id: number | null; state: string; attempts: number }>(
      'SELECT id, kind, order_id, state, attempts FROM print_jobs ORDER BY id',
    )
    .all();
const lateList = async (core: Core) => (await ok<{ receipts: LateReceipt[] }>(core, 'print.lateReceipts')).receipts;

describe('a sale nobody can sign (#37 §4)', () => {
  it('prints the slip at the sale; the fiscal receipt prints at the till when issued, past five minutes', async () => {
    let clock = Date.parse('2026-11-28T13:05:09Z'); // 14:05:09 in Belgrade
    const { core, server } = await startTill(() => clock, true);
    // The first sale after the internet drops: the engine learns it while the sale waits its online budget.
    await control(core, 'offline', { offline: true });
    const sale = await ok<Checkout>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(sale).toMatchObject({ state: 'queued', outageSlip: 'printing' });
    await until(() => server.jobs.length === 1);
    const slip = decode(server.jobs[0]!);
    expect(slip.problems).toEqual([]);
    expect(slip.drawerPulses).toEqual([]);
    const lines = slip.lines.map((l) => l.trimEnd()).filter((l) => l !== '');
    expect(lines[0]).toContain(NOT_FISCAL);
    expect(lines.at(-1)).toContain(NOT_FISCAL);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ *Продавница Код Мике$/),
        `Поруџбина:${' '.repeat(40 - 10 - sale.orderNumber.length)}${sale.orderNumber}`,
        expect.stringMatching(/^Време продаје: +28\.11\.2026\. 14:05:09$/),
        expect.stringMatching(/^Каса: +Каса 1 \(\w+\)$/),
        'Хлеб',
        expect.stringMatching(/^ {2}3 x 80,00 +240,00$/),
        'Млеко',
        expect.stringMatching(/^ {2}2 x 150,00 +300,00$/),
        expect.stringMatching(/^УКУПНО: +540,00$/),
        expect.stringMatching(/^Готовина: +540,00$/),
      ]),
    );
    // Never an ISO timestamp on paper.
    expect(lines.join('\n')).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    await until(() => jobs(core)[0]?.state === 'printed');
    expect(jobs(core)).toMatchObject([{ kind: 'slip', order_id: sale.orderId, state: 'printed' }]);

    // The manager sees it waiting for its fiscal receipt.
    expect(await lateList(core)).toMatchObject([
      { orderId: sale.orderId, orderNumber: sale.orderNumber, slip: 'printing', orderState: 'queued', job: null },
    ]);

    // Not issued yet: nothing to print.
    const early = await fails(core, 'print.lateReceipt', { orderId: sale.orderId });
    expect(early).toMatchObject({ code: 'conflict' });
    expect(early.message).toContain('још није издат');

    // The printer is down when the gateway comes back, six minutes later.
    await server.close();
    clock += 6 * MINUTE;
    await backOnline(core, sale.orderId);
    await until(() => jobs(core).some((j) => j.kind === 'late' && j.state === 'queued' && j.attempts >= 1));
    const waiting = await lateList(core);
    expect(waiting).toMatchObject([{ orderId: sale.orderId, orderState: 'fiscalized', job: 'queued' }]);
    expect(waiting[0]?.lastError).toMatch(/ECONNREFUSED/);

    // Ten more minutes: a late receipt is never held for its age; the printer is back and it comes out.
    clock += 10 * MINUTE;
    const back = await startCaptureServer({ port: server.port });
    later(() => back.close());
    await until(() => back.jobs.length === 1);
    await until(() => jobs(core).some((j) => j.kind === 'late' && j.state === 'printed'));
    expect(jobs(core).map((j) => [j.kind, j.state])).toEqual([
      ['slip', 'printed'],
      ['late', 'printed'],
    ]);
    const order = await ok<OrderView>(core, 'orders.get', { orderId: sale.orderId });
    const fiscal = decode(back.jobs[0]!);
    expect(fiscal.problems).toEqual([]);
    const printed = fiscal.lines.map((l) => l.trim());
    expect(printed).toEqual(expect.arrayContaining(journalLines(order.receipt!.journal).map((l) => l.trim())));
    expect(printed).toEqual(
      expect.arrayContaining([
        'НАКНАДНО ИЗДАТ ФИСКАЛНИ РАЧУН',
        `Поруџбина ${sale.orderNumber}`,
        'Продаја 28.11.2026. 14:05:09',
      ]),
    );
    expect(fiscal.rasterImages.length).toBeGreaterThan(0); // the QR code, drawn on this printer
    expect(fiscal.drawerPulses).toEqual([]); // the money was taken at the sale
    // Handed over: off the manager's list; a second original is never printed.
    expect(await lateList(core)).toEqual([]);
    expect((await fails(core, 'print.lateReceipt', { orderId: sale.orderId })).code).toBe('conflict');
  });

  it('with no printer the counter is told; the manager prints the late receipt once a printer is set', async () => {
    let clock = Date.parse('2026-11-28T08:00:00Z');
    const { core, server } = await startTill(() => clock, false);
    await control(core, 'offline', { offline: true });
    const sale = await ok<Checkout>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(sale).toMatchObject({ state: 'queued', outageSlip: 'no_printer' });
    expect(await lateList(core)).toMatchObject([{ orderId: sale.orderId, slip: 'none', orderState: 'queued' }]);

    clock += 2 * 60 * MINUTE;
    await backOnline(core, sale.orderId);
    await new Promise((r) => setTimeout(r, 200));
    // Issued, no printer: it waits on the list, nothing queued that would come out unasked.
    expect(await lateList(core)).toMatchObject([{ orderId: sale.orderId, orderState: 'fiscalized', job: null }]);
    expect(await fails(core, 'print.lateReceipt', { orderId: sale.orderId })).toMatchObject({ code: 'unavailable' });

    await configurePrinter(core, server.port);
    const { jobId } = await ok<{ jobId: number }>(core, 'print.lateReceipt', { orderId: sale.orderId });
    await until(() => server.jobs.length >= 1);
    await until(() => jobs(core).find((j) => j.id === jobId)?.state === 'printed');
    expect(jobs(core).filter((j) => j.kind !== 'test')).toMatchObject([{ kind: 'late', order_id: sale.orderId }]);
    expect(await lateList(core)).toEqual([]);
    const audit = core.db
      .prepare<[], { detail: string }>("SELECT detail FROM audit_log WHERE action = 'print.latePrinted'")
      .all();
    expect(audit.map((a) => JSON.parse(a.detail) as unknown)).toEqual([
      { orderId: sale.orderId, orderNumber: sale.orderNumber, jobId },
    ]);
  });

  it('a buyer who gave an address gets the late receipt by e-mail, not on paper', async () => {
    const clock = Date.now();
    const { core, server } = await startTill(() => clock, true);
    await control(core, 'offline', { offline: true });
    const sale = await ok<Checkout>(core, 'sales.checkout', { ...BREAD_AND_MILK, email: 'kupac@example.com' });
    expect(sale.outageSlip).toBe('printing');
    await until(() => server.jobs.length === 1); // the slip
    await backOnline(core, sale.orderId);
    await new Promise((r) => setTimeout(r, 300));
    expect(await lateList(core)).toEqual([]);
    expect(jobs(core).map((j) => j.kind)).toEqual(['slip']);
    const row = core.db
      .prepare<[number], { handed_over: string }>('SELECT handed_over FROM late_receipts WHERE order_id = ?')
      .get(sale.orderId);
    expect(row?.handed_over).toBe('emailed');
  });

  it('offlineSales: refused — a sale nobody can sign is refused in words, nothing saved; allowed again after', async () => {
    const { core, server } = await startTill(Date.now, true);
    const view = await ok<{ offlineSales: string }>(core, 'settings.update', {
      managerPin: MANAGER_PIN,
      offlineSales: 'refused',
    });
    expect(view.offlineSales).toBe('refused');
    expect(core.info().offlineSales).toBe('refused');
    const audit = core.db
      .prepare<[], { detail: string }>("SELECT detail FROM audit_log WHERE action = 'settings.update' ORDER BY id DESC")
      .get();
    expect(JSON.parse(audit!.detail)).toEqual({ offlineSales: 'refused' });
    const bad = await fails(core, 'settings.update', { managerPin: MANAGER_PIN, offlineSales: 'sometimes' });
    expect(bad).toMatchObject({ code: 'invalid_input', field: 'offlineSales' });

    await goOffline(core);
    const orders = () => core.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM orders').get()!.n;
    const before = orders();
    for (const type of ['cash', 'card'] as const) {
      const refused = await fails(core, 'sales.checkout', {
        ...BREAD_AND_MILK,
        payments: [{ type, amount: 540 }],
      });
      expect(refused).toMatchObject({ code: 'unavailable' });
      expect((refused as { field?: string }).field ?? '').toBe(''); // not a field's fault: the whole sale
      expect(refused.message).toBe(
        'Продаја није могућа: нема везе са фискалним сервисом ни са локалним ПФР-ом, а радња је подесила да се ' +
          'без фискалног рачуна не продаје (Менаџер → Подешавања). Ништа није сачувано.',
      );
    }
    expect(orders()).toBe(before);
    expect(jobs(core)).toEqual([]);
    expect(server.jobs).toEqual([]);

    await ok(core, 'settings.update', { managerPin: MANAGER_PIN, offlineSales: 'allowed' });
    expect(await ok<Checkout>(core, 'sales.checkout', BREAD_AND_MILK)).toMatchObject({
      state: 'queued',
      outageSlip: 'printing',
    });
  });
});
