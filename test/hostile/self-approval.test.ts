/**
 * A manager logged in at this till is not asked for her own PIN again (issue 38 §7), decided in the core
 * (electron/auth/guard.ts `selfApprover`, the list `SELF_APPROVED` beside the authz rules in
 * shared/contract/authz.ts): a manager screen's command without a PIN goes through for her, audited with her as
 * actor and approver. A cashier's session, no session, and the first-run PIN's session are still asked; so is
 * what the counter asks a manager for (catalog, copies, the drawer, a discount beyond the limit).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ShiftView } from '../../shared/contract/shifts.ts';
import type { OrderView } from '../../shared/domain.ts';
import { BREAD_AND_MILK, MANAGER_PIN, closeCores, fails, ok, startCore } from '../support/session.ts';

afterEach(closeCores);

interface AuditRow {
  actor: string | null;
  approver: string | null;
  action: string;
}

describe('a logged-in manager approves her own actions', () => {
  it('refund, shifts, audit log, printer and settings without a PIN; audited with her as approver', async () => {
    const core = await startCore();
    const sale = await ok<OrderView>(core, 'sales.checkout', BREAD_AND_MILK);
    const refund = await ok<OrderView>(core, 'refunds.create', {
      orderId: sale.orderId,
      lines: [{ index: 0, quantity: 1 }],
      buyerId: '20:008123456',
      paymentType: 'cash',
    });
    expect(refund.kind).toBe('refund');
    expect((await ok<{ shifts: ShiftView[] }>(core, 'shifts.list', {})).shifts).toEqual([]);
    await ok(core, 'audit.list', {});
    await ok(core, 'settings.update', { discountLimitPercent: 15 });
    await ok(core, 'printer.configure', { uri: '192.168.1.50:9100', profileId: 'epson-tm-t88v' });
    const rows = core.db
      .prepare<[], AuditRow>("SELECT actor, approver, action FROM audit_log WHERE action LIKE 'approved.%' ORDER BY id")
      .all();
    expect(rows).toContainEqual({ actor: 'Менаџер', approver: 'Менаџер', action: 'approved.refunds.create' });
    expect(rows).toContainEqual({ actor: 'Менаџер', approver: 'Менаџер', action: 'approved.printer.configure' });
  });

  it('a cashier is still asked, and her own PIN approves nothing', async () => {
    const core = await startCore();
    const sale = await ok<OrderView>(core, 'sales.checkout', BREAD_AND_MILK);
    await ok(core, 'staff.create', { managerPin: MANAGER_PIN, name: 'Ана Анић', role: 'cashier', pin: '7315' });
    await ok(core, 'staff.login', { pin: '7315' });
    const refund = {
      orderId: sale.orderId,
      lines: [{ index: 0, quantity: 1 }],
      buyerId: '20:008123456',
      paymentType: 'cash',
    };
    expect(await fails(core, 'refunds.create', refund)).toMatchObject({
      code: 'forbidden',
      field: 'approval.managerPin',
    });
    expect(await fails(core, 'refunds.create', { ...refund, managerPin: '7315' })).toMatchObject({
      code: 'forbidden',
    });
    expect(await fails(core, 'shifts.list', {})).toMatchObject({ code: 'forbidden' });
    // With the manager's PIN she may.
    await ok(core, 'refunds.create', { ...refund, managerPin: MANAGER_PIN });
  });

  it('no session, or the first-run PIN, approves nothing', async () => {
    const core = await startCore({ signedIn: false });
    expect(await fails(core, 'shifts.list', {})).toMatchObject({ code: 'forbidden' });
    const fresh = await startCore({ signedIn: false });
    await ok(fresh, 'staff.login', { pin: '0000' });
    expect(await fails(fresh, 'audit.list', {})).toMatchObject({ code: 'forbidden' });
  });

  it('what the counter asks a manager for still asks her: a catalog change, a fiscal copy, the drawer', async () => {
    const core = await startCore();
    const sale = await ok<OrderView>(core, 'sales.checkout', BREAD_AND_MILK);
    const product = { code: 'H1', name: 'Хлеб', price: 89, label: 'A', unit: 'piece', favourite: false, barcodes: [] };
    expect(await fails(core, 'catalog.put', product)).toMatchObject({ field: 'approval.managerPin' });
    expect(await fails(core, 'copies.create', { orderId: sale.orderId })).toMatchObject({
      field: 'approval.managerPin',
    });
    await ok(core, 'shifts.open', { openingFloat: 100 });
    expect(await fails(core, 'shifts.cash', { kind: 'in', amount: 5, reason: 'кусур' })).toMatchObject({
      code: 'forbidden',
    });
  });

  it("a discount beyond the limit still asks for a manager's PIN at the counter, even hers", async () => {
    const core = await startCore();
    const e = await fails(core, 'sales.checkout', {
      ...BREAD_AND_MILK,
      lines: [{ ...BREAD_AND_MILK.lines[0], discount: 100 }, BREAD_AND_MILK.lines[1]],
      payments: [{ type: 'cash', amount: 440 }],
    });
    expect(e).toMatchObject({ code: 'forbidden', field: 'approval.managerPin' });
  });
  it("the goods screens' posts go through for her without a PIN, and a cashier's session is still asked", async () => {
    const core = await startCore();
    const supplier = { name: 'Добављач д.о.о.', pib: '113460262', address: null, account: null, contact: null };
    const saved = await ok<{ id: number }>(core, 'suppliers.put', supplier);
    expect(saved.id).toBeGreaterThan(0);
    await ok(core, 'staff.create', { managerPin: MANAGER_PIN, name: 'Ана Анић', role: 'cashier', pin: '7315' });
    await ok(core, 'staff.login', { pin: '7315' });
    expect(await fails(core, 'suppliers.put', { ...supplier, name: 'Други', pib: '100000024' })).toMatchObject({
      code: 'forbidden',
    });
    const rows = core.db
      .prepare<[], AuditRow>("SELECT actor, approver, action FROM audit_log WHERE action = 'suppliers.put' ORDER BY id")
      .all();
    expect(rows).toContainEqual({ actor: 'Менаџер', approver: 'Менаџер', action: 'suppliers.put' });
  });
});
