/**
 * The manager's-approval prompt says why: a checkout refused for want of a manager names the line and the
 * rule (a discount beyond the till's limit, a price other than the catalog's), in the user's language, and
 * still names the field the counter answers with a PIN. Real core, real SQLite, the sandbox over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeCores, fails, MANAGER_PIN, ok, startCore } from '../support/session.ts';

afterEach(closeCores);

const line = (over: Record<string, unknown> = {}) => ({
  name: 'Сир гауда',
  quantity: 1,
  unitPrice: 1000,
  labels: ['A'],
  ...over,
});

describe('why a checkout needs a manager', () => {
  it('a discount beyond the limit names the line and the limit; approved, the sale goes through', async () => {
    const core = await startCore();
    const sale = { lines: [line(), line({ name: 'Хлеб', discount: 150 })], payments: [{ type: 'cash', amount: 1850 }] };
    const refused = await fails(core, 'sales.checkout', sale);
    expect(refused).toMatchObject({ code: 'forbidden', field: 'approval.managerPin' });
    expect(refused.message).toBe(
      'Потребно је одобрење менаџера: попуст на ставци „Хлеб“ је већи од 10 % њеног износа. Унесите PIN менаџера.',
    );
    await ok(core, 'sales.checkout', { ...sale, approval: { managerPin: MANAGER_PIN } });
  });

  it('in English too; a discount within the limit asks nothing', async () => {
    const core = await startCore({ env: { KASA_LANG: 'en' } });
    const over = await fails(core, 'sales.checkout', {
      lines: [line({ discount: 100.01 })],
      payments: [{ type: 'cash', amount: 899.99 }],
    });
    expect(over.message).toBe(
      'A manager’s approval is needed for this: the discount on „Сир гауда“ is more than 10 % of the line. Enter a manager’s PIN.',
    );
    await ok(core, 'sales.checkout', { lines: [line({ discount: 100 })], payments: [{ type: 'cash', amount: 900 }] });
  });
});
