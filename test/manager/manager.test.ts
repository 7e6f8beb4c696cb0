/**
 * Manager flows through the whole core (createCore → dispatch), on a real SQLite file and the embedded
 * sandbox gateway over HTTP: PINs and approval, refunds (partial, full, offline behind a queued sale),
 * advance + finalize, fiscal copies, e-mail, archive, settings with a new key, reports, and a sale from two
 * years ago still refunded, copied and found in the archive.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import {
  makeRefund,
  tryRefund,
  makeCopy,
  closeCores,
  control,
  fails,
  MANAGER_PIN,
  ok,
  settled,
  startCore,
  tempDir,
} from '../support/session.ts';
import { fiscalCopy, fiscalRefund } from './fiscal-documents.ts';
import type { ArchiveDetail, ArchiveRow } from '../../shared/contract/archive.ts';
import type { CheckoutResult } from '../../shared/contract/index.ts';
import type { OrderView } from '../../shared/domain.ts';
import { explainGatewayError } from '../../shared/gateway-errors.ts';

const sale = (labels = ['A'], invoiceType?: string) => ({
  lines: [
    { name: 'Хлеб', quantity: 3, unitPrice: 80, labels },
    { name: 'Млеко', quantity: 2, unitPrice: 150, labels },
  ],
  payments: [{ type: 'cash', amount: 540 }],
  ...(invoiceType ? { invoiceType } : {}),
});

/** A sale through the checkout, typed as the contract answers it (one type for every sale of this suite). */
const sell = (c: Core, input: Record<string, unknown>): Promise<CheckoutResult> =>
  ok<CheckoutResult>(c, 'sales.checkout', input);

let dir = '';
afterEach(closeCores);

function start(lang = 'sr-Cyrl', signedIn = true, now?: () => number): Promise<Core> {
  dir = tempDir('kasa-mgr-');
  return startCore({ dataDir: dir, env: { KASA_LANG: lang }, signedIn, ...(now ? { now } : {}) });
}

