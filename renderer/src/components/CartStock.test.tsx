// @vitest-environment jsdom
/**
 * The cart line's stock (docs/goods.md "Screens"): a line whose quantity takes its product below zero says so on the
 * line, in words and in its accessible name; the checkout refused at a line's quantity (the shop forbids selling
 * counted goods below zero) brings the cart back with the refusal on that line, until its quantity changes.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { App } from '../App.tsx';
import { createI18n } from '../i18n/index.ts';
import { createPosStore, type PosStore } from '../store/index.ts';
import { createFakeApi, ok, type FakeApi } from '../testing/fake-api.ts';
import { BREAD, DEMO_RATES, INFO, SYNC } from '../testing/fixtures.ts';
import type { Language } from '../../../shared/domain.ts';
import { testRoot } from '../testing/dom.ts';

const REFUSAL = 'Артикал „Хлеб“ је пописан, а на стању има 1: продаја у минус за пописану робу није дозвољена.';

const dom = testRoot();
let fake: FakeApi;
let store: PosStore;

async function open(language: Language): Promise<void> {
  HTMLCanvasElement.prototype.getContext = (() => null) as never;
  fake = createFakeApi({
    'app.info': () => ok({ ...INFO, language }),
    'taxRates.get': () => ok(DEMO_RATES),
    'sync.status': () => ok(SYNC),
    'catalog.favourites': () => ok([BREAD]),
    'staff.login': () => ok({ id: 2, name: 'Ана Анић', role: 'cashier', active: true, mustChangePin: false }),
    'cart.save': () => ok({ rev: 1, saved: true }),
    'sales.checkout': () => ({
      ok: false,
      error: {
        code: 'invalid_input',
        message: REFUSAL,
        field: 'lines.0.quantity',
        issues: [{ field: 'lines.0.quantity', message: REFUSAL }],
      },
    }),
  });
  store = createPosStore(fake.api, undefined, { getItem: () => null, setItem: () => {} });
  await act(async () => dom.root.render(<App store={store} api={fake.api} i18n={createI18n(language)} />));
  await act(async () => void (await store.getState().login('1111')));
}

const flag = () => dom.container.querySelector<HTMLElement>('[data-testid="below-zero"]');

describe('the cart line below zero', () => {
  for (const [language, text] of [
    ['sr-Cyrl', 'Испод нуле: остаје -1'],
    ['sr-Latn', 'Ispod nule: ostaje -1'],
    ['en', 'Below zero: -1 left'],
  ] as const)
    it(`flags the line that takes the product below zero, in words and its name (${language})`, async () => {
      await open(language);
      const bread = { ...BREAD, onHandMilli: 2000 };
      await act(async () => void store.getState().addProduct(bread));
      await act(async () => void store.getState().addProduct(bread));
      expect(flag()).toBeNull();
      await act(async () => void store.getState().addProduct(bread));
      expect(flag()?.textContent).toBe(text);
      expect(flag()?.getAttribute('role')).toBe('note');
      expect(flag()?.getAttribute('aria-label')).toBe(`${text}: ${BREAD.name}`);
    });

  it('a product whose stock is unknown is never flagged', async () => {
    await open('sr-Cyrl');
    for (let i = 0; i < 3; i++) await act(async () => void store.getState().addProduct(BREAD));
    expect(flag()).toBeNull();
  });

  it('a checkout refused at a line’s quantity shows the refusal on that line, until the quantity changes', async () => {
    await open('sr-Cyrl');
    await act(async () => void store.getState().addProduct({ ...BREAD, onHandMilli: 1000 }));
    await act(async () => void store.getState().addProduct({ ...BREAD, onHandMilli: 1000 }));
    await act(async () => store.getState().setScreen('payment'));
    await act(
      async () =>
        void (await store
          .getState()
          .checkout({ payments: [{ type: 'cash', amountPara: 13000 }], invoiceType: 'normal' })),
    );
    expect(store.getState().screen).toBe('sale');
    const refused = dom.container.querySelector<HTMLElement>('[data-testid="line-refused"]');
    expect(refused?.getAttribute('role')).toBe('alert');
    expect(refused?.textContent).toBe(REFUSAL);
    // Said once, on the line: no second notice above the cart (which once also named the raw field path).
    expect(dom.container.querySelectorAll('[role="alert"]')).toHaveLength(1);
    const lines = store.getState().lines;
    await act(async () => store.setState({ lines: lines.map((l) => ({ ...l, quantityMilli: 1000 })) }));
    expect(dom.container.querySelector('[data-testid="line-refused"]')).toBeNull();
  });
});
