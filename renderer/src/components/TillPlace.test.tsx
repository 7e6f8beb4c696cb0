// @vitest-environment jsdom
/**
 * The counter's header says where the cashier stands: the shop's and the till's names from the setup flow,
 * the terminal id after them; a till without names shows the terminal id alone, as before.
 */
import { act } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../shared/domain.ts';
import { TillPlace } from '../App.tsx';
import { createI18n } from '../i18n/index.ts';
import { testRoot } from '../testing/dom.ts';

const dom = testRoot();

function render(props: { shopName?: string; tillName?: string; terminalId: string }, language: Language = 'sr-Cyrl') {
  act(() =>
    dom.root.render(
      <I18nextProvider i18n={createI18n(language)}>
        <TillPlace {...props} />
      </I18nextProvider>,
    ),
  );
  const place = dom.container.querySelector<HTMLElement>('[data-testid="till-place"]');
  if (!place) throw new Error('no till place');
  return place;
}

describe('the till in the header', () => {
  it('shows the shop and the till by name, the terminal id after them, all three in the title', () => {
    const place = render({ shopName: 'Продавница Код Мике', tillName: 'Каса 1', terminalId: 'T1' });
    expect(place.querySelector('.shop')?.textContent).toBe('Продавница Код Мике');
    expect(place.querySelector('.till')?.textContent).toBe('Каса 1');
    expect(place.querySelector('.terminal')?.textContent).toBe('T1');
    expect(place.title).toBe('Продавница Код Мике · Каса 1 · Терминал T1');
  });

  it('shows only the name that is set', () => {
    const place = render({ shopName: '  ', tillName: 'Kasa 2', terminalId: 'K2' }, 'sr-Latn');
    expect(place.querySelector('.shop')).toBeNull();
    expect(place.textContent).toBe('Kasa 2K2');
    expect(place.title).toBe('Kasa 2 · Terminal K2');
  });

  it('falls back to the terminal id when no names are set', () => {
    const place = render({ shopName: '', terminalId: 'T1' }, 'en');
    expect(place.textContent).toBe('T1');
    expect(place.title).toBe('Terminal T1');
    expect(place.querySelector('.shop, .till')).toBeNull();
  });
});