describe('staff and approval', () => {
  it('seeds a default manager with PIN 0000 that must be changed; a wrong PIN is refused', async () => {
    const c = await start('sr-Cyrl', false);
    const me = await ok<{ role: string; mustChangePin: boolean }>(c, 'staff.login', { pin: '0000' });
    expect(me).toMatchObject({ role: 'manager', mustChangePin: true });
    const bad = await c.dispatch('staff.login', { pin: '9999' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const stored = c.db.prepare<[], { pin_hash: string }>('SELECT pin_hash FROM staff').get();
    expect(stored?.pin_hash).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(stored?.pin_hash).not.toContain('0000');
    // A trivial first PIN is refused at its field, in the till's language (issue 38), and nothing changes.
    for (const newPin of ['4321', '1234', '1111', '123456'])
      expect(await fails(c, 'staff.changePin', { currentPin: '0000', newPin })).toMatchObject({
        code: 'invalid_input',
        field: 'newPin',
        message: expect.stringContaining('„Нови PIN“ је лако погодити'),
      });
    expect((await c.dispatch('staff.login', { pin: '0000' })).ok).toBe(true);
    const changed = await ok<{ mustChangePin: boolean }>(c, 'staff.changePin', { currentPin: '0000', newPin: '4827' });
    expect(changed.mustChangePin).toBe(false);
    expect((await c.dispatch('staff.login', { pin: '0000' })).ok).toBe(false);
  });

  it("refuses a trivial PIN for a manager, made, given or changed, in the user's language; a cashier may", async () => {
    const c = await start('sr-Latn');
    const trivial = { code: 'invalid_input', field: 'pin', message: expect.stringContaining('lako pogoditi') };
    for (const pin of ['123456', '654321', '777777', '0000'])
      expect(
        await fails(c, 'staff.create', { managerPin: MANAGER_PIN, name: 'Bora', role: 'manager', pin }),
      ).toMatchObject(trivial);
    const cashier = await ok<{ id: number }>(c, 'staff.create', {
      managerPin: MANAGER_PIN,
      name: 'Ceca',
      role: 'cashier',
      pin: '1234',
    });
    // Made a manager with a new PIN: the PIN is a manager's.
    expect(
      await fails(c, 'staff.update', { managerPin: MANAGER_PIN, id: cashier.id, role: 'manager', pin: '98765' }),
    ).toMatchObject(trivial);
    const boss = await ok<{ id: number }>(c, 'staff.create', {
      managerPin: MANAGER_PIN,
      name: 'Bora',
      role: 'manager',
      pin: '583920',
    });
    expect(await fails(c, 'staff.update', { managerPin: MANAGER_PIN, id: boss.id, pin: '222222' })).toMatchObject(
      trivial,
    );
    // Her own change: the new PIN's field.
    expect(await fails(c, 'staff.changePin', { currentPin: '583920', newPin: '3456' })).toMatchObject({
      ...trivial,
      field: 'newPin',
    });
    expect((await c.dispatch('staff.login', { pin: '583920' })).ok).toBe(true);
    // A cashier's own change is not held to it.
    await ok(c, 'staff.changePin', { currentPin: '1234', newPin: '4444' });
  });

  it('creates a cashier on the gateway; the cashier’s PIN is refused a refund, with the field named', async () => {
    const c = await start();
    const cashier = await ok<{ id: number; gatewayId?: number; role: string }>(c, 'staff.create', {
      managerPin: MANAGER_PIN,
      name: 'Ана Анић',
      role: 'cashier',
      pin: '1111',
      email: 'ana@example.com',
    });
    expect(cashier.gatewayId).toBeGreaterThan(0);
    const list = await ok<{ staff: { name: string }[]; online: boolean }>(c, 'staff.list', { search: 'ана' });
    expect(list.online).toBe(true);
    expect(list.staff.map((s) => s.name)).toContain('Ана Анић');
    const s = await sell(c, sale());
    const refused = await c.dispatch('refunds.create', {
      managerPin: '1111',
      orderId: s.orderId,
      full: true,
      buyerId: '20:008123456',
      paymentType: 'cash',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    if (!refused.ok) expect(refused.error.message).toContain('„PIN менаџера“');
    const audit = await ok<{ entries: { action: string; actor: string | null }[] }>(c, 'audit.list', {
      managerPin: MANAGER_PIN,
    });
    expect(audit.entries.map((e) => e.action)).toEqual(expect.arrayContaining(['approval.refused', 'staff.create']));
  });
});

describe('refunds', () => {
  it('refunds two items of a fiscalized sale, then refuses more than is left, naming the field', async () => {
    const c = await start();
    const s = await sell(c, sale());
    expect(s.state).toBe('fiscalized');
    await fiscalRefund(
      c,
      s,
      { lines: [{ index: 0, quantity: 2 }], buyerId: '11:1234567890125' },
      { kind: 'refund', totalPara: 16000 },
    );
    const source = await ok<{ lines: { remainingMilli: number }[]; fullRefundAllowed: boolean }>(c, 'refunds.source', {
      orderId: s.orderId,
    });
    expect(source.lines.map((l) => l.remainingMilli)).toEqual([1000, 2000]);
    expect(source.fullRefundAllowed).toBe(false);
    const tooMuch = await tryRefund(c, {
      orderId: s.orderId,
      lines: [
        { index: 1, quantity: 1 },
        { index: 0, quantity: 2 },
      ],
      buyerId: '20:008123456',
    });
    expect(tooMuch).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'lines.1.quantity' } });
    if (!tooMuch.ok) expect(tooMuch.error.message).toContain('Хлеб');
    const ledger = (await control(c, 'ledger')) as {
      receipts: { transactionType: string; referentDocumentNumber: string | null }[];
    };
    expect(ledger.receipts.filter((r) => r.transactionType === 'refund')).toEqual([
      expect.objectContaining({ referentDocumentNumber: s.receipt?.invoiceNumber }),
    ]);
  });

  it('offline: a refund of a still-queued sale waits for it, and both are issued in order', async () => {
    const c = await start();
    await control(c, 'offline', { offline: true });
    const s = await sell(c, {
      ...sale(),
      payments: [{ type: 'card', amount: 540 }],
    });
    expect(s.state).toBe('queued');
    const refund = await makeRefund(c, {
      orderId: s.orderId,
      lines: [{ index: 1, quantity: 1 }],
      buyerId: '20:008123456',
      paymentType: 'card',
    });
    expect(refund).toMatchObject({ state: 'queued', referencedOrderId: s.orderId });
    await control(c, 'offline', { offline: false });
    await ok(c, 'sync.now');
    await settled(c, refund.orderId);
    const saleView = await ok<OrderView>(c, 'orders.get', { orderId: s.orderId });
    const ledger = (await control(c, 'ledger')) as {
      receipts: { orderNumber: string; invoiceNumber: string; referentDocumentNumber: string | null }[];
    };
    expect(ledger.receipts.map((r) => r.orderNumber)).toEqual([saleView.orderNumber, refund.orderNumber]);
    expect(ledger.receipts[1]?.referentDocumentNumber).toBe(saleView.receipt?.invoiceNumber);
  });

  it('full refund through the full-refund endpoint; an unknown typed invoice number names the field', async () => {
    const c = await start('en');
    const s = await sell(c, sale());
    const full = await makeRefund(c, {
      invoiceNumber: s.receipt?.invoiceNumber,
      full: true,
      buyerId: '20:008123456',
    });
    expect(full).toMatchObject({ kind: 'refund_full', state: 'fiscalized', totalPara: 54000 });
    expect(full.receipt?.invoiceCounterExtension).toBe('ПР');
    const unknown = await tryRefund(c, {
      invoiceNumber: 'XX-YY-999',
      full: true,
      buyerId: '20:008123456',
    });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'invoiceNumber' } });
    if (!unknown.ok) expect(unknown.error.message).toContain('XX-YY-999');
    // A sale without a buyer ID, refunded without one: refused at the field (the manager's setting is off).
    const s2 = await sell(c, sale());
    const noBuyer = await tryRefund(c, {
      orderId: s2.orderId,
      full: true,
    });
    expect(noBuyer).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'buyerId' } });
  });
});

