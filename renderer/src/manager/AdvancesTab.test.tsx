// @vitest-environment jsdom
/**
 * The manager's advances (issue 38 §4): the open list says what each advance is for; the final receipt's editor
 * shows prices with the decimal comma and labels as every screen writes them, and takes items from the catalog
 * (the product named, at the catalog's price).
 */
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { createFakeApi, ok } from '../testing/fake-api.ts';
import { DEMO_RATES, order, product } from '../testing/fixtures.ts';
import { mt, type ManagerText } from './i18n.ts';
import { AdvancesTab } from './AdvancesTab.tsx';
import { testRoot } from '../testing/dom.ts';
import { buttonNamed, type } from './test-dom.ts';

const dom = testRoot();
let finalized: unknown[];
beforeEach(() => {
  finalized = [];
});

const ADVANCE = order({
  orderId: 11,
  orderNumber: 'T1-20250301-0011',
  kind: 'sale',
  invoiceType: 'advance',
  state: 'fiscalized',
  createdAt: '2025-03-01T09:30:00Z',
  totalPara: 1_000_000,
  lines: [
    {
      name: 'Кухиња по мери',
      quantityMilli: 1000,
      unitPricePara: 1_000_000,
      discountPara: 0,
      totalPara: 1_000_000,
      labels: ['A'],
    },
  ],
});

async function mount() {
  const fake = createFakeApi({
    'advances.list': () => ok({ advances: [ADVANCE], chains: [] }),
    'taxRates.get': () => ok({ ...DEMO_RATES, usualLabel: 'E' }),
    'catalog.search': () => ok([product({ id: 5, name: 'Хлеб бели 500 г', pricePara: 6500, label: 'E' })]),
    'advances.finalize': (input) => {
      finalized.push(input);
      return ok(order({ orderId: 12 }));
    },
  });
  const t = (key: ManagerText, params?: Record<string, string | number>) => mt('sr-Cyrl', key, params);
  await act(async () => dom.root.render(<AdvancesTab api={fake.api} t={t} lang="sr-Cyrl" />));
}

const input = (name: string) => dom.container.querySelector<HTMLInputElement>(`[aria-label="${name}"]`)!;
const select = (name: string) => dom.container.querySelector<HTMLSelectElement>(`select[aria-label="${name}"]`)!;
const button = (text: string) => buttonNamed(dom.container, text);

describe('advances at the counter of a busy week (issue 38 §4)', () => {
  it('the open list names what the advance is for, when, and how much', async () => {
    await mount();
    const item = dom.container.querySelector('.mgr-list > li');
    expect(item?.textContent).toContain(
      'Кухиња по мери · 01.03.2025. 10:30 · T1-20250301-0011 · 10.000,00 · ФИСКАЛИЗОВАН',
    );
  });

  it('the editor shows the decimal comma and the label in words; a catalog item comes with its product and price', async () => {
    await mount();
    await act(async () => button('Изабери T1-20250301-0011')?.click());
    expect(input('Цена 1').value).toBe('10.000,00');
    expect(input('Количина 1').value).toBe('1');
    const label = select('Ознака 1');
    expect(label.value).toBe('A');
    expect(label.selectedOptions[0]?.textContent).toBe('A — Порез на промет 10 %');

    const search = [...dom.container.querySelectorAll<HTMLInputElement>('input[type="search"]')][0]!;
    await act(async () => type(search, 'хлеб'));
    await act(async () => button('Додај Хлеб бели 500 г (65,00)')?.click());
    expect(input('Назив 2').value).toBe('Хлеб бели 500 г');
    expect(input('Цена 2').value).toBe('65,00');
    expect(select('Ознака 2').selectedOptions[0]?.textContent).toBe('E — N-TAX 6 %');
    expect(dom.container.querySelector('[data-testid="adv-sums"]')?.textContent).toContain('10.065,00');

    const form = dom.container.querySelector<HTMLFormElement>('form[aria-label="Ставке коначног рачуна"]')!;
    await act(async () => form.requestSubmit());
    expect(finalized).toEqual([
      expect.objectContaining({
        orderId: 11,
        lines: [
          { name: 'Кухиња по мери', quantity: 1, unitPrice: 10000, labels: ['A'] },
          { name: 'Хлеб бели 500 г', quantity: 1, unitPrice: 65, labels: ['E'], productId: 5 },
        ],
      }),
    ]);
  });
});
