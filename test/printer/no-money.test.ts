/**
 * Proforma and training take no money. Through the whole core (createCore) on a real
 * SQLite file, the embedded sandbox over HTTP and a real TCP printer on an ephemeral port: the gateway
 * body carries one nominal payment of type `other` equal to the items' sum, no change is computed, and
 * the printed bytes hold no drawer pulse. A normal cash sale on the same till does kick the drawer (so
 * the printer would show it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../support/cleanups.ts';
import type { Core } from '../../electron/core.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import type { OrderView } from '../../shared/domain.ts';
import { createPrintService } from '../../electron/printer/service.ts';
import { makeReceipt } from './fixtures.ts';
import { memorySettings, startCaptureServer, statusLog, tempDb, until, type CaptureServer } from './helpers.ts';
import { closeCores, MANAGER_PIN, ok, startCore } from '../support/session.ts';

afterEach(closeCores);
const later = cleanupAfterEach();

const LINES = [
  { name: 'Хлеб', quantity: 2, unitPrice: 80, labels: ['A'] },
  { name: 'Млеко', quantity: 1, unitPrice: 139.99, labels: ['A'] },
];

async function startTill(): Promise<{ core: Core; printer: CaptureServer }> {
  const core = await startCore({
    prefix: 'kasa-nomoney-',
    env: { KASA_LANG: 'en', KASA_ONLINE_BUDGET_MS: '5000', KASA_PRINTER_ALLOW_LOOPBACK: '1' },
    engine: false,
  });
  const printer = await startCaptureServer();
  later(() => printer.close());
  await ok(core, 'printer.configure', {
    uri: `tcp://127.0.0.1:${printer.port}`,
    profileId: 'epson-tm-t88v',
    autoPrint: true,
    approval: { managerPin: MANAGER_PIN },
  });
  return { core, printer };
}

/** Sells, waits for the receipt's print job, returns the order, the body sent and the decoded print. */
async function sellAndPrint(core: Core, printer: CaptureServer, input: Record<string, unknown>) {
  const before = printer.jobs.length;
  const res = await ok<{ orderId: number; state: string; changePara: number }>(core, 'sales.checkout', {
    lines: LINES,
    ...input,
  });
  expect(res.state).toBe('fiscalized');
  await until(() => printer.jobs.length === before + 1);
  const order = await ok<OrderView>(core, 'orders.get', { orderId: res.orderId });
  const request = JSON.parse(
    core.db.prepare<[number], string>('SELECT request FROM orders WHERE id = ?').pluck().get(res.orderId) ?? '{}',
  ) as {
    items: { totalAmount: number }[];
    payments: { type: string; amount: number }[];
  };
  const profile = findPreset('epson-tm-t88v')!;
  const decoded = decodeEscPos(printer.jobs[before]!, { codePages: codePageNumbers(profile) });
  return { res, order, request, decoded };
}

describe('proforma and training take no money (#21 case 10d)', () => {
  it('a training sale sends one nominal `other` payment, computes no change and never kicks the drawer', async () => {
    const { core, printer } = await startTill();
    await ok(core, 'settings.update', { managerPin: MANAGER_PIN, trainingMode: true });
    // A client that still sends cash (an older counter): ignored, the core decides.
    const { res, order, request, decoded } = await sellAndPrint(core, printer, {
      invoiceType: 'training',
      payments: [{ type: 'cash', amount: 500 }],
    });
    expect(res.changePara).toBe(0);
    expect(order.invoiceType).toBe('training');
    expect(order.payments).toEqual([{ type: 'other', amountPara: 29999 }]);
    expect(request.payments).toEqual([{ type: 'other', amount: 299.99 }]);
    expect(request.items.reduce((s, i) => s + i.totalAmount, 0)).toBeCloseTo(299.99, 2);
    expect(decoded.drawerPulses).toEqual([]);
    expect(decoded.problems).toEqual([]);
    expect(decoded.lines.join('\n')).toContain('ОВО НИЈЕ ФИСКАЛНИ РАЧУН');
    // Training mode turns a `normal` sale into training, without payments at all.
    const plain = await sellAndPrint(core, printer, { payments: [] });
    expect(plain.order.invoiceType).toBe('training');
    expect(plain.request.payments).toEqual([{ type: 'other', amount: 299.99 }]);
    expect(plain.decoded.drawerPulses).toEqual([]);
  });

  it('a proforma sends the nominal payment and prints without a drawer pulse; a cash sale still opens the drawer', async () => {
    const { core, printer } = await startTill();
    const proforma = await sellAndPrint(core, printer, { invoiceType: 'proforma', payments: [] });
    expect(proforma.res.changePara).toBe(0);
    expect(proforma.order.invoiceType).toBe('proforma');
    expect(proforma.request.payments).toEqual([{ type: 'other', amount: 299.99 }]);
    expect(proforma.decoded.drawerPulses).toEqual([]);

    const sale = await sellAndPrint(core, printer, { payments: [{ type: 'cash', amount: 500 }] });
    expect(sale.res.changePara).toBe(20001);
    expect(sale.request.payments).toEqual([{ type: 'cash', amount: 299.99 }]);
    expect(sale.decoded.drawerPulses).toEqual([{ pin: 0, on: 0x19, off: 0xfa }]);

    // A normal sale without payments is still refused at its field, and nothing is captured.
    const refused = await core.dispatch('sales.checkout', { lines: LINES, payments: [] });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatchObject({ code: 'invalid_input', field: 'payments' });
  });
});

describe('the printer never kicks the drawer for a document that takes no money', () => {
  it('a training, proforma or copy receipt paid "in cash" (an order from before the fix) prints with no pulse', async () => {
    const server = await startCaptureServer();
    const t = tempDb();
    const types = ['training', 'proforma', 'copy', 'normal', 'advance'];
    const service = createPrintService({
      db: t.db,
      settings: memorySettings({ 'printer.uri': `tcp://127.0.0.1:${server.port}`, 'printer.profile': 'epson-tm-t88v' }),
      emit: statusLog().emit,
      env: {},
      getReceipt: (orderId) => ({
        receipt: { ...makeReceipt({ seed: String(orderId) }), invoiceType: types[orderId - 1]! },
        cash: true,
      }),
    });
    later(() => server.close());
    later(() => t.cleanup());
    later(() => service.stop());
    service.start();
    types.forEach((_, i) => service.enqueueReceipt(i + 1));
    await until(() => server.jobs.length === types.length);
    const profile = findPreset('epson-tm-t88v')!;
    const pulses = server.jobs.map((b) => decodeEscPos(b, { codePages: codePageNumbers(profile) }).drawerPulses.length);
    expect(pulses).toEqual([0, 0, 0, 1, 1]);
  });
});
