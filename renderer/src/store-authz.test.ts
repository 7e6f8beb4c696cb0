/**
 * The counter's side of issue #12 (the core decides; the UI only asks): a refusal naming
 * `approval.managerPin` opens the manager-PIN dialog and the same command goes again with the PIN beside
 * it; any other refusal is only shown; the first-run PIN leads to the PIN change, not the sale screen;
 * the core's `staff.lockout` event raises the status-bar alarm.
 */
import { describe, expect, it } from 'vitest';
import type { CheckoutResult } from '../../shared/contract/index.ts';
import { createPosStore } from './store/index.ts';
import { createFakeApi, ok } from './testing/fake-api.ts';
import { DEMO_RATES, INFO, SYNC } from './testing/fixtures.ts';

const MANAGER = { id: 1, name: 'Менаџер', role: 'manager' as const, active: true, mustChangePin: false };
const SOLD: CheckoutResult = { orderId: 7, orderNumber: 'T1-7', state: 'queued', totalPara: 100, changePara: 0 };
const NEED = {
  ok: false as const,
  error: { code: 'forbidden' as const, message: 'Потребно је одобрење менаџера.', field: 'approval.managerPin' },
};

function till(
  checkout: (input: { approval?: { managerPin: string } }) => ReturnType<typeof ok<CheckoutResult>> | typeof NEED,
) {
  const fake = createFakeApi({
    'app.info': () => ok(INFO),
    'taxRates.get': () => ok(DEMO_RATES),
    'sync.status': () => ok(SYNC),
    'catalog.favourites': () => ok([]),
    'settings.get': () => ({ ok: false, error: { code: 'internal', message: 'x' } }),
    'staff.login': ({ pin }) => (pin === '0000' ? ok({ ...MANAGER, mustChangePin: true }) : ok(MANAGER)),
    'staff.changePin': () => ok(MANAGER),
    'sales.checkout': (input) => checkout(input as { approval?: { managerPin: string } }),
    'orders.get': () => ({ ok: false, error: { code: 'not_found', message: 'x' } }),
  });
  return { fake, store: createPosStore(fake.api) };
}

const line = {
  key: 1,
  name: 'Хлеб',
  quantityMilli: 1000,
  unitPricePara: 100,
  discountPara: 0,
  label: 'Ђ',
  unit: 'piece' as const,
};

describe('approvals travel with the command', () => {
  it('a checkout the core refuses for want of approval is sent again with the manager PIN', async () => {
    const { fake, store } = till((input) => (input.approval?.managerPin === '482916' ? ok(SOLD) : NEED));
    store.setState({ lines: [line] });
    expect(
      await store.getState().checkout({ payments: [{ type: 'cash', amountPara: 100 }], invoiceType: 'normal' }),
    ).toBe(false);
    const pending = store.getState().approval;
    expect(pending).toMatchObject({ kind: 'command', what: 'Потребно је одобрење менаџера.' });
    expect(store.getState().dialog).toBe('approval');
    // A wrong PIN: the core's message, the dialog stays, nothing sold.
    expect(await store.getState().approve('1111')).toBe('Потребно је одобрење менаџера.');
    expect(store.getState().lastSale).toBeNull();
    expect(await store.getState().approve('482916')).toBeNull();
    expect(store.getState().dialog).toBeNull();
    expect(store.getState().lastSale?.result).toEqual(SOLD);
    const sent = fake.calls
      .filter((c) => c.name === 'sales.checkout')
      .map((c) => (c.input as { approval?: unknown }).approval);
    expect(sent).toEqual([undefined, { managerPin: '1111' }, { managerPin: '482916' }]);
  });

  it('any other refusal is shown, no PIN asked', async () => {
    const { store } = till(
      () => ({ ok: false, error: { code: 'forbidden', message: 'Рачун за обуку…', field: 'invoiceType' } }) as never,
    );
    store.setState({ lines: [line] });
    expect(
      await store.getState().checkout({ payments: [{ type: 'cash', amountPara: 100 }], invoiceType: 'normal' }),
    ).toBe(false);
    expect(store.getState().approval).toBeNull();
    expect(store.getState().notice).toMatchObject({ kind: 'error', key: 'error.forbidden' });
  });
});

describe('first-run PIN and lockout', () => {
  it('the first-run PIN leads to the PIN change, not the sale screen', async () => {
    const { fake, store } = till(() => ok(SOLD));
    expect(await store.getState().login('0000')).toBeNull();
    expect(store.getState()).toMatchObject({ cashier: null, mustChangePin: true });
    expect(await store.getState().changeFirstPin('0000', '731946')).toBeNull();
    expect(store.getState()).toMatchObject({ cashier: MANAGER, mustChangePin: false });
    expect(fake.calls.find((c) => c.name === 'staff.changePin')?.input).toEqual({
      currentPin: '0000',
      newPin: '731946',
    });
  });

  it('a lockout event raises the status-bar alarm', async () => {
    const { fake, store } = till(() => ok(SOLD));
    await store.getState().init();
    expect(store.getState().pinLockedUntil).toBeNull();
    fake.emit('staff.lockout', { scope: 'till', until: '2030-01-01T10:00:30.000Z' });
    expect(store.getState().pinLockedUntil).toBe('2030-01-01T10:00:30.000Z');
  });
});
