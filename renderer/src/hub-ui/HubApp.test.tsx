// @vitest-environment jsdom
/**
 * The hub page reads its words through i18next's useTranslation like the till: the login form shows in
 * Serbian Cyrillic first and follows the language picker to Latin and English, word for word as the catalog.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { translate } from '../../../shared/i18n/catalog.ts';
import { HubApp, HubCallError, ShiftsTable, hubErrorText, printerText } from './HubApp.tsx';
import { hubMessages, type HubKey } from './i18n.ts';
import { chooseOption, testRoot } from '../testing/dom.ts';

const dom = testRoot();

function choose(lang: string): void {
  chooseOption(dom.container.querySelector('select'), lang);
}

describe('hub page words', () => {
  it('shows the login in Serbian Cyrillic, then in the language picked', () => {
    act(() => dom.root.render(<HubApp />));
    // The title, the PIN field's label, the pad's keys that are words, and the submit button (with its key).
    const text = () => [
      dom.container.querySelector('h1')?.textContent,
      dom.container.querySelector('input[type="password"]')?.closest('label')?.textContent,
      [...dom.container.querySelectorAll('form [aria-label]')].map((e) => e.getAttribute('aria-label')).join(' / '),
      dom.container.querySelector('form button[type="submit"]')?.textContent,
    ];
    expect(text()).toEqual([
      'Хаб продавнице',
      'PIN менаџера',
      'Тастатура за PIN / Обриши знак / Обриши све',
      'Пријава Enter',
    ]);
    expect(document.documentElement.lang).toBe('sr-Cyrl');
    choose('sr-Latn');
    expect(text()).toEqual([
      'Hab prodavnice',
      'PIN menadžera',
      'Tastatura za PIN / Obriši znak / Obriši sve',
      'Prijava Enter',
    ]);
    choose('en');
    expect(text()).toEqual(['Store hub', 'Manager PIN', 'PIN keypad / Delete a character / Clear', 'Log in Enter']);
    expect(document.documentElement.lang).toBe('en');
  });
});

describe('a till’s printer in the hub’s till view', () => {
  const words = (lang: 'sr-Cyrl' | 'sr-Latn' | 'en') => (key: HubKey, params?: Record<string, string | number>) =>
    translate(hubMessages, lang, key, params);
  const ready = { state: 'idle', paper: 'ok', coverOpen: false, error: 'none', unconfirmed: false, held: 0 };

  it('says what stops it and what waits for people, in each language; nothing for a till that does not say', () => {
    const stopped = { ...ready, state: 'stopped', paper: 'out', unconfirmed: true, held: 2 };
    expect(printerText(stopped, words('sr-Cyrl'))).toBe('нема папира, чека потврду касира, задржано за менаџера: 2');
    expect(printerText(stopped, words('sr-Latn'))).toBe('nema papira, čeka potvrdu kasira, zadržano za menadžera: 2');
    expect(printerText({ ...ready, coverOpen: true }, words('en'))).toBe('cover open');
    expect(printerText({ ...ready, paper: 'near_end' }, words('sr-Cyrl'))).toBe('спреман, папир при крају');
    // A state a newer till reports that this hub does not know: words, never the raw code.
    expect(printerText({ ...ready, state: 'warming' }, words('en'))).toBe('unknown');
    expect(printerText(null, words('en'))).toBe('—');
  });
});

describe('the tills’ shifts in the hub’s report', () => {
  const closed = {
    tillId: 1,
    tillName: 'КАСА-1',
    shopId: 1,
    shiftId: 7,
    cashier: 'Ана',
    openedAt: '2026-11-23T07:00:00.000Z',
    closedAt: '2026-11-23T15:00:00.000Z',
    closedBy: 'Ана',
    openingFloatPara: 500_000,
    cashSalesPara: 54_000,
    cashInPara: 0,
    cashOutPara: 100_000,
    expectedPara: 454_000,
    countedPara: 452_000,
    differencePara: -2_000,
  };
  const open = {
    ...closed,
    shiftId: 8,
    cashier: 'Марко',
    closedAt: null,
    closedBy: null,
    cashSalesPara: null,
    expectedPara: null,
  };
  const rows = () =>
    [...dom.container.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent),
    );

  it('lists each shift with till and cashier, the short in red; an open one says so', () => {
    const words = (key: HubKey, params?: Record<string, string | number>) =>
      translate(hubMessages, 'sr-Cyrl', key, params);
    act(() =>
      dom.root.render(
        <ShiftsTable
          t={words}
          lang="sr-Cyrl"
          shifts={[closed, { ...open, countedPara: null, differencePara: null }]}
        />,
      ),
    );
    expect(dom.container.querySelector('table')?.getAttribute('aria-label')).toBe('Смене');
    const [first, second] = rows();
    expect(first?.slice(0, 2)).toEqual(['КАСА-1', 'Ана']);
    expect(first?.slice(4)).toEqual([
      '5.000,00',
      '540,00',
      '0,00',
      '1.000,00',
      '4.540,00',
      '4.520,00',
      '-20,00 (мањак)',
    ]);
    // The short is marked as the till's shift table marks it (ui/screen.css `.mgr-short`: red and bold).
    const diff = dom.container.querySelector('tbody tr td:last-child') as HTMLElement;
    expect(diff.classList.contains('mgr-short')).toBe(true);
    expect(dom.container.querySelectorAll('td.mgr-short')).toHaveLength(1);
    expect(second?.slice(1, 4)).toEqual(['Марко', expect.any(String), 'отворена']);
    expect(second?.slice(8)).toEqual(['—', '—', '—']);
  });

  it('says when there were none, in English too', () => {
    const words = (key: HubKey, params?: Record<string, string | number>) => translate(hubMessages, 'en', key, params);
    act(() => dom.root.render(<ShiftsTable t={words} lang="en" shifts={[]} />));
    expect(dom.container.textContent).toBe('ShiftsNo shifts in this period.');
  });
});

describe('the hub’s refusals in the UI language', () => {
  const words = (lang: 'sr-Cyrl' | 'sr-Latn' | 'en') => (key: HubKey, params?: Record<string, string | number>) =>
    translate(hubMessages, lang, key, params);

  it('translates the code and names the field by its label, never the hub’s English text or a path', () => {
    const wrongPin = new HubCallError('no active manager of this shop has this PIN', 'pin', 'pin_unknown');
    expect(hubErrorText(words('sr-Cyrl'), wrongPin)).toBe('Ниједан менаџер ове продавнице нема тај PIN.');
    expect(hubErrorText(words('sr-Latn'), wrongPin)).toBe('Nijedan menadžer ove prodavnice nema taj PIN.');
    const badPrice = new HubCallError('products.0.pricePara: invalid', 'products.0.pricePara', 'invalid_input');
    expect(hubErrorText(words('sr-Cyrl'), badPrice, { pricePara: 'Цена (RSD)' })).toBe(
      'Поље „Цена (RSD)“ није исправно.',
    );
    expect(hubErrorText(words('sr-Cyrl'), badPrice)).toBe('Хаб није прихватио захтев. Покушајте поново.');
    expect(hubErrorText(words('sr-Cyrl'), new HubCallError('x', undefined, 'unauthenticated'))).toBe(
      'Пријава је истекла: пријавите се поново.',
    );
    expect(hubErrorText(words('en'), new TypeError('Failed to fetch'))).toBe(
      'The hub cannot be reached. Check the connection and try again.',
    );
  });
});
