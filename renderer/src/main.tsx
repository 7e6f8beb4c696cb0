/** The renderer's entry: pick the transport, create the store and i18n, render the counter. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { createI18n } from './i18n/index.ts';
import { createPosStore } from './store/index.ts';
import { pickTransport } from './transport.ts';
import './app.css';

const root = createRoot(document.getElementById('root') as HTMLElement);
try {
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
} catch (err) {
  const p = document.createElement('p');
  p.setAttribute('role', 'alert');
  p.className = 'boot';
  p.textContent = err instanceof Error ? err.message : String(err);
  document.getElementById('root')?.replaceChildren(p);
}
