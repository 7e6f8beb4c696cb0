// @vitest-environment jsdom
/**
 * Менаџер → Цене marks where each rule was set (docs/prices.md „At the hub“): a source column „хаб“ / „каса“ in
 * the lists', promotions' and scheduled changes' tables, and a hub rule shows why the till does not change it in
 * place of its edit, delete and cancel buttons; in the three languages. The core refuses such a change anyway
 * (`prices_hub_owned`, test/hub/hub-prices.test.ts); this is what the manager sees before trying.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { PricesOverview, PromotionView, ScheduledPriceView } from '../../../shared/contract/prices.ts';
import type { Language } from '../../../shared/domain.ts';
import { createFakeApi, ok } from '../testing/fake-api.ts';
import { testRoot } from '../testing/dom.ts';
import { mt, type ManagerText } from './i18n.ts';
import { PricesTab } from './PricesTab.tsx';

const dom = testRoot();

const promotion = (id: number, name: string, fromHub: boolean): PromotionView => ({
  id,
  name,
  priority: 1,
  code: 'HL',
  productName: 'Хлеб',
  group: null,
  kind: 'price',
  pricePara: 90_00,
  percentBp: null,
  buy: null,
  pay: null,
  nth: null,
  minQtyMilli: null,
  fromDay: '2026-12-01',
  toDay: '2026-12-03',
  weekdays: [],
  fromTime: null,
  toTime: null,
  inForce: false,
  fromHub,
});
const scheduled = (id: number, fromHub: boolean): ScheduledPriceView => ({
  id,
  code: 'HL',
  name: fromHub ? 'Земичка' : 'Кифла',
  pricePara: 130_00,
  oldPricePara: 120_00,
  at: '2026-12-07T07:00:00.000Z',
  state: 'pending',
  appliedAt: null,
  fromHub,
});
const OVERVIEW: PricesOverview = {
  lists: [],
  promotions: [promotion(1, 'Акција хаба', true), promotion(2, 'Касина акција', false)],
  scheduled: [scheduled(3, true), scheduled(4, false)],
  next: [],
};

async function mount(lang: Language) {
  const fake = createFakeApi({
    'prices.overview': () => ok(OVERVIEW),
    'catalog.groups': () => ok([]),
  });
  const t = (key: ManagerText, params?: Record<string, string | number>) => mt(lang, key, params);
  await act(async () => dom.root.render(<PricesTab api={fake.api} t={t} lang={lang} />));
  return t;
}

const rowOf = (name: string): HTMLTableRowElement => {
  const row = [...dom.container.querySelectorAll('tr')].find((r) => r.textContent?.includes(name));
  if (!row) throw new Error(`no row ${name}`);
  return row;
};
const buttons = (row: HTMLElement): string[] =>
  [...row.querySelectorAll('button')].map((b) => b.getAttribute('aria-label') ?? '');

describe('Менаџер → Цене: which rules came from the hub', () => {
  for (const lang of ['sr-Cyrl', 'sr-Latn', 'en'] as const) {
    it(`a hub rule is marked and read-only, the till's own is not (${lang})`, async () => {
      const t = await mount(lang);
      const headers = [...dom.container.querySelectorAll('th')].map((h) => h.textContent);
      expect(headers.filter((h) => h === t('prices_col_source'))).toHaveLength(2);

      const hub = rowOf('Акција хаба');
      expect(hub.textContent).toContain(t('prices_source_hub'));
      expect(hub.textContent).toContain(t('prices_hub_readonly'));
      expect(buttons(hub)).toEqual([]);
      expect(hub.querySelector('[role="note"]')?.getAttribute('aria-label')).toBe(
        t('prices_hub_readonly_named', { name: 'Акција хаба' }),
      );

      const own = rowOf('Касина акција');
      expect(own.textContent).toContain(t('prices_source_till'));
      expect(own.textContent).not.toContain(t('prices_hub_readonly'));
      expect(buttons(own)).toEqual([
        t('prices_edit', { name: 'Касина акција' }),
        t('prices_delete', { name: 'Касина акција' }),
      ]);

      // A scheduled change from the hub cannot be cancelled here; the till's own can.
      const hubChange = rowOf('Земичка');
      expect(hubChange.textContent).toContain(t('prices_source_hub'));
      expect(buttons(hubChange)).toEqual([]);
      expect(buttons(rowOf('Кифла'))).toHaveLength(1);
    });
  }
});
