/**
 * „ЕСИР број“ on an L-PFR receipt is the ESIR's identity from the Tax Administration's approval, printed as
 * „IB/верзија“ (docs/lpfr.md, "The ESIR's own identity"), never the order number: a manager enters it
 * (`settings.setEsir`, refused at its field when malformed), the L-PFR prints it in the journal, and the order is
 * still known by its RequestId. Whole core on a real SQLite file, the L-PFR sandbox over HTTP.
 */
import { describe, expect, it } from 'vitest';
import type { LpfrView } from '../../shared/contract/settings.ts';
import type { CheckoutResult } from '../../shared/contract/sales.ts';
import type { OrderView } from '../../shared/domain.ts';
import { BREAD_AND_MILK, MANAGER_PIN, ok } from '../support/session.ts';
import { lpfrCoreSuite, lpfrTill, offlineWithLpfrReady } from './helpers.ts';

const { kit } = lpfrCoreSuite();

describe('the ESIR number', () => {
  it('is entered by a manager, printed by the L-PFR as IB/version, and the order keeps its own number', async () => {
    const lpfr = await kit.sandbox({ dataDir: kit.dir() });
    const core = await lpfrTill(lpfr, 'kasa-esir-', { KASA_TERMINAL_ID: 'ESIR1' });
    expect((await ok<LpfrView>(core, 'settings.lpfr')).esirNumber).toBeNull();

    // Malformed: refused at the field, in words; nothing saved. An IB without its version: refused at the version.
    const bad = await core.dispatch('settings.setEsir', { managerPin: MANAGER_PIN, esirId: '10a', esirVersion: '1.2' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error).toMatchObject({ code: 'invalid_input', field: 'esirId' });
      expect(bad.error.message).toContain('ИБ');
    }
    const noVersion = await core.dispatch('settings.setEsir', { managerPin: MANAGER_PIN, esirId: '1060' });
    expect(noVersion.ok).toBe(false);
    if (!noVersion.ok) expect(noVersion.error).toMatchObject({ code: 'invalid_input', field: 'esirVersion' });
    const cashierless = await core.dispatch('settings.setEsir', {
      managerPin: '000000',
      esirId: '1060',
      esirVersion: '1.2',
    });
    expect(cashierless.ok).toBe(false);
    expect((await ok<LpfrView>(core, 'settings.lpfr')).esirNumber).toBeNull();

    const set = await ok<LpfrView>(core, 'settings.setEsir', {
      managerPin: MANAGER_PIN,
      esirId: '1060',
      esirVersion: '1.2',
    });
    expect(set.esirNumber).toBe('1060/1.2');
    const audit = core.db
      .prepare<[], { detail: string }>("SELECT detail FROM audit_log WHERE action = 'settings.esir'")
      .all();
    expect(audit.map((a) => JSON.parse(a.detail) as unknown)).toEqual([{ esirNumber: '1060/1.2' }]);

    await offlineWithLpfrReady(core);
    const sale = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(sale).toMatchObject({ state: 'fiscalized', processor: 'lpfr' });
    const [signed] = lpfr.controls.ledger().invoices;
    expect(signed).toMatchObject({ requestId: sale.orderNumber, esirNumber: '1060/1.2' });
    const order = await ok<OrderView>(core, 'orders.get', { orderId: sale.orderId });
    expect(order.receipt?.journal).toMatch(/ЕСИР број: +1060\/1\.2/);
    expect(order.receipt?.journal).not.toContain(sale.orderNumber);
    const stored = core.db.prepare('SELECT receipt FROM orders WHERE id = ?').pluck().get(sale.orderId) as string;
    expect((JSON.parse(stored) as { orderNumber?: string }).orderNumber).toBe(sale.orderNumber);

    // Cleared: the L-PFR gets none (the field is optional), and the order number is never put in its place.
    expect(
      (await ok<LpfrView>(core, 'settings.setEsir', { managerPin: MANAGER_PIN, esirId: '' })).esirNumber,
    ).toBeNull();
    const next = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(next.state).toBe('fiscalized');
    expect(lpfr.controls.ledger().invoices[1]).toMatchObject({ requestId: next.orderNumber, esirNumber: null });
  });
});
