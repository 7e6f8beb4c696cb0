/**
 * The renderer's entry: pick the transport, create the store and i18n, render the counter — or the customer
 * display (`/display` on the browser host with a display-only token; `#display=<language>` in Electron's second
 * window), which takes no till token and no store (docs/payments.md, "The customer display").
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { createI18n } from './i18n/index.ts';
import { createPosStore } from './store/index.ts';
import { pickTransport } from './transport.ts';
import { DisplayScreen } from './display/DisplayScreen.tsx';
import { displayToken, electronDisplay, hostDisplay } from './display/feed.ts';
import { LANGUAGES, type Language } from '../../shared/domain.ts';
import './app.css';

const root = createRoot(document.getElementById('root') as HTMLElement);
const electronDisplayLanguage = /^#display=([\w-]+)$/.exec(window.location.hash)?.[1];
try {
  if (window.location.pathname === '/display' && !window.pos) {
    const token = displayToken(window.location, window.localStorage, window.history);
    root.render(
      <StrictMode>
        <DisplayScreen connect={hostDisplay(new URL('/', window.location.href).href, token)} language="sr-Cyrl" />
      </StrictMode>,
    );
  } else if (window.pos && electronDisplayLanguage !== undefined) {
    const language = LANGUAGES.find((l) => l === electronDisplayLanguage) ?? 'sr-Cyrl';
    root.render(
      <StrictMode>
        <DisplayScreen connect={electronDisplay(window.pos, language as Language)} language={language} />
      </StrictMode>,
    );
  } else renderCounter();
} catch (err) {
  const p = document.createElement('p');
  p.setAttribute('role', 'alert');
  p.className = 'boot';
  p.textContent = err instanceof Error ? err.message : String(err);
  document.getElementById('root')?.replaceChildren(p);
}

function renderCounter(): void {
  const api = pickTransport(window);
  // The UI language is this till's own choice, kept in localStorage (seeded from the core's setting).
  const storage = (() => {
    try {
      return window.localStorage;
    } catch {
      return undefined;
    }
  })();
  const store = createPosStore(api, undefined, storage);
  const i18n = createI18n(store.getState().language);
  root.render(
    <StrictMode>
      <App store={store} api={api} i18n={i18n} />
    </StrictMode>,
  );
}
