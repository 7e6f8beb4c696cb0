// @vitest-environment jsdom
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { StaffView } from '../../../shared/contract/staff.ts';
import type { SettingsView } from '../../../shared/contract/settings.ts';
import { App } from '../App.tsx';
import { createI18n } from '../i18n/index.ts';
import { createPosStore, type PosStore } from '../store/index.ts';
import { testRoot } from '../testing/dom.ts';
import { createFakeApi, ok, type FakeApi } from '../testing/fake-api.ts';
import { DEMO_RATES, INFO, SYNC } from '../testing/fixtures.ts';

const dom = testRoot();
const MIKA: StaffView = { id: 1, name: 'Менаџер', role: 'manager', active: true, mustChangePin: false };
const ANA: StaffView = { id: 2, name: 'Ана', role: 'cashier', active: true, mustChangePin: false };

/** A till that owes its setup until `settings.update` carries `setupDone`. */
async function start(): Promise<{ fake: FakeApi; store: PosStore }> {
  let done = false;
  const fake = createFakeApi({
    'app.info': () => ok({ ...INFO, setupPending: !done }),
    'taxRates.get': () => ok(DEMO_RATES),
    'sync.status': () => ok(SYNC),
    'catalog.favourites': () => ok([]),
    'cart.get': () => ok({ rev: 0, lines: [], cashier: null, updatedAt: null }),
    'shifts.current': () => ok(null),
    'staff.login': ({ pin }) =>
      pin === '4321' ? ok(MIKA) : pin === '1111' ? ok(ANA) : { ok: false, error: { code: 'forbidden', message: 'x' } },
    'settings.update': (input) => {
      if (input.shopName === 'Лоше') {
        return { ok: false, error: { code: 'invalid_input', message: 'Лош назив.', field: 'shopName', issues: [] } };
      }
      if (input.setupDone) done = true;
      return ok({} as SettingsView);
    },
    'staff.update': (input) => ok({ ...MIKA, name: input.name ?? MIKA.name }),
    'printer.installed': () => ok({ printers: [] }),
  });
  const store = createPosStore(fake.api);
  await act(async () => {
    dom.root.render(<App store={store} api={fake.api} i18n={createI18n('sr-Cyrl')} />);
  });
  return { fake, store };
}

const flow = () => dom.container.querySelector('main[aria-labelledby="setup-title"]');
const button = (name: string) =>
  [...dom.container.querySelectorAll('button')].find((b) => b.textContent === name) as HTMLButtonElement;
const type = (label: string, value: string) => {
  const input = [...dom.container.querySelectorAll('label')].find((l) => l.textContent === label)?.control;
  if (!(input instanceof HTMLInputElement)) throw new Error(`no field ${label}`);
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  set?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  return input;
};

describe('the setup flow', () => {
  it('is shown to a manager of a till that owes it, never to a cashier', async () => {
    const { store } = await start();
    await act(async () => void (await store.getState().login('1111')));
    expect(flow()).toBeNull();
    expect(store.getState().setupPin).toBeNull();
    await act(async () => store.getState().logout());
    await act(async () => void (await store.getState().login('4321')));
    expect(flow()).not.toBeNull();
    expect(store.getState().setupPin).toBe('4321');
  });

  it('saves the names with the PIN just chosen, renames the manager, and „Подеси касније“ ends it for good', async () => {
    const { fake, store } = await start();
    await act(async () => void (await store.getState().login('4321')));
    act(() => void type('Назив радње', 'Код Мике'));
    act(() => void type('Име менаџера', 'Мика'));
    await act(async () => button('Даље').click());
    expect(fake.calls.filter((c) => c.name === 'settings.update' || c.name === 'staff.update')).toEqual([
      { name: 'settings.update', input: { managerPin: '4321', shopName: 'Код Мике', tillName: '' } },
      { name: 'staff.update', input: { managerPin: '4321', id: 1, name: 'Мика' } },
    ]);
    expect(store.getState().cashier?.name).toBe('Мика');
    expect(dom.container.textContent).toContain('Корак 2 од 5');
    await act(async () => button('Подеси касније').click());
    expect(fake.calls.filter((c) => c.name === 'settings.update').at(-1)?.input).toEqual({
      managerPin: '4321',
      setupDone: true,
    });
    expect(flow()).toBeNull();
    expect(store.getState().setupPin).toBeNull();
    // The next login does not bring it back.
    await act(async () => store.getState().logout());
    await act(async () => void (await store.getState().login('4321')));
    expect(flow()).toBeNull();
  });

  it('shows a refused name at its field and stays on the step', async () => {
    const { store } = await start();
    await act(async () => void (await store.getState().login('4321')));
    let input: HTMLInputElement | null = null;
    act(() => void (input = type('Назив радње', 'Лоше')));
    await act(async () => button('Даље').click());
    expect(input!.getAttribute('aria-invalid')).toBe('true');
    expect(dom.container.querySelector('#setup-shopName-error')?.textContent).toBe('Лош назив.');
    expect(dom.container.textContent).toContain('Корак 1 од 5');
  });
});
