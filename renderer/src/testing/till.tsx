/**
 * The till's whole screen in a component test: the App on a fake core that answers what every till screen asks
 * for at start (app info, tax rates, sync state, favourites, a cashier's login), plus the test's own handlers (which
 * win), rendered into the test's root and, unless told otherwise, with the cashier logged in.
 */
import { act } from 'react';
import type { Root } from 'react-dom/client';
import type { Language } from '../../../shared/domain.ts';
import { App } from '../App.tsx';
import { createI18n } from '../i18n/index.ts';
import { createPosStore, type PosStore } from '../store/index.ts';
import { createFakeApi, ok, type FakeApi, type FakeHandlers } from './fake-api.ts';
import { BREAD, DEMO_RATES, INFO, SYNC } from './fixtures.ts';

/** The cashier the till's tests log in with PIN 1111. */
export const ANA = { id: 2, name: 'Ана Анић', role: 'cashier' as const, active: true, mustChangePin: false };

export async function startTill(
  root: Root,
  handlers: FakeHandlers,
  options: { lang?: Language; login?: boolean } = {},
): Promise<{ fake: FakeApi; store: PosStore }> {
  const lang = options.lang ?? 'sr-Cyrl';
  // jsdom draws nothing: the screens that draw (QR codes, charts) get no canvas context.
  HTMLCanvasElement.prototype.getContext = (() => null) as never;
  const fake = createFakeApi({
    'app.info': () => ok({ ...INFO, language: lang }),
    'taxRates.get': () => ok(DEMO_RATES),
    'sync.status': () => ok(SYNC),
    'catalog.favourites': () => ok([BREAD]),
    'staff.login': () => ok(ANA),
    ...handlers,
  });
  const store = createPosStore(fake.api, undefined, { getItem: () => null, setItem: () => {} });
  await act(async () => root.render(<App store={store} api={fake.api} i18n={createI18n(lang)} />));
  if (options.login !== false) await act(async () => void (await store.getState().login('1111')));
  return { fake, store };
}
