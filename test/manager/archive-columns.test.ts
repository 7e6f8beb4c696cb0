/**
 * The archive's list names each receipt's time, cashier and payment types (local orders on a real SQLite
 * file, and the cashier in the gateway's archive of the embedded sandbox over HTTP), and the till screen writes
 * them in words.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ArchiveRow } from '../../shared/contract/archive.ts';
import type { OrderView } from '../../shared/domain.ts';
import { formatMoment } from '../../shared/i18n/time.ts';
import { paymentNames } from '../../renderer/src/manager/ArchiveTab.tsx';
import { closeCores, MANAGER_PIN, ok, settled, startCore } from '../support/session.ts';

afterEach(closeCores);

describe('archive columns', () => {
  it('each row carries its moment, its cashier and its payment types, locally and at the gateway', async () => {
    const c = await startCore({ prefix: 'kasa-archive-cols-', env: { KASA_LANG: 'sr-Cyrl' } });
    // The cashier is the person logged in (the sale sends no name).
    await ok(c, 'staff.create', { managerPin: MANAGER_PIN, name: 'Ана Анић', role: 'cashier', pin: '731905' });
    await ok(c, 'staff.login', { pin: '731905' });
    const sold = await ok<OrderView>(c, 'sales.checkout', {
      lines: [{ name: 'Хлеб', quantity: 2, unitPrice: 80, labels: ['A'] }],
      payments: [
        { type: 'cash', amount: 100 },
        { type: 'card', amount: 60 },
      ],
    });
    await settled(c, sold.orderId);
    const local = await ok<{ rows: ArchiveRow[] }>(c, 'archive.search', {
      source: 'local',
      orderNumber: sold.orderNumber,
    });
    expect(local.rows).toHaveLength(1);
    const row = local.rows[0] as ArchiveRow;
    expect(row).toMatchObject({ cashier: 'Ана Анић', paymentTypes: ['cash', 'card'] });
    expect(row.sdcDateTime ?? row.createdAt).toBeTruthy();
    const remote = await ok<{ rows: ArchiveRow[] }>(c, 'archive.search', {
      source: 'gateway',
      orderNumber: sold.orderNumber,
    });
    // The gateway's list names the cashier from the receipt's `metaFields` (its payments only when it lists them).
    expect(remote.rows.map((r) => r.cashier)).toEqual(['Ана Анић']);

    // As the screen writes them: Belgrade time on a 24-hour clock, payment types in the UI language.
    expect(paymentNames('sr-Cyrl', row.paymentTypes)).toBe('Готовина, Платна картица');
    expect(paymentNames('en', ['cash', 'cash'])).toBe('Cash');
    expect(paymentNames('sr-Latn', [])).toBe('—');
    expect(formatMoment('2026-11-25T22:30:00Z', 'sr-Cyrl')).toBe('25.11.2026. 23:30');
  });
});