describe('advance, copy, e-mail', () => {
  it('advance then finalize: both receipts of the finalize are stored', async () => {
    const c = await start();
    const adv = await sell(c, sale(['A'], 'advance'));
    expect(adv.receipt?.invoiceCounterExtension).toBe('АП');
    const open = await ok<{ advances: OrderView[] }>(c, 'advances.list');
    expect(open.advances.map((a) => a.orderId)).toEqual([adv.orderId]);
    const fin = await ok<OrderView>(c, 'advances.finalize', { orderId: adv.orderId });
    expect(fin.state).toBe('fiscalized');
    expect(fin.receipt?.invoiceCounterExtension).toBe('ПП');
    expect(fin.extraReceipts?.map((r) => r.invoiceCounterExtension)).toEqual(['АР']);
    expect((await ok<{ advances: OrderView[] }>(c, 'advances.list')).advances).toEqual([]);
  });

  it('an advance with a label other than A/E/F needs attention with an explained ERR_00302', async () => {
    const c = await start();
    const adv = await sell(c, sale(['Ж'], 'advance'));
    await settled(c, adv.orderId, 'needs_attention');
    const view = await ok<OrderView>(c, 'orders.get', { orderId: adv.orderId });
    expect(view.lastError).toMatchObject({ status: 409, code: 'ERR_00302' });
    expect(explainGatewayError(view.lastError!, 'sr-Cyrl').title).toContain('A, E или F');
  });

  it('a fiscal copy references the original; offline it is queued and issued later', async () => {
    const c = await start();
    const s = await sell(c, sale());
    const copy = await fiscalCopy(c, s);
    expect(copy.receipt?.journal).toContain('ОВО НИЈЕ ФИСКАЛНИ РАЧУН');
    await control(c, 'offline', { offline: true });
    const queued = await makeCopy(c, { orderId: s.orderId });
    expect(queued.state).toBe('queued');
    await control(c, 'offline', { offline: false });
    await ok(c, 'sync.now');
    await settled(c, queued.orderId);
  });

  it('e-mails a receipt through the gateway; offline the e-mail waits in the queue', async () => {
    const c = await start();
    const s = await sell(c, sale());
    const sent = await ok<{ state: string }>(c, 'emails.send', {
      orderId: s.orderId,
      email: 'kupac@example.com',
      cc: ['cc@example.com'],
      approval: { managerPin: MANAGER_PIN },
    });
    expect(sent.state).toBe('sent');
    await control(c, 'offline', { offline: true });
    const waiting = await ok<{ id: number; state: string }>(c, 'emails.send', {
      orderId: s.orderId,
      email: 'drugi@example.com',
      approval: { managerPin: MANAGER_PIN },
    });
    expect(waiting.state).toBe('queued');
    await control(c, 'offline', { offline: false });
    c.db.prepare('UPDATE email_outbox SET due_at = 0').run();
    await ok(c, 'emails.send', {
      invoiceNumber: s.receipt?.invoiceNumber,
      email: 'treci@example.com',
      approval: { managerPin: MANAGER_PIN },
    });
    const emails = (await control(c, 'emails')) as { emails: { email: string; invoiceNumber: string; cc: string[] }[] };
    expect(emails.emails.map((e) => e.email)).toEqual(['kupac@example.com', 'drugi@example.com', 'treci@example.com']);
    expect(emails.emails[0]).toMatchObject({ invoiceNumber: s.receipt?.invoiceNumber, cc: ['cc@example.com'] });
  });
});

