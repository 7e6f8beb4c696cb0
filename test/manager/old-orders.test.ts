/**
 * Old orders stay fully usable (issue #13): a sale fiscalized two years ago (the core's clock set back,
 * the embedded sandbox gateway over HTTP) is found in the local archive by its number and by its day, its
 * detail has the journal and the QR link, and today it can still be refunded and copied (a fiscal copy is
 * how an old receipt is printed again), each referring to the original's invoice number.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createCore, type Core } from '../../electron/core.ts';
import type { Result } from '../../shared/contract/index.ts';
import type { ArchiveDetail, ArchiveRow } from '../../shared/contract/manager.ts';
import type { OrderView } from '../../shared/domain.ts';

let core: Core | null = null;
let dir = '';
afterEach(async () => {
  await core?.close();
  core = null;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function ok<T>(c: Core, name: string, input: unknown = {}): Promise<T> {
  const r = (await c.dispatch(name, input)) as Result<T>;
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
  return r.value;
}

const YEAR = 365 * 86_400_000;

it('a two-year-old sale: archive by number and by day, detail with journal and QR, refund and fiscal copy today', async () => {
  let clock = Date.now() - 2 * YEAR;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-old-'));
  const c = await createCore({
    dataDir: dir,
    transport: 'host',
    now: () => clock,
    env: { KASA_LANG: 'sr-Cyrl', KASA_ONLINE_BUDGET_MS: '3000' },
    logger: { info() {}, warn() {}, error() {}, redact() {} } as unknown as Core['logger'],
  });
  core = c;
  const sold = await ok<{ orderId: number; orderNumber: string; state: string; receipt?: { invoiceNumber: string } }>(c, 'sales.checkout', {
    lines: [
      { name: 'Хлеб', quantity: 3, unitPrice: 80, labels: ['A'] },
      { name: 'Млеко', quantity: 2, unitPrice: 150, labels: ['A'] },
    ],
    payments: [{ type: 'cash', amount: 540 }],
    cashier: 'Ана',
  });
  expect(sold.state).toBe('fiscalized');
  const invoiceNumber = sold.receipt?.invoiceNumber as string;
  const soldAt = new Date(clock);

  clock += 2 * YEAR; // two years later

  const byNumber = await ok<{ rows: ArchiveRow[] }>(c, 'archive.search', { source: 'local', orderNumber: sold.orderNumber });
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

  const refund = await ok<OrderView>(c, 'refunds.create', {
    managerPin: '0000',
    orderId: sold.orderId,
    lines: [{ index: 0, quantity: 1 }],
    buyerId: '11:1234567890125',
    paymentType: 'cash',
  });
  expect(refund).toMatchObject({ kind: 'refund', state: 'fiscalized', totalPara: 8000, referentDocumentNumber: invoiceNumber });
  expect(new Date(refund.createdAt).getFullYear()).toBe(soldAt.getFullYear() + 2);

  const copy = await ok<OrderView>(c, 'copies.create', { orderId: sold.orderId });
  expect(copy).toMatchObject({ kind: 'copy', invoiceType: 'copy', state: 'fiscalized', referentDocumentNumber: invoiceNumber });
  expect(copy.receipt?.journal).toContain('Хлеб');
});
