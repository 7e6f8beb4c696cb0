/**
 * A discount beyond the limit is approved when it is entered (`sales.approveDiscount`), with the reason
 * shown there, and the checkout that sells exactly that line asks nothing more. The approval is bound to
 * what was approved: one sale, this cashier, these figures; anything else needs a manager at checkout, as
 * before. Real core, real SQLite, the sandbox over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { closeCores, fails, MANAGER_PIN, ok, startCore } from '../support/session.ts';

afterEach(closeCores);

const CASHIER_PIN = '731905';

const line = (over: Record<string, unknown> = {}) => ({
  name: 'Сир гауда',
  quantity: 1,
  unitPrice: 1000,
  labels: ['A'],
  discount: 150,
  ...over,
});

const sale = (lines: Record<string, unknown>[], paid: number) => ({
  lines,
  payments: [{ type: 'cash', amount: paid }],
});

const audit = (core: Core, action: string) =>
  core.db
    .prepare<[string], { actor: string | null; approver: string | null; detail: string }>(
      'SELECT actor, approver, detail FROM audit_log WHERE action = ? ORDER BY id',
    )
    .all(action);

const used = (core: Core) =>
  core.db
    .prepare<[], { used_order: string | null }>('SELECT used_order FROM discount_approvals ORDER BY id')
    .all()
    .map((r) => r.used_order);

async function withCashier(core: Core): Promise<void> {
  await ok(core, 'staff.create', { managerPin: MANAGER_PIN, name: 'Ана', role: 'cashier', pin: CASHIER_PIN });
  await ok(core, 'staff.login', { pin: CASHIER_PIN });
}

describe('a discount approved when it is entered', () => {
  it('asks at entry with the reason; the checkout of that line then asks nothing, and both are audited', async () => {
    const core = await startCore();
    await withCashier(core);
    const refused = await fails(core, 'sales.approveDiscount', { lines: [line()], scope: 'line' });
    expect(refused).toMatchObject({ code: 'forbidden', field: 'approval.managerPin' });
    expect(refused.message).toBe(
      'Потребно је одобрење менаџера: попуст на ставци „Сир гауда“ је већи од 10 % њеног износа. Унесите PIN менаџера.',
    );
    expect(used(core)).toEqual([]); // nothing recorded by a refusal

    const approved = await ok(core, 'sales.approveDiscount', {
      lines: [line()],
      scope: 'line',
      approval: { managerPin: MANAGER_PIN },
    });
    expect(approved).toEqual({ approved: 1, approvedBy: 'Менаџер' });

    const sold = await ok<{ orderNumber: string }>(core, 'sales.checkout', sale([line()], 850));
    expect(used(core)).toEqual([sold.orderNumber]);
    expect(audit(core, 'approved.sales.approveDiscount')).toEqual([
      expect.objectContaining({ actor: 'Ана', approver: 'Менаџер' }),
    ]);
    const atCheckout = audit(core, 'approved.sales.checkout');
    expect(atCheckout).toEqual([expect.objectContaining({ actor: 'Ана', approver: 'Менаџер' })]);
    expect(JSON.parse(atCheckout[0]?.detail ?? '{}')).toMatchObject({ needs: 'discount', approvedAtEntry: 1 });
  });

  it('is used once: the same line sold again needs a manager at checkout', async () => {
    const core = await startCore();
    await ok(core, 'sales.approveDiscount', { lines: [line()], scope: 'line', approval: { managerPin: MANAGER_PIN } });
    await ok(core, 'sales.checkout', sale([line()], 850));
    const again = await fails(core, 'sales.checkout', sale([line()], 850));
    expect(again).toMatchObject({ code: 'forbidden', field: 'approval.managerPin' });
  });

  it('covers exactly what was approved: a larger discount, another quantity or price needs a manager again', async () => {
    const core = await startCore();
    await ok(core, 'sales.approveDiscount', { lines: [line()], scope: 'line', approval: { managerPin: MANAGER_PIN } });
    for (const changed of [line({ discount: 300 }), line({ quantity: 2, discount: 300 }), line({ unitPrice: 1200 })]) {
      const total = (changed.unitPrice as number) * (changed.quantity as number) - (changed.discount as number);
      const refused = await fails(core, 'sales.checkout', sale([changed], total));
      expect(refused).toMatchObject({ code: 'forbidden', field: 'approval.managerPin' });
    }
    expect(used(core)).toEqual([null]); // still unused: it covers only the line it was given for
    await ok(core, 'sales.checkout', sale([line()], 850));
  });

  it("is the asking cashier's only: another person's checkout of the same line needs a manager", async () => {
    const core = await startCore();
    await ok(core, 'sales.approveDiscount', { lines: [line()], scope: 'line', approval: { managerPin: MANAGER_PIN } });
    await withCashier(core);
    expect(await fails(core, 'sales.checkout', sale([line()], 850))).toMatchObject({ field: 'approval.managerPin' });
  });

  it('two checkouts racing for one approval: exactly one goes through without a manager', async () => {
    const core = await startCore();
    await ok(core, 'sales.approveDiscount', { lines: [line()], scope: 'line', approval: { managerPin: MANAGER_PIN } });
    const [a, b] = await Promise.all([
      core.dispatch('sales.checkout', sale([line()], 850)),
      core.dispatch('sales.checkout', sale([line()], 850)),
    ]);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    const refused = a.ok ? b : a;
    expect(refused.ok ? null : refused.error).toMatchObject({ code: 'forbidden', field: 'approval.managerPin' });
    expect(used(core).filter((u) => u !== null)).toHaveLength(1);
  });

  it('a whole-sale discount says so; within the limit nothing is asked and nothing is kept', async () => {
    const core = await startCore({ env: { KASA_LANG: 'sr-Latn' } });
    const lines = [line({ discount: 120 }), line({ name: 'Хлеб', unitPrice: 100, discount: 12 })];
    const refused = await fails(core, 'sales.approveDiscount', { lines, scope: 'sale' });
    expect(refused.message).toBe(
      'Potrebno je odobrenje menadžera: popust na celu prodaju je veći od dozvoljenih 10 %. Unesite PIN menadžera.',
    );
    const within = [line({ discount: 100 }), line({ name: 'Хлеб', unitPrice: 100, discount: 10 })];
    expect(await ok(core, 'sales.approveDiscount', { lines: within, scope: 'sale' })).toEqual({
      approved: 0,
      approvedBy: null,
    });
    expect(used(core)).toEqual([]);
    // Approved: only the lines beyond the limit are kept, and the sale of both needs nothing more.
    expect(
      await ok(core, 'sales.approveDiscount', { lines, scope: 'sale', approval: { managerPin: MANAGER_PIN } }),
    ).toEqual({ approved: 2, approvedBy: 'Menadžer' });
    await ok(core, 'sales.checkout', sale(lines, 968));
  });

  it('exactly the limit is within it: 25,00 off 249,99 at 10 % asks nothing, 25,01 asks (was: 25,00 asked)', async () => {
    // 10 % of 249,99 is 24,999: the limit is rounded up to the para, in the customer's favour.
    const core = await startCore();
    await withCashier(core);
    const at = (discount: number) => line({ name: 'Јаја', unitPrice: 249.99, discount });
    expect(await ok(core, 'sales.approveDiscount', { lines: [at(25)], scope: 'line' })).toEqual({
      approved: 0,
      approvedBy: null,
    });
    await ok(core, 'sales.checkout', sale([at(25)], 224.99));
    expect(audit(core, 'approved.sales.checkout')).toEqual([]);
    const beyond = await fails(core, 'sales.approveDiscount', { lines: [at(25.01)], scope: 'line' });
    expect(beyond).toMatchObject({ code: 'forbidden', field: 'approval.managerPin' });
    expect(await fails(core, 'sales.checkout', sale([at(25.01)], 224.98))).toMatchObject({
      code: 'forbidden',
      field: 'approval.managerPin',
    });
    // Two pieces: 10 % of 499,98 is exactly 49,998, so 50,00 is the limit.
    const two = (discount: number) => line({ name: 'Јаја', unitPrice: 249.99, quantity: 2, discount });
    await ok(core, 'sales.checkout', sale([two(50)], 449.98));
    expect(await fails(core, 'sales.checkout', sale([two(50.01)], 449.97))).toMatchObject({ code: 'forbidden' });
  });

  it('a wrong PIN at entry approves nothing and records nothing', async () => {
    const core = await startCore();
    const wrong = await fails(core, 'sales.approveDiscount', {
      lines: [line()],
      scope: 'line',
      approval: { managerPin: '111111' },
    });
    expect(wrong.code).toBe('forbidden');
    expect(used(core)).toEqual([]);
    expect(await fails(core, 'sales.checkout', sale([line()], 850))).toMatchObject({ field: 'approval.managerPin' });
  });
});
