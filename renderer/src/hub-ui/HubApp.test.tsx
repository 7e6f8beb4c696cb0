// @vitest-environment jsdom
/**
 * The hub page reads its words through i18next's useTranslation like the till: the login form shows in
 * Serbian Cyrillic first and follows the language picker to Latin and English, word for word as the catalog.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HubApp } from './HubApp.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

function choose(lang: string): void {
  const select = container.querySelector('select') as HTMLSelectElement;
  act(() => {
    select.value = lang;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('hub page words', () => {
  it('shows the login in Serbian Cyrillic, then in the language picked', () => {
    act(() => root.render(<HubApp />));
    const text = () => [
      container.querySelector('h1')?.textContent,
      container.querySelector('form')?.textContent?.replace(/\s+/g, ' '),
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
