// @vitest-environment jsdom
/**
 * The hub page reads its words through i18next's useTranslation like the till: the login form shows in
 * Serbian Cyrillic first and follows the language picker to Latin and English, word for word as the catalog.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { translate } from '../../../shared/i18n/catalog.ts';
import { HubApp, printerText } from './HubApp.tsx';
import { hubMessages, type HubKey } from './i18n.ts';
import { testRoot } from '../testing/dom.ts';

const dom = testRoot();

function choose(lang: string): void {
  const select = dom.container.querySelector('select') as HTMLSelectElement;
  act(() => {
    select.value = lang;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('hub page words', () => {
  it('shows the login in Serbian Cyrillic, then in the language picked', () => {
    act(() => dom.root.render(<HubApp />));
    const text = () => [
      dom.container.querySelector('h1')?.textContent,
      dom.container.querySelector('form')?.textContent?.replace(/\s+/g, ' '),
    ];
    expect(text()).toEqual(['Хаб продавнице', 'PIN менаџера Пријава']);
    expect(document.documentElement.lang).toBe('sr-Cyrl');
    choose('sr-Latn');
    expect(text()).toEqual(['Hab prodavnice', 'PIN menadžera Prijava']);
    choose('en');
    expect(text()).toEqual(['Store hub', 'Manager PIN Log in']);
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