describe('archive, settings, reports', () => {
  it('searches local and gateway archives, shows one receipt with its chain, and looks up order numbers', async () => {
    const c = await start();
    const s = await sell(c, sale());
    await sell(c, { ...sale(), payments: [{ type: 'card', amount: 540 }] });
    const local = await ok<{ rows: { orderNumber: string }[]; total: number }>(c, 'archive.search', {
      source: 'local',
      paymentType: 'cash',
    });
    expect(local.rows.map((r) => r.orderNumber)).toEqual([s.orderNumber]);
    const remote = await ok<{ rows: { invoiceNumber: string }[]; total: number; pages: number }>(c, 'archive.search', {
      source: 'gateway',
      limit: 1,
    });
    expect(remote).toMatchObject({ total: 2, pages: 2 });
    const detail = await ok<{
      receipt: { journal: string };
      qrCodeFileUrl?: string;
      chain: unknown[];
      orderId?: number;
    }>(c, 'archive.get', {
      invoiceNumber: s.receipt?.invoiceNumber,
    });
    expect(detail.receipt.journal).toContain('ФИСКАЛНИ РАЧУН');
    expect(detail.qrCodeFileUrl).toMatch(/\.png$/);
    expect(detail.orderId).toBe(s.orderId);
    const lookup = await ok<{ records: { orderNumber: string; fiscalized: boolean }[] }>(c, 'archive.lookup', {
      orderNumbers: [s.orderNumber, 'NOPE-1'],
    });
    expect(lookup.records.map((r) => r.fiscalized)).toEqual([true, false]);
  });

  it('takes a new API key without ever returning it, judges the account from its labels, and refuses bad keys', async () => {
    const c = await start('sr-Latn');
    const url = c.sandboxUrl ?? '';
    const bad = await c.dispatch('settings.setApiKey', {
      managerPin: MANAGER_PIN,
      apiKey: 'wrong-key',
      gatewayUrl: url,
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'apiKey' } });
    if (!bad.ok) expect(bad.error.message).toContain('API ključ');
    const noAccess = await c.dispatch('settings.setApiKey', {
      managerPin: MANAGER_PIN,
      apiKey: 'noaccess-key',
      gatewayUrl: url,
    });
    expect(noAccess).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'apiKey' } });
    const r = await c.dispatch('settings.setApiKey', { managerPin: MANAGER_PIN, apiKey: 'prod-key', gatewayUrl: url });
    expect(JSON.stringify(r)).not.toContain('prod-key');
    expect(r).toMatchObject({
      ok: true,
      value: { mode: 'live', maskedKey: '••••-key', environment: 'production', shopId: '201' },
    });
    expect(c.info().mode).toBe('live');
    const rates = await ok<{ labels: { label: string }[] }>(c, 'taxRates.get');
    expect(rates.labels.map((l) => l.label)).toContain('Ђ');
    const settingsView = await ok<Record<string, unknown>>(c, 'settings.get');
    expect(JSON.stringify(settingsView)).not.toContain('prod-key');
    expect(fs.readFileSync(path.join(dir, 'api-key'), 'utf8').trim()).toBe('prod-key');
  });

  it('end-of-day report: payments, labels, refunds, training excluded; CSV and printing', async () => {
    const c = await start();
    const s = await sell(c, sale());
    // Training receipts only while a manager has training mode on.
    await ok(c, 'settings.update', { managerPin: MANAGER_PIN, trainingMode: true });
    await sell(c, { ...sale(), invoiceType: 'training' });
    await ok(c, 'settings.update', { managerPin: MANAGER_PIN, trainingMode: false });
    await ok(c, 'refunds.create', {
      managerPin: MANAGER_PIN,
      orderId: s.orderId,
      lines: [{ index: 1, quantity: 1 }],
      buyerId: '20:008123456',
      paymentType: 'cash',
    });
    const r = await ok<{
      sales: { totalPara: number };
      refunds: { totalPara: number };
      byPayment: unknown[];
      byLabel: { label: string; netPara: number; taxPara: number }[];
      trainingExcluded: number;
    }>(c, 'reports.summary');
    expect(r.sales.totalPara).toBe(54000);
    expect(r.refunds.totalPara).toBe(15000);
    expect(r.byPayment).toEqual([{ type: 'cash', salesPara: 54000, refundsPara: 15000, netPara: 39000 }]);
    expect(r.byLabel).toEqual([{ label: 'A', rate: 10, netPara: 39000, taxPara: 3545 }]);
    expect(r.trainingExcluded).toBe(1);
    const csv = await ok<{ csv: string }>(c, 'reports.csv');
    // In the UI language: the accountant's file reads like the screen.
    expect(csv.csv.split('\r\n')[0]).toBe('Одељак;Ставка;Број;Износ (RSD);Порез (RSD)');
    expect(csv.csv).toContain('"Плаћање";"Готовина";;390,00;');
    // This till has no printer: printing is refused with where to set one, never reported as sent.
    expect(await fails(c, 'reports.print', {})).toMatchObject({
      code: 'unavailable',
      message: 'Штампач није подешен — Менаџер → Подешавања → Штампач',
    });
  });
});

