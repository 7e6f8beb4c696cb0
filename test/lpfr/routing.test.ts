/**
 * The L-PFR as Kasa's second fiscal path, through the whole core (createCore) on a real SQLite file, against
 * both sandboxes over HTTP (the gateway's, taken offline with its switch; the L-PFR's, with its card, PIN and
 * faults) and a real TCP printer on an ephemeral port. Each processor's ledger is the truth: an order is signed
 * by exactly one of them.
 */
import { untilValue as until } from '../support/poll.ts';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { journalLines } from '../../electron/printer/layout.ts';
import type { LpfrSandbox } from '../support/lpfr-sandbox/server.ts';
import type { CheckoutResult } from '../../shared/contract/sales.ts';
import type { OrderView, SyncStatus } from '../../shared/domain.ts';
import { type CaptureServer, attachPrinter, EPSON, decoderFor } from '../printer/helpers.ts';
import { makeRefund, BREAD_AND_MILK, control, ok } from '../support/session.ts';
import { fiscalized, lpfrCoreSuite, PIN, lpfrTill, lpfrReady } from './helpers.ts';

const { kit, later } = lpfrCoreSuite();

const decode = decoderFor(EPSON);

const status = (core: Core) => ok<SyncStatus>(core, 'sync.status');
/** Waits until the till's sync status passes `pass` (`what` names the wait when it times out). */
const statusUntil = (core: Core, what: string, pass: (s: SyncStatus) => boolean): Promise<SyncStatus> =>
  until(what, () => status(core), pass);
const gatewayLedger = async (core: Core): Promise<string[]> =>
  ((await control(core, 'ledger')) as { receipts: { orderNumber: string }[] }).receipts.map((r) => r.orderNumber);

interface Till {
  core: Core;
  lpfr: LpfrSandbox;
  printer: CaptureServer;
}

/** A till with an L-PFR (its PIN in KASA_LPFR_PIN) and a printer; the gateway is offline and known to be. */
async function offlineTill(options: { pin?: string; idleProbeMs?: number } = {}): Promise<Till> {
  const lpfr = await kit.sandbox({ dataDir: kit.dir() });
  const core = await lpfrTill(
    lpfr,
    'kasa-lpfr-route-',
    { KASA_LPFR_PIN: options.pin ?? PIN, KASA_PRINTER_ALLOW_LOOPBACK: '1' },
    { idleProbeMs: options.idleProbeMs ?? 50 },
  );
  const printer = await attachPrinter(core, later, { autoPrint: true });
  await control(core, 'offline', { offline: true });
  return { core, lpfr, printer };
}

const ledgerOf = (lpfr: LpfrSandbox) => lpfr.controls.ledger().invoices;

describe('the L-PFR signs while the internet is down', () => {
  it('a sale gets a fiscal receipt at once: signed by the L-PFR, printed verbatim with its QR', async () => {
    const { core, lpfr, printer } = await offlineTill();
    await lpfrReady(core);

    const sale = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(sale.state).toBe('fiscalized');
    expect(sale.processor).toBe('lpfr');
    expect(sale.receipt?.invoiceNumber).toMatch(new RegExp(`^${lpfr.uid}-${lpfr.uid}-\\d+$`));

    const signed = ledgerOf(lpfr);
    expect(signed).toHaveLength(1);
    expect(signed[0]).toMatchObject({ requestId: sale.orderNumber, totalAmount: 540, transactionType: 'Sale' });
    expect(await gatewayLedger(core)).not.toContain(sale.orderNumber);

    // Printed as any fiscal receipt: the L-PFR's journal line for line, and the QR of its verification URL.
    const order = await ok<OrderView>(core, 'orders.get', { orderId: sale.orderId });
    expect(order.processor).toBe('lpfr');
    await until(
      'the receipt printed',
      () => printer.jobs.length,
      (n) => n >= 1,
    );
    const printed = decode(printer.jobs[0]!);
    expect(printed.problems).toEqual([]);
    const journal = order.receipt?.journal ?? '';
    expect(journal).toContain('ФИСКАЛНИ РАЧУН');
    // The L-PFR got the name of the person logged in (the sale sent none) and prints it.
    expect(journal).toMatch(/Касир:\s+Менаџер/);
    expect(printed.lines.filter((l) => l !== '')).toEqual(journalLines(journal));
    expect(printed.qr.map((q) => q.data)).toEqual([order.receipt?.verificationUrl]);
    expect(order.receipt?.verificationUrl).toMatch(/\?vl=/);
    expect(await status(core)).toMatchObject({ queued: 0, lpfr: 'ready' });
  });

  it('an order whose gateway outcome is unknown is never sent to the L-PFR; the next sale is signed there', async () => {
    // The gateway goes away between probes: the first sale's request is cut after it left (outcome unknown).
    const { core, lpfr } = await offlineTill({ idleProbeMs: 60_000 });
    await control(core, 'offline', { offline: false });
    await statusUntil(core, 'online', (s) => s.online);
    await statusUntil(core, 'the L-PFR asked', (s) => s.lpfr === 'ready');
    await control(core, 'offline', { offline: true });

    const first = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(first.state).toBe('queued');
    const pinned = core.db
      .prepare<[number], { route: string | null; unknown: number }>(
        'SELECT route, unknown FROM outbox WHERE order_id = ?',
      )
      .get(first.orderId);
    expect(pinned).toEqual({ route: 'gateway', unknown: 1 });

    const second = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(second).toMatchObject({ state: 'fiscalized', processor: 'lpfr' });
    // Many passes later the first order is still the gateway's: it never reached the L-PFR.
    for (let i = 0; i < 5; i++) await ok(core, 'sync.now');
    await new Promise((r) => setTimeout(r, 300));
    expect(ledgerOf(lpfr).map((e) => e.requestId)).toEqual([second.orderNumber]);

    // The gateway back: the first order is reconciled there, exactly once.
    await control(core, 'offline', { offline: false });
    await ok(core, 'sync.now');
    const settled = await fiscalized(core, first.orderId, 'the first order fiscalized');
    expect(settled.processor).toBe('gateway');
    const ledger = await gatewayLedger(core);
    expect(ledger.filter((n) => n === first.orderNumber)).toHaveLength(1);
    expect(ledger).not.toContain(second.orderNumber);
    expect(ledgerOf(lpfr).map((e) => e.requestId)).toEqual([second.orderNumber]);
  });

  it('an L-PFR reply lost after signing is looked up by RequestId, never signed twice', async () => {
    const { core, lpfr } = await offlineTill();
    await lpfrReady(core);
    lpfr.controls.setFaults([{ match: 'POST /api/v3/invoices', action: 'drop_after', times: 1 }]);
    const sale = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    const order = await fiscalized(core, sale.orderId, 'the lost reply resolved', { syncEachTime: true });
    expect(order.processor).toBe('lpfr');
    expect(ledgerOf(lpfr).map((e) => e.requestId)).toEqual([sale.orderNumber]);
    expect(order.receipt?.invoiceNumber).toBe(ledgerOf(lpfr)[0]?.invoiceNumber);
    const modes = core.db
      .prepare<[number], { mode: string; outcome: string }>(
        'SELECT mode, outcome FROM attempts WHERE order_id = ? ORDER BY id',
      )
      .all(sale.orderId);
    expect(modes).toEqual([
      { mode: 'lpfr', outcome: 'unknown' },
      { mode: 'lpfr_lookup', outcome: 'issued' },
    ]);
    expect(await gatewayLedger(core)).not.toContain(sale.orderNumber);
  });
});