// Old orders stay fully usable (a fiscal copy is how an old receipt is printed again).
describe('a sale from two years ago', () => {
  const YEAR = 365 * 86_400_000;

  it('is found by number and by day, its detail has journal and QR, and it is refunded and copied today', async () => {
    let clock = Date.now() - 2 * YEAR;
    const c = await start('sr-Cyrl', true, () => clock);
    const sold = await sell(c, sale());
    expect(sold.state).toBe('fiscalized');
    const invoiceNumber = sold.receipt?.invoiceNumber as string;
    const soldAt = new Date(clock);

    clock += 2 * YEAR; // two years later

    const byNumber = await ok<{ rows: ArchiveRow[] }>(c, 'archive.search', {
      source: 'local',
      orderNumber: sold.orderNumber,
    });
    expect(byNumber.rows.map((r) => r.invoiceNumber)).toEqual([invoiceNumber]);
    const dayStart = new Date(soldAt);
    dayStart.setHours(0, 0, 0, 0);
    const byDay = await ok<{ rows: ArchiveRow[] }>(c, 'archive.search', {
      source: 'local',
      startDate: dayStart.toISOString(),
      endDate: new Date(dayStart.getTime() + 86_400_000 - 1).toISOString(),
    });
    expect(byDay.rows.map((r) => r.orderNumber)).toContain(sold.orderNumber);

    const detail = await ok<ArchiveDetail>(c, 'archive.get', { invoiceNumber });
    expect(detail.orderId).toBe(sold.orderId);
    expect(detail.receipt.journal).toContain('Хлеб');
    expect(detail.receipt.verificationUrl).toMatch(/^https:\/\//);

    const refund = await fiscalRefund(
      c,
      sold,
      { lines: [{ index: 0, quantity: 1 }], buyerId: '11:1234567890125' },
      { kind: 'refund', totalPara: 8000 },
    );
    expect(new Date(refund.createdAt).getFullYear()).toBe(soldAt.getFullYear() + 2);

    const copy = await fiscalCopy(c, sold);
    expect(copy.receipt?.journal).toContain('Хлеб');
  });
});