describe('without a usable L-PFR the queue works as before', () => {
  it('a wrong stored PIN is entered once, never again; sales queue and go to the gateway when it is back', async () => {
    const { core, lpfr } = await offlineTill({ pin: '9999' });
    await statusUntil(core, 'the PIN refused', (s) => !s.online && s.lpfr === 'pin_wrong');
    const sale = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(sale.state).toBe('queued');
    for (let i = 0; i < 5; i++) await ok(core, 'sync.now');
    await new Promise((r) => setTimeout(r, 300));
    // One wrong PIN on the card, whatever the engine did since: five would lock it for good.
    expect(lpfr.controls.state()).toMatchObject({ wrongPins: 1, locked: false });
    expect(ledgerOf(lpfr)).toEqual([]);

    await control(core, 'offline', { offline: false });
    await ok(core, 'sync.now');
    await fiscalized(core, sale.orderId, 'fiscalized by the gateway');
    expect((await ok<OrderView>(core, 'orders.get', { orderId: sale.orderId })).processor).toBe('gateway');
    expect(ledgerOf(lpfr)).toEqual([]);
  });

  it('the card removed: sales queue; put back, the stored PIN unlocks it and the L-PFR signs the queue', async () => {
    const { core, lpfr } = await offlineTill();
    await statusUntil(core, 'ready', (s) => !s.online && s.lpfr === 'ready');
    lpfr.controls.setCard(false);
    const sale = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(sale.state).toBe('queued');
    await statusUntil(core, 'card out seen', (s) => s.lpfr === 'card_absent');
    expect(core.db.prepare('SELECT route FROM outbox WHERE order_id = ?').pluck().get(sale.orderId)).toBeNull();

    lpfr.controls.setCard(true);
    await fiscalized(core, sale.orderId, 'signed after the card came back');
    expect(ledgerOf(lpfr).map((e) => e.requestId)).toEqual([sale.orderNumber]);
    expect(lpfr.controls.state()).toMatchObject({ wrongPins: 0, unlocked: true });
  });

  it('the L-PFR down: sales queue, and the gateway takes them when it is back', async () => {
    const { core, lpfr } = await offlineTill();
    await statusUntil(core, 'ready', (s) => !s.online && s.lpfr === 'ready');
    await lpfr.close();
    const sale = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(sale.state).toBe('queued');
    await statusUntil(core, 'L-PFR unreachable', (s) => s.lpfr === 'unreachable');
    await control(core, 'offline', { offline: false });
    await ok(core, 'sync.now');
    const order = await fiscalized(core, sale.orderId, 'fiscalized');
    expect(order.processor).toBe('gateway');
  });
});

describe('refunds of an L-PFR receipt', () => {
  it('are signed on the L-PFR, referencing its invoice, even once the gateway is back', async () => {
    const { core, lpfr } = await offlineTill();
    await statusUntil(core, 'ready', (s) => !s.online && s.lpfr === 'ready');
    const sale = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(sale.processor).toBe('lpfr');
    await control(core, 'offline', { offline: false });
    await ok(core, 'sync.now');
    await statusUntil(core, 'online', (s) => s.online);

    const refund = await makeRefund(core, {
      orderId: sale.orderId,
      lines: [{ index: 0, quantity: 2 }],
      buyerId: '11:1234567890125',
    });
    const done = await fiscalized(core, refund.orderId, 'refund signed');
    expect(done.processor).toBe('lpfr');
    expect(done.receipt?.invoiceNumber).toMatch(new RegExp(`^${lpfr.uid}-${lpfr.uid}-\\d+$`));
    const entry = ledgerOf(lpfr).find((e) => e.requestId === refund.orderNumber);
    expect(entry).toMatchObject({ transactionType: 'Refund', referentDocumentNumber: sale.receipt?.invoiceNumber });
    expect(await gatewayLedger(core)).not.toContain(refund.orderNumber);
  });
});
